// A harness around the real hashicorp/go-version (Debian's
// golang-github-hashicorp-go-version-dev, built with GO111MODULE=off from
// /usr/share/gocode), with the oracle's record protocol (see ../main.go):
//
//	v  NewVersion of the payload: a version as the oracle prints it
//	k  Compare of two versions separated by a NUL byte: {"ok": -1|0|1},
//	   or the error of whichever does not parse
//
// It is a separate program because go-version cannot be a module
// requirement here (no network); it is not in the oracle's module build.
package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"

	version "github.com/hashicorp/go-version"
)

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
		var result any
		switch header[0] {
		case 'v':
			result = parse(string(payload))
		case 'k':
			a, b, _ := bytes.Cut(payload, []byte{0})
			va, err := version.NewVersion(string(a))
			if err != nil {
				result = failure(err)
				break
			}
			vb, err := version.NewVersion(string(b))
			if err != nil {
				result = failure(err)
				break
			}
			result = map[string]any{"ok": va.Compare(vb)}
		default:
			fail(fmt.Errorf("unknown operation %q", header[0]))
		}
		if err := enc.Encode(result); err != nil {
			fail(err)
		}
	}
}

func parse(text string) any {
	v, err := version.NewVersion(text)
	if err != nil {
		return failure(err)
	}
	return map[string]any{"ok": map[string]any{
		"original": v.Original(),
		"string":   v.String(),
		"segments": v.Segments64(),
		"pre":      v.Prerelease(),
		"metadata": v.Metadata(),
	}}
}

func failure(err error) any {
	return map[string]any{"error": map[string]any{"kind": "other", "text": err.Error()}}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "debian-go-version:", err)
	os.Exit(2)
}
