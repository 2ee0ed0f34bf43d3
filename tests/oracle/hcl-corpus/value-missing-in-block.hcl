client {
  node_pool =
}
