data_dir = "/srv/\777"
