data_dir {}
