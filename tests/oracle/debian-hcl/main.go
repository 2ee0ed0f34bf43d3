// A harness around the real HCL 1 (Debian's golang-github-hashicorp-hcl-dev,
// hashicorp/hcl 1.0.0, built with GO111MODULE=off from /usr/share/gocode),
// with the oracle's record protocol (see ../main.go):
//
//	a  a Nomad agent configuration file: hcl.Parse, then hcl.DecodeObject
//	   into the agent's field names for what plugctl takes from it
//
// Answers, one JSON line per record:
//
//	{"ok": {"data_dir": HEX, "client.state_dir": HEX, ...}, "json": BOOL}
//	{"error": {"kind": "parse"|"decode"|"panic", "pos": "L:C"|"-", "text": "..."}}
//
// pos is where HCL 1 says the error is: a position error's, or the "L:C"
// a JSON scanner error starts with; "-" when it says nowhere (JSON's
// parser and decoder errors, whose tokens carry no position).
//
// Strings are printed as the hex of their bytes (escapes make strings that
// are not UTF-8). A field the file leaves unset is "" (Go cannot tell it
// from one set to ""). A panic of the library is caught and answered as
// kind "panic": Nomad's agent would stop on it.
//
// Nomad builds with its own release of the library, v1.0.1-nomad-1, which
// differs from 1.0.0 in two ways that reach these fields, both reproduced
// here before decoding:
//
//   - its decodeString takes a FLOAT or BOOL literal as written, as 1.0.0
//     takes a NUMBER: the harness retypes FLOAT and BOOL literals NUMBER
//     (every field here is a string or a struct of strings, for which
//     NUMBER, FLOAT and BOOL then mean the same);
//   - its decodePtr decodes into the value a pointer already holds, and
//     Nomad's ParseConfigFile hands it a Client it allocated beforehand, so
//     a second client block is decoded into the first: the harness's Client
//     is a struct, not a pointer, which 1.0.0 decodes into in place too.
//
// It is a separate program because HCL 1 cannot be a module requirement
// here (no network); it is not in the oracle's module build.
package main

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"

	"github.com/hashicorp/hcl"
	"github.com/hashicorp/hcl/hcl/ast"
	"github.com/hashicorp/hcl/hcl/parser"
	"github.com/hashicorp/hcl/hcl/token"
)

// The fields plugctl reads, with Nomad's names and tags (command/agent/
// config.go), in the order Nomad's structs declare them.
type Config struct {
	DataDir string       `hcl:"data_dir"`
	Client  ClientConfig `hcl:"client"`
}

type ClientConfig struct {
	StateDir            string `hcl:"state_dir"`
	HostVolumesDir      string `hcl:"host_volumes_dir"`
	HostVolumePluginDir string `hcl:"host_volume_plugin_dir"`
	CommonPluginDir     string `hcl:"common_plugin_dir"`
	NodePool            string `hcl:"node_pool"`
}

func main() {
	in := bufio.NewReaderSize(os.Stdin, 1<<20)
	out := bufio.NewWriterSize(os.Stdout, 1<<20)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	var header [5]byte
	for {
		if _, err := io.ReadFull(in, header[:]); err == io.EOF {
			return
		} else if err != nil {
			fail(err)
		}
		payload := make([]byte, binary.BigEndian.Uint32(header[1:]))
		if _, err := io.ReadFull(in, payload); err != nil {
			fail(err)
		}
		if header[0] != 'a' {
			fail(fmt.Errorf("unknown operation %q", header[0]))
		}
		if err := enc.Encode(agent(payload)); err != nil {
			fail(err)
		}
	}
}

func agent(payload []byte) (answer any) {
	defer func() {
		if r := recover(); r != nil {
			answer = failure("panic", nil, fmt.Sprint(r))
		}
	}()
	root, err := hcl.Parse(string(payload))
	if err != nil {
		return failure("parse", err, err.Error())
	}
	// Nomad's build of the library: FLOAT and BOOL decode into a string as
	// written, as NUMBER does.
	ast.Walk(root, func(n ast.Node) (ast.Node, bool) {
		if lit, ok := n.(*ast.LiteralType); ok {
			if lit.Token.Type == token.FLOAT || lit.Token.Type == token.BOOL {
				lit.Token.Type = token.NUMBER
			}
		}
		return n, true
	})
	var c Config
	if err := hcl.DecodeObject(&c, root); err != nil {
		return failure("decode", err, err.Error())
	}
	hexed := func(s string) string { return hex.EncodeToString([]byte(s)) }
	return map[string]any{"ok": map[string]string{
		"data_dir":                      hexed(c.DataDir),
		"client.state_dir":              hexed(c.Client.StateDir),
		"client.host_volumes_dir":       hexed(c.Client.HostVolumesDir),
		"client.host_volume_plugin_dir": hexed(c.Client.HostVolumePluginDir),
		"client.common_plugin_dir":      hexed(c.Client.CommonPluginDir),
		"client.node_pool":              hexed(c.Client.NodePool),
	}}
}

var jsonPos = regexp.MustCompile(`^(\d+:\d+): `)

func failure(kind string, err error, text string) any {
	pos := "-"
	if pe, ok := err.(*parser.PosError); ok {
		pos = pe.Pos.String()
	} else if m := jsonPos.FindStringSubmatch(text); m != nil {
		// The JSON scanner's errors are "L:C: message".
		pos = m[1]
	}
	return map[string]any{"error": map[string]any{"kind": kind, "pos": pos, "text": text}}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "debian-hcl:", err)
	os.Exit(2)
}
