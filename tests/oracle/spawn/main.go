// The parent a Nomad client is to its plugins, reduced to what a plugin
// inherits from it: os/exec with only the protocol's environment, no
// SysProcAttr and no Dir, stdin left nil (the null device), as the
// client's host-volume and secrets plugin runners start a plugin.
//
//	spawn PLUGIN: runs PLUGIN fingerprint, exits with its status.
//
// Standard library only; built by tests/it/inherit.rs.
package main

import (
	"os"
	"os/exec"
)

func main() {
	cmd := exec.Command(os.Args[1], "fingerprint")
	cmd.Env = []string{"DHV_OPERATION=fingerprint"}
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
}
