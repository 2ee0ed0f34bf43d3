client {
  node_pool = <<-EOT
    pool
    EOT
}
