data_dir = <<EOT
/srv/nomad
   EOT
