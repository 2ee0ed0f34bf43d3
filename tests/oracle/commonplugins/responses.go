// Package commonplugins holds the structs a Nomad client decodes a secrets
// plugin's stdout into, named as Nomad names them.
package commonplugins

import "plugctl.invalid/oracle/version"

// PluginFingerprint is what every common plugin's `fingerprint` answers.
type PluginFingerprint struct {
	Version *version.Version `json:"version"`
	Type    *string          `json:"type"`
}

// SecretResponse is what `fetch` answers.
type SecretResponse struct {
	Result map[string]string `json:"result"`
	Error  *string           `json:"error"`
}
