client { node_pool = "\U00110000" }
