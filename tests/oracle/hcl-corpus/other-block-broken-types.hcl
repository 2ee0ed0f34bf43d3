data_dir = "/srv"
ports {
  http = "not-a-number"
}
server {
  enabled = "maybe"
}
