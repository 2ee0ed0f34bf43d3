data_dir = <<EOT
/srv/nomad
EOTX
