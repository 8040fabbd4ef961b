package posttool

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/ralph-hooks/ralph-hooks/internal/loop"
)

// The loop's index files (baseline.json, test-index.json) are read with
// gjson rather than encoding/json: in a project of 5,000 files the index
// of its test files is hundreds of kilobytes, which encoding/json takes
// several milliseconds to decode, a third of post-tool-call's budget.

// decodeIndex decodes an index file as package loop writes it.
func decodeIndex(data []byte) (loop.Index, error) {
	if !gjson.ValidBytes(data) {
		return nil, errors.New("not JSON")
	}
	root := gjson.ParseBytes(data)
	if !root.IsObject() {
		return nil, errors.New("not a JSON object")
	}
	idx := loop.Index{}
	var err error
	root.ForEach(func(k, v gjson.Result) bool {
		var f loop.FileScan
		if f, err = fileScan(v); err != nil {
			err = fmt.Errorf("%q: %w", k.Str, err)
			return false
		}
		idx[validUTF8(k.Str)] = f
		return true
	})
	if err != nil {
		return nil, err
	}
	return idx, nil
}

// indexEntry returns the entry of the file rel in an index file, or nil
// when it has none (or the file does not parse as an index).
func indexEntry(data []byte, rel string) *loop.FileScan {
	v := gjson.GetBytes(data, gjson.Escape(rel))
	if !v.IsObject() {
		return nil
	}
	f, err := fileScan(v)
	if err != nil {
		return nil
	}
	return &f
}

// validUTF8 replaces invalid UTF-8 as encoding/json does when it decodes.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// fileScan decodes one entry of an index.
func fileScan(v gjson.Result) (loop.FileScan, error) {
	var f loop.FileScan
	if !v.IsObject() {
		return f, errors.New("not an object")
	}
	var err error
	num := func(key string, r gjson.Result) int64 {
		if r.Type != gjson.Number {
			err = fmt.Errorf("%s: want a number", key)
			return 0
		}
		return r.Int()
	}
	v.ForEach(func(k, r gjson.Result) bool {
		switch k.Str {
		case "size":
			f.Size = num(k.Str, r)
		case "mtime_ns":
			f.ModTime = num(k.Str, r)
		case "skips":
			f.Skips = int(num(k.Str, r))
		case "assertions":
			f.Assertions = int(num(k.Str, r))
		case "error":
			if r.Type != gjson.String {
				err = errors.New("error: want a string")
			}
			f.Err = validUTF8(r.Str)
		case "tests":
			if r.Type == gjson.Null {
				return true
			}
			if !r.IsArray() {
				err = errors.New("tests: want an array")
				return false
			}
			f.Tests = []string{}
			r.ForEach(func(_, t gjson.Result) bool {
				if t.Type != gjson.String {
					err = errors.New("tests: want strings")
					return false
				}
				f.Tests = append(f.Tests, validUTF8(t.Str))
				return true
			})
		}
		return err == nil
	})
	return f, err
}
