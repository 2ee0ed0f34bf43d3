data_dir = "/srv" /* never closed
