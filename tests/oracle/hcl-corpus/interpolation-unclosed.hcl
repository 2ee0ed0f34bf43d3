data_dir = "/srv/${a"
