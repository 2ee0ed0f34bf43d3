"data_dir" = "/srv/q"
"client" {
  "node_pool" = "q"
}
