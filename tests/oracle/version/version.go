// Package version is the part of github.com/hashicorp/go-version that
// reaches encoding/json: a *Version field decodes a JSON string through
// UnmarshalText, which parses it as NewVersion does. The package name and
// the type name matter: Go's type errors print them (`*version.Version`).
//
// The grammar is go-version's (one anchored regular expression, matched
// leftmost-first); the rest is written for the oracle. Messages follow the
// go-version release chosen with SetRelease: 1.8.0 lower-cased them.
package version

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The grammar, one piece per line: an optional v, dot-separated numbers
// (group 1, lazily), a pre-release after a dash and a digit (group 4) or a
// looser one whose dash is optional (group 7), then +metadata (group 10).
var grammar = regexp.MustCompile("^" +
	`v?` +
	`([0-9]+(\.[0-9]+)*?)` +
	`(` +
	`-([0-9]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*)` +
	`|` +
	`(-?([A-Za-z\-~]+[0-9A-Za-z\-~]*(\.[0-9A-Za-z\-~]+)*))` +
	`)?` +
	`(\+([0-9A-Za-z\-~]+(\.[0-9A-Za-z\-~]+)*))?` +
	`?` +
	"$")

// capitalized is true for go-version before 1.8.0 ("Malformed version").
var capitalized = false

// SetRelease picks the go-version release whose messages are reproduced.
func SetRelease(release string) error {
	switch release {
	case "1.7.0":
		capitalized = true
	case "1.8.0", "1.9.0":
		capitalized = false
	default:
		return errors.New("unknown go-version release " + release)
	}
	return nil
}

func message(text string) string {
	if capitalized {
		return strings.ToUpper(text[:1]) + text[1:]
	}
	return text
}

// Version is one parsed version.
type Version struct {
	segments []int64
	pre      string
	metadata string
	original string
}

// NewVersion parses text as go-version's NewVersion does.
func NewVersion(text string) (*Version, error) {
	m := grammar.FindStringSubmatch(text)
	if m == nil {
		return nil, fmt.Errorf("%s %s", message("malformed version:"), text)
	}
	var segments []int64
	for _, part := range strings.Split(m[1], ".") {
		n, err := strconv.ParseInt(part, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("%s %s", message("error parsing version:"), err)
		}
		segments = append(segments, n)
	}
	for len(segments) < 3 {
		segments = append(segments, 0)
	}
	pre := m[7]
	if pre == "" {
		pre = m[4]
	}
	return &Version{segments: segments, pre: pre, metadata: m[10], original: text}, nil
}

// UnmarshalText is what encoding/json calls for a JSON string.
func (v *Version) UnmarshalText(b []byte) error {
	parsed, err := NewVersion(string(b))
	if err != nil {
		return err
	}
	*v = *parsed
	return nil
}

// Original is the text as given.
func (v *Version) Original() string { return v.original }

// Segments64 are the numbers, padded to three.
func (v *Version) Segments64() []int64 { return append([]int64(nil), v.segments...) }

// Prerelease is the pre-release without its separator.
func (v *Version) Prerelease() string { return v.pre }

// Metadata is the build metadata without its +.
func (v *Version) Metadata() string { return v.metadata }

// String re-prints the numbers, then -pre and +metadata.
func (v *Version) String() string {
	parts := make([]string, len(v.segments))
	for i, s := range v.segments {
		parts[i] = strconv.FormatInt(s, 10)
	}
	out := strings.Join(parts, ".")
	if v.pre != "" {
		out += "-" + v.pre
	}
	if v.metadata != "" {
		out += "+" + v.metadata
	}
	return out
}
