data_dir = "/srv"
