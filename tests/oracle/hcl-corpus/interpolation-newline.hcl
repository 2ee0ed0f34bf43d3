data_dir = "/srv/${a
b}"
