client {
  node_pooK = "x"
}
