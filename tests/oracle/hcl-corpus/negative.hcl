data_dir = -12
