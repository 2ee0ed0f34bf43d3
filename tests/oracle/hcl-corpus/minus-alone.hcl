data_dir = -
