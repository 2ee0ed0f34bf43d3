data_dir = "/srv/"
