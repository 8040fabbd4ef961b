package testindex

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
)

// ReadPair reads the latest index at latest and the baseline at base as
// Read reads each (a missing file is an empty index; one that does not
// read or decode is nil, its error joined to err), decoding once when the
// two files hold the same bytes: a loop whose test files are as they were
// at the start, where every Stop reads both. The two are distinct maps
// either way; their File values share the Tests slices, which no reader
// changes. sum is the Sum of the latest file's bytes, "" when it is
// missing or holds the baseline's: what the caller checks against the
// latest index it wrote before trusting its entries.
func ReadPair(latest, base string) (cur, old Index, sum string, err error) {
	a, aErr := readBytes(latest)
	b, bErr := readBytes(base)
	same := aErr == nil && a != nil && bErr == nil && b != nil && bytes.Equal(a, b)
	cur, aErr = decodeAt(latest, a, aErr)
	if same && aErr == nil {
		return cur, maps.Clone(cur), "", nil
	}
	if a != nil && !same {
		sum = Sum(a)
	}
	old, bErr = decodeAt(base, b, bErr)
	return cur, old, sum, errors.Join(aErr, bErr)
}

// readBytes reads the file at path: nil and no error when it is missing.
func readBytes(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []byte{} // an empty file is not a missing one
	}
	return data, nil
}

// decodeAt is Read's answer for what readBytes read from path.
func decodeAt(path string, data []byte, err error) (Index, error) {
	switch {
	case err != nil:
		return nil, err
	case data == nil:
		return Index{}, nil
	}
	idx, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return idx, nil
}
