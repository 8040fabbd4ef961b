package state

import (
	"hash/crc32"
	"sync"
)

// crcSmall is the size under which a cache's CRC-32C is computed a byte at
// a time from a 1 KiB table rather than with the CPU's CRC instruction:
// crc32's instruction path first builds tables of 8 KiB by running the
// instruction over 1.5 MB of zeros (0.17–0.27 ms, a sixth of a whole no-op
// process's life), which a hook call that checks one small cache (go
// test's memo, 7 KB in the bench's project: 0.03 ms byte by byte) repays
// only from about 50 KB.
const crcSmall = 32 << 10

// checksum returns the CRC-32C of data: the same sum by either path.
func checksum(data []byte) uint32 {
	if len(data) < crcSmall {
		return crc32.Update(0, castagnoliBytewise(), data)
	}
	return crc32.Checksum(data, castagnoli())
}

// castagnoli is the CRC-32C table of the instruction path, made on first
// use: building it costs a quarter of a millisecond, which a hook call
// that writes no cache (a Read) must not pay at start-up.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// castagnoliBytewise is the CRC-32C table of the byte-at-a-time path (a
// table crc32 does not know for Castagnoli's, and so uses byte by byte):
// 2,048 steps to build, against the instruction path's 1.5 MB.
var castagnoliBytewise = sync.OnceValue(func() *crc32.Table {
	t := new(crc32.Table)
	for i := range t {
		c := uint32(i)
		for range 8 {
			if c&1 == 1 {
				c = c>>1 ^ crc32.Castagnoli
			} else {
				c >>= 1
			}
		}
		t[i] = c
	}
	return t
})
