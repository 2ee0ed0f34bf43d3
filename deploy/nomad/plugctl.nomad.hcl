# plugctl on every Nomad client: a system job whose task fingerprints the
# node's common plugins every 5 minutes (4.5 to 5.5, a different wait each
# round, so a fleet does not run in the same second) and writes their
# health for node_exporter's textfile collector (docs/fleet.md). Needs the
# raw_exec driver enabled on the clients and plugctl installed (the Debian
# package puts it in /usr/bin). tests/it/deploy.rs parses this file and
# runs this exact script.
#
# Not a periodic sysbatch job: Nomad's open issues with those (nomad#17395:
# a node that joins gets one allocation for every periodic instance the
# scheduler still holds, all at once; nomad#17397: they run more often
# than their cron says) do not touch a system job, whose one allocation a
# node keeps and whose task keeps the time itself.
#
# An unhealthy plugin (plugctl exits 1) is the metric's news, not a failed
# allocation: the loop goes on. Any other exit (a broken agent
# configuration, a registry plugctl refuses) ends the task with that code,
# visible in Nomad, and the restart policy runs it again.
#
# No plugin path is named: raw_exec runs plugctl as the client's user
# (root), and plugctl reads the agent's own configuration (/etc/nomad.d
# when it exists) for data_dir and the client's plugin and volume
# directories, so each node is fingerprinted where its agent looks. A
# fleet whose agents read another configuration adds
#   env { PLUGCTL_NOMAD_CONFIG = "/etc/nomad/client.hcl" }
# to the task.
job "plugctl-fingerprint" {
  type        = "system"
  datacenters = ["*"]
  node_pool   = "all"

  group "plugctl" {
    restart {
      attempts = 3
      interval = "30m"
      delay    = "1m"
      mode     = "delay"
    }

    task "fingerprint" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args = [
          "-c",
          <<-EOT
          trap 'exit 0' INT TERM
          while :; do
            /usr/bin/plugctl --quiet fingerprint --textfile /var/lib/prometheus/node-exporter
            status=$?
            if [ "$status" -gt 1 ]; then exit "$status"; fi
            sleep "$((270 + $(od -An -N1 -tu1 /dev/urandom) % 60))" &
            wait $!
          done
          EOT
        ]
      }

      resources {
        cpu    = 100
        memory = 64
      }
    }
  }
}
