client {
  node_pool = "one"
}
client {
  node_pool = ""
}
