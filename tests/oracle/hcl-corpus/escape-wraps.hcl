client { node_pool = "\UFFFFFFFF" }
