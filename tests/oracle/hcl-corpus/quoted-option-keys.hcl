data_dir = "/opt/nomad/data"
client {
  enabled = true
  options {
    "driver.raw_exec.enable" = "1"
    "docker.privileged.enabled" = "true"
  }
  meta {
    "rack" = "r1"
  }
  node_pool = "gpu"
}
