data_dir = "/srv/ÿ"
