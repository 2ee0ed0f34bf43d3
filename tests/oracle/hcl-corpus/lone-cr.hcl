data_dir = "/srv"client { }
