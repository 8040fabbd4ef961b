package testindex

import "math"

// decodeFast decodes an index file as Write writes it (JSON of ASCII
// strings without escapes, unsigned integers that fit an int64, the
// File's keys only) without gjson's validation pass and its walk of every
// value: a Stop reads an index of 5,000 test files (1.1 MB) at every
// call. ok is false at anything else — an escape, a byte past ASCII, a
// float, an unknown key, a value of another type, bytes after the index —
// and the caller decodes with gjson, whose answer is the contract: what
// decodeFast returns is what Decode would (FuzzDecodeFast).
func decodeFast(data []byte) (idx Index, ok bool) {
	d := fastDecoder{s: string(data)}
	if !d.byte('{') {
		return nil, false
	}
	idx = make(Index, len(data)/256) // an entry as Write writes it: 200 bytes and more
	if d.peek() == '}' {
		d.i++
		return idx, d.end()
	}
	for {
		key, ok := d.str()
		if !ok || !d.byte(':') {
			return nil, false
		}
		f, ok := d.file()
		if !ok {
			return nil, false
		}
		idx[key] = f // a key twice: the last, as gjson's ForEach and a map
		switch d.next() {
		case ',':
		case '}':
			return idx, d.end()
		default:
			return nil, false
		}
	}
}

type fastDecoder struct {
	s string
	i int
}

// peek returns the next byte that is not white space (0 at the end).
func (d *fastDecoder) peek() byte {
	for d.i < len(d.s) {
		switch c := d.s[d.i]; c {
		case ' ', '\n', '\t', '\r':
			d.i++
		default:
			return c
		}
	}
	return 0
}

// next returns the next byte that is not white space, and moves past it.
func (d *fastDecoder) next() byte {
	c := d.peek()
	if c != 0 {
		d.i++
	}
	return c
}

func (d *fastDecoder) byte(c byte) bool { return d.next() == c }

// end reports whether nothing but white space is left.
func (d *fastDecoder) end() bool { return d.peek() == 0 && d.i == len(d.s) }

// str reads a string of printable ASCII without escapes.
func (d *fastDecoder) str() (string, bool) {
	if !d.byte('"') {
		return "", false
	}
	start := d.i
	for ; d.i < len(d.s); d.i++ {
		switch c := d.s[d.i]; {
		case c == '"':
			d.i++
			return d.s[start : d.i-1], true
		case c == '\\' || c < 0x20 || c >= 0x7f:
			return "", false
		}
	}
	return "", false
}

// num reads an unsigned integer without leading zeros that fits an int64.
func (d *fastDecoder) num() (int64, bool) {
	d.peek()
	start := d.i
	var n uint64
	for ; d.i < len(d.s) && d.s[d.i] >= '0' && d.s[d.i] <= '9'; d.i++ {
		if n > (math.MaxInt64-9)/10 {
			return 0, false // near the bound: gjson's to say
		}
		n = n*10 + uint64(d.s[d.i]-'0')
	}
	digits := d.i - start
	if digits == 0 || digits > 1 && d.s[start] == '0' {
		return 0, false
	}
	if d.i < len(d.s) {
		switch d.s[d.i] {
		case '.', 'e', 'E':
			return 0, false // a float
		}
	}
	return int64(n), true
}

// file reads one entry.
func (d *fastDecoder) file() (f File, ok bool) {
	if !d.byte('{') {
		return f, false
	}
	if d.peek() == '}' {
		d.i++
		return f, true
	}
	for {
		key, ok := d.str()
		if !ok || !d.byte(':') {
			return f, false
		}
		switch key {
		case "size", "mtime_ns", "ctime_ns", "ino", "skips", "assertions":
			n, ok := d.num()
			if !ok {
				return f, false
			}
			switch key {
			case "size":
				f.Size = n
			case "mtime_ns":
				f.ModTime = n
			case "ctime_ns":
				f.CTime = n
			case "ino":
				f.Ino = uint64(n)
			case "skips":
				f.Skips = int(n)
			case "assertions":
				f.Assertions = int(n)
			}
		case "error":
			s, ok := d.str()
			if !ok {
				return f, false
			}
			f.Err = s
		case "tests":
			switch d.peek() {
			case 'n':
				if len(d.s)-d.i < 4 || d.s[d.i:d.i+4] != "null" {
					return f, false
				}
				d.i += 4 // null leaves Tests as it was
			case '[':
				d.i++
				f.Tests = []string{}
				if d.peek() == ']' {
					d.i++
					break
				}
				for {
					s, ok := d.str()
					if !ok {
						return f, false
					}
					f.Tests = append(f.Tests, s)
					if c := d.next(); c == ']' {
						break
					} else if c != ',' {
						return f, false
					}
				}
			default:
				return f, false
			}
		default:
			return f, false
		}
		switch d.next() {
		case ',':
		case '}':
			return f, true
		default:
			return f, false
		}
	}
}
