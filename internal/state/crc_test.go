package state

import (
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// TestChecksumIsCRC32C: both paths give crc32's CRC-32C, around the size
// that switches between them, so a cache written by either reads by the
// other (and by ralph before the byte-at-a-time path).
func TestChecksumIsCRC32C(t *testing.T) {
	tab := crc32.MakeTable(crc32.Castagnoli)
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 7, 8, 9, 100, 4096, crcSmall - 1, crcSmall, crcSmall + 1, 200 << 10} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(r.Uint32())
		}
		if got, want := checksum(data), crc32.Checksum(data, tab); got != want {
			t.Errorf("checksum of %d bytes = %08x, want %08x", n, got, want)
		}
	}
}

// TestReadCacheOfInstructionSum: a cache whose trailer was summed by the
// instruction path at any size (as ralph wrote every cache before) reads
// back whole, and one with a bit flipped is torn.
func TestReadCacheOfInstructionSum(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{10, crcSmall - 1, crcSmall + 10} {
		data := make([]byte, n)
		for i := range data {
			data[i] = byte(i * 31)
		}
		var tr [12]byte
		putTrailer(tr[:], len(data), crc32.Checksum(data, crc32.MakeTable(crc32.Castagnoli)))
		file := append(append(append([]byte{}, data...), tr[:]...), cacheMagic...)
		path := filepath.Join(dir, "c.bin")
		if err := os.WriteFile(path, file, 0o644); err != nil {
			t.Fatal(err)
		}
		if got, err := ReadCache(path); err != nil || string(got) != string(data) {
			t.Errorf("%d bytes: ReadCache = %d bytes, %v", n, len(got), err)
		}
		file[n/2] ^= 1
		os.WriteFile(path, file, 0o644)
		if _, err := ReadCache(path); err == nil {
			t.Errorf("%d bytes, a bit flipped: ReadCache took it", n)
		}
	}
}

func putTrailer(tr []byte, n int, sum uint32) {
	for i := range 8 {
		tr[i] = byte(uint64(n) >> (56 - 8*i))
	}
	for i := range 4 {
		tr[8+i] = byte(sum >> (24 - 8*i))
	}
}
