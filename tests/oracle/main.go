// The oracle: reads many inputs from stdin and, for each, prints on one
// line what Nomad's Go code makes of it — the decoded value, or the exact
// error text. plugctl's differential tests (tests/it/oracle.rs) feed the
// same inputs to plugctl's decoder and compare.
//
// Input: records of one operation byte, a 4-byte big-endian length and
// that many bytes. Output: one JSON object per record, in order:
//
//	{"ok": VALUE}
//	{"error": {"kind": "syntax"|"type"|"other", "text": "...", "offset": N}}
//
// offset is json.SyntaxError's Offset, for syntax errors only. The
// operations, each decoding as the named Nomad code does:
//
//	h  host-volume fingerprint (hostvolumemanager, into *PluginFingerprint)
//	c  host-volume create      (into HostVolumePluginCreateResponse)
//	d  host-volume delete      (into HostVolumePluginDeleteResponse)
//	s  secrets fingerprint     (commonplugins, into **PluginFingerprint)
//	f  secrets fetch           (into **SecretResponse)
//	v  a version string alone  (version.NewVersion)
//
// A version prints as {"original", "string", "segments", "pre",
// "metadata"}; a nil pointer as null.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"plugctl.invalid/oracle/commonplugins"
	"plugctl.invalid/oracle/hostvolumemanager"
	"plugctl.invalid/oracle/version"
)

func main() {
	release := flag.String("go-version", "1.9.0", "the hashicorp/go-version release whose messages to reproduce")
	flag.Parse()
	if err := version.SetRelease(*release); err != nil {
		fmt.Fprintln(os.Stderr, "oracle:", err)
		os.Exit(2)
	}
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	enc := json.NewEncoder(out)
	// The output is read by serde_json; HTML escaping would only add noise.
	enc.SetEscapeHTML(false)
	var header [5]byte
	for {
		if _, err := io.ReadFull(in, header[:]); err == io.EOF {
			return
		} else if err != nil {
			fail("reading a record header: %v", err)
		}
		payload := make([]byte, binary.BigEndian.Uint32(header[1:]))
		if _, err := io.ReadFull(in, payload); err != nil {
			fail("reading a record of %d bytes: %v", len(payload), err)
		}
		if err := enc.Encode(decode(header[0], payload)); err != nil {
			fail("writing: %v", err)
		}
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "oracle: "+format+"\n", args...)
	os.Exit(2)
}

func decode(op byte, in []byte) any {
	switch op {
	case 'h':
		fp := &hostvolumemanager.PluginFingerprint{}
		if err := json.Unmarshal(in, fp); err != nil {
			return failure(err)
		}
		return ok(map[string]any{"version": describe(fp.Version)})
	case 'c':
		var resp hostvolumemanager.HostVolumePluginCreateResponse
		if err := json.Unmarshal(in, &resp); err != nil {
			return failure(err)
		}
		return ok(map[string]any{"path": resp.Path, "bytes": resp.SizeBytes, "error": resp.Error})
	case 'd':
		var resp hostvolumemanager.HostVolumePluginDeleteResponse
		if err := json.Unmarshal(in, &resp); err != nil {
			return failure(err)
		}
		return ok(map[string]any{"error": resp.Error})
	case 's':
		// Nomad passes the address of a pointer, so a bare null sets it
		// to nil.
		res := &commonplugins.PluginFingerprint{}
		if err := json.Unmarshal(in, &res); err != nil {
			return failure(err)
		}
		if res == nil {
			return ok(nil)
		}
		return ok(map[string]any{"version": describe(res.Version), "type": res.Type})
	case 'f':
		res := &commonplugins.SecretResponse{}
		if err := json.Unmarshal(in, &res); err != nil {
			return failure(err)
		}
		if res == nil {
			return ok(nil)
		}
		return ok(map[string]any{"result": res.Result, "error": res.Error})
	case 'v':
		v, err := version.NewVersion(string(in))
		if err != nil {
			return failure(err)
		}
		return ok(describe(v))
	}
	fail("unknown operation %q", op)
	return nil
}

func describe(v *version.Version) any {
	if v == nil {
		return nil
	}
	return map[string]any{
		"original": v.Original(),
		"string":   v.String(),
		"segments": v.Segments64(),
		"pre":      v.Prerelease(),
		"metadata": v.Metadata(),
	}
}

func ok(value any) map[string]any { return map[string]any{"ok": value} }

func failure(err error) map[string]any {
	e := map[string]any{"kind": "other", "text": err.Error()}
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		e["kind"] = "syntax"
		e["offset"] = syntax.Offset
	case errors.As(err, &typ):
		e["kind"] = "type"
	}
	return map[string]any{"error": e}
}
