data_dir = .5
