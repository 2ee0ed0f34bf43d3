client "x" {
  node_pool = "p"
}
