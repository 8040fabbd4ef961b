// Package schema validates a stored reflection, YAML or JSON, against the
// reflection-memory JSON schema (draft 2020-12) that ralph-hooks ships as
// schemas/reflection-memory.schema.json.
//
// It is a package of its own because the validator it uses compiles every
// JSON Schema draft's metaschema when the process starts (about 5 ms):
// package reflection is linked into the stop and post-tool-call hooks,
// which must not pay that on every call. Tests, and tools that check
// stored reflections, import this package.
package schema

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"go.yaml.in/yaml/v3"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is the reflection-memory JSON schema. The repository ships the
// same bytes as schemas/reflection-memory.schema.json.
//
//go:embed reflection-memory.schema.json
var Schema []byte

const url = "https://github.com/ralph-hooks/ralph-hooks/schemas/reflection-memory.schema.json"

// compiled is the schema, compiled on first use (BenchmarkCompile: under a
// millisecond), once per process.
var compiled = sync.OnceValues(compile)

// compile compiles Schema.
func compile() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		return nil, fmt.Errorf("reflection schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("reflection schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("reflection schema: %w", err)
	}
	return s, nil
}

var printer = message.NewPrinter(language.English)

// Validate checks a reflection, YAML or JSON, against Schema. The error is
// one line naming the first offending field, e.g. "reflection field
// outcome: value must be one of 'success', 'failure', 'partial'".
func Validate(doc []byte) error {
	s, err := compiled()
	if err != nil {
		return err
	}
	var v any
	if err := yaml.Unmarshal(doc, &v); err != nil {
		return fmt.Errorf("reflection is not YAML or JSON: %s", oneLine(err.Error()))
	}
	// Through JSON, so that YAML's types (int, time.Time) become the
	// validator's (json.Number, string).
	js, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("reflection has a value JSON cannot hold: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return fmt.Errorf("reflection: %v", err)
	}
	err = s.Validate(inst)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	var leaves []string
	collect(ve, &leaves)
	sort.Strings(leaves) // the validator's order follows map iteration
	if len(leaves) == 0 {
		return fmt.Errorf("reflection: %s", oneLine(err.Error()))
	}
	msg := leaves[0]
	if len(leaves) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(leaves)-1)
	}
	return errors.New(msg)
}

// collect appends one line per leaf of the error tree: the field it is
// about and what is wrong with it.
func collect(e *jsonschema.ValidationError, out *[]string) {
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			collect(c, out)
		}
		return
	}
	loc := append([]string(nil), e.InstanceLocation...)
	what := e.ErrorKind.LocalizedString(printer)
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		loc = append(loc, k.Missing[0])
		what = "missing"
		if len(k.Missing) > 1 {
			what += " (also " + strings.Join(k.Missing[1:], ", ") + ")"
		}
	case *kind.AdditionalProperties:
		loc = append(loc, k.Properties[0])
		what = "unknown field"
		if len(k.Properties) > 1 {
			what += " (also " + strings.Join(k.Properties[1:], ", ") + ")"
		}
	}
	field := strings.Join(loc, ".")
	if field == "" {
		field = "(the document)"
	}
	*out = append(*out, "reflection field "+field+": "+oneLine(what))
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
