client "node_pool" {}
