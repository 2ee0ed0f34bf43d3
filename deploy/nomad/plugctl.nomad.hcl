# plugctl on every Nomad client: a periodic sysbatch job that fingerprints
# the node's common plugins and writes their health for node_exporter's
# textfile collector (docs/fleet.md). Needs the raw_exec driver enabled on
# the clients and plugctl installed (the Debian package puts it in
# /usr/bin). tests/deploy.rs parses this file and runs this exact command.
#
# No plugin path is named: raw_exec runs plugctl as the client's user
# (root), and plugctl reads the agent's own configuration (/etc/nomad.d
# when it exists) for data_dir and the client's plugin and volume
# directories, so each node is fingerprinted where its agent looks. A
# fleet whose agents read another configuration adds
#   env { PLUGCTL_NOMAD_CONFIG = "/etc/nomad/client.hcl" }
# to the task.
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
