// The linked command is the floor with pre-tool-call's packages linked: it
// imports, for their initialisation alone, every package pre-tool-call
// links except ralph's own (TestLinkedLinksWhatPreToolCallLinks keeps the
// two lists equal), reads stdin and exits. What it costs above bin/noop is
// what a hook pays for its libraries before running a line of ralph's code;
// what pre-tool-call costs above it is ralph's own work.
package main

import (
	"io"
	"os"

	_ "archive/tar"
	_ "archive/zip"
	_ "compress/gzip"
	_ "crypto/sha256"
	_ "debug/buildinfo"
	_ "embed"
	_ "encoding/hex"
	_ "encoding/json"
	_ "flag"
	_ "go/parser"
	_ "math/rand/v2"
	_ "net/url"
	_ "os/exec"
	_ "os/user"
	_ "regexp"
	_ "text/tabwriter"

	_ "github.com/bmatcuk/doublestar/v4"
	_ "github.com/gofrs/flock"
	_ "github.com/tidwall/gjson"
	_ "github.com/tidwall/sjson"
	_ "go.yaml.in/yaml/v3"
	_ "mvdan.cc/sh/v3/expand"
	_ "mvdan.cc/sh/v3/fileutil"
	_ "mvdan.cc/sh/v3/syntax"
)

func main() {
	io.Copy(io.Discard, os.Stdin)
}
