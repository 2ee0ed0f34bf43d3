data_dir = "/srv/a"
data_dir = "/srv/b"
