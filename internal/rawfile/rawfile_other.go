//go:build !unix

package rawfile

import (
	"io/fs"
	"os"
)

// ReadFile reads the whole file name, as os.ReadFile.
func ReadFile(name string) ([]byte, error) { return os.ReadFile(name) }

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
