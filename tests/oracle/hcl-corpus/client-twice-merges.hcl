client {
  node_pool = "one"
  state_dir = "/srv/state"
}
client {
  node_pool = "two"
}
