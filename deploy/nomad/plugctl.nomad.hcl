# plugctl on every Nomad client: a periodic sysbatch job that fingerprints
# the node's common plugins and writes their health for node_exporter's
# textfile collector (docs/fleet.md). Needs the raw_exec driver enabled on
# the clients and plugctl installed (the Debian package puts it in
# /usr/bin). tests/deploy.rs parses this file and runs this exact command.
job "plugctl-fingerprint" {
  type        = "sysbatch"
  datacenters = ["*"]
  node_pool   = "all"

  periodic {
    crons            = ["*/5 * * * *"]
    prohibit_overlap = true
  }

  group "plugctl" {
    task "fingerprint" {
      driver = "raw_exec"

      config {
        command = "/usr/bin/plugctl"
        args = [
          "--quiet",
          "--plugin-dir", "/opt/nomad/data/common_plugins",
          "--host-volume-plugin-dir", "/opt/nomad/data/host_volume_plugins",
          "--registry", "/var/lib/plugctl/registry.json",
          "fingerprint",
          "--textfile", "/var/lib/prometheus/node-exporter",
        ]
      }

      resources {
        cpu    = 100
        memory = 64
      }
    }
  }
}
