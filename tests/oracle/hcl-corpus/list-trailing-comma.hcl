client {
  servers = ["a", "b",]
  node_pool = "p"
}
