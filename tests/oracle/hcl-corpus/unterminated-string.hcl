data_dir = "/srv/nomad
