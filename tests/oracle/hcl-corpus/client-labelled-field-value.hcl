client "node_pool" { a = 1 }
