client { node_pool = "\ud800" }
