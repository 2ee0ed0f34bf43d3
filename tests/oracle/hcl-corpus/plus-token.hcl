data_dir = +1
