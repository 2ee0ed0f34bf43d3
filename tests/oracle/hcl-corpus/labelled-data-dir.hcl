data_dir "x" { }
