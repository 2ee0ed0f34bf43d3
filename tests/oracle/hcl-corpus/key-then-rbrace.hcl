client {
  node_pool
}
