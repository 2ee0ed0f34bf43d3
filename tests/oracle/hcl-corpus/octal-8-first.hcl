data_dir = 08
