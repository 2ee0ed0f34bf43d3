data_dir = <<-EOT
/srv
EOT
