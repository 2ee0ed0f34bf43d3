data_dir = 0089
