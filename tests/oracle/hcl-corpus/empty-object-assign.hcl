data_dir = {}
