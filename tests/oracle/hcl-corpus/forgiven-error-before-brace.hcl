client {
  node_pool = "p"
  x = }
}
