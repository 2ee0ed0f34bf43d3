data_dir = "/srv", bind_addr = "0.0.0.0",
client { node_pool = "a", state_dir = "/s", }
