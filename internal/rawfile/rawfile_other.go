//go:build !unix

package rawfile

import (
	"io/fs"
	"os"
)

// ReadFile reads the whole file name, as os.ReadFile.
func ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

// ReadInto reads the whole file name into buf's storage, from its start,
// growing it as needed, and returns what it read.
func ReadInto(buf []byte, name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return append(buf[:0], data...), nil
}

// Append appends data to the file name, creating it with perm when it does
// not exist.
func Append(name string, data []byte, perm uint32) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND|os.O_CREATE, fs.FileMode(perm))
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
