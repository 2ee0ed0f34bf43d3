clïent { node_pool = "u" }
data_dir = "/srv"
