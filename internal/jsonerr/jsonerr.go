// Package jsonerr says what is wrong with a JSON file ralph reads, in a
// few words that name the field: encoding/json's own errors name Go types
// ("json: cannot unmarshal string into Go struct field .plain.iteration
// of type int"), which tell the human who must fix the file nothing.
package jsonerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
)

// Say returns err, an error of encoding/json, as a short phrase: "iteration:
// want a whole number, got a string", "not valid JSON at byte 12",
// "truncated: it ends at byte 100". Any other error is returned as it is.
func Say(err error) string {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		msg := fmt.Sprintf("want %s, got %s", want(te.Type), got(te.Value))
		if f := field(te.Field); f != "" {
			return f + ": " + msg
		}
		return msg
	case errors.As(err, &se):
		if se.Error() == "unexpected end of JSON input" {
			return fmt.Sprintf("truncated: it ends at byte %d", se.Offset)
		}
		return fmt.Sprintf("not valid JSON at byte %d", se.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "truncated"
	}
	// time.Time's own decoder, whose errors name no field.
	if msg := err.Error(); strings.HasPrefix(msg, "Time.UnmarshalJSON") || strings.HasPrefix(msg, "parsing time") {
		return "a time is not one like 2026-01-27T10:05:00Z"
	}
	return err.Error()
}

// field is the dotted JSON path of a field, without the names of the
// embedded structs ralph's own decoders wrap their types in ("plain").
func field(path string) string {
	var parts []string
	for _, p := range strings.Split(path, ".") {
		if p != "" && p != "plain" {
			parts = append(parts, p)
		}
	}
	return strings.Join(parts, ".")
}

// want names what a Go type holds in JSON.
func want(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number, 0 or more"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Pointer:
		return want(t.Elem())
	}
	return "another type"
}

// got names what the JSON held, from UnmarshalTypeError's Value ("string",
// "number", "number -1", "object", "array", "bool").
func got(v string) string {
	switch v {
	case "string":
		return "a string"
	case "number":
		return "a number"
	case "object":
		return "an object"
	case "array":
		return "a list"
	case "bool":
		return "true or false"
	}
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return "the number " + n
	}
	return v
}
