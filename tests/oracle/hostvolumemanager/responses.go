// Package hostvolumemanager holds the structs a Nomad client decodes a
// host-volume plugin's stdout into, with Nomad's package, type, field and
// tag names: Go's error messages print all four.
package hostvolumemanager

import "plugctl.invalid/oracle/version"

// PluginFingerprint is what `fingerprint` answers.
type PluginFingerprint struct {
	Version *version.Version `json:"version"`
}

// HostVolumePluginCreateResponse is what `create` answers.
type HostVolumePluginCreateResponse struct {
	Path      string `json:"path"`
	SizeBytes int64  `json:"bytes"`
	Error     string `json:"error"`
}

// HostVolumePluginDeleteResponse is what a failed `delete` may answer.
type HostVolumePluginDeleteResponse struct {
	Error string `json:"error"`
}
