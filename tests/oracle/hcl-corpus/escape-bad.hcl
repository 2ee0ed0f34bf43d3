data_dir = "/srv/\q"
