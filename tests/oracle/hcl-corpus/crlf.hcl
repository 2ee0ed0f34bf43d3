data_dir = "/srv"
client {
  node_pool = "crlf"
}
