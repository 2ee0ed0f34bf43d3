data_dir = "/srv" / nope
