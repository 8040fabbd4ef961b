package tamper

import "sync"

// lazy is a value made on first use. Unlike a sync.OnceValue, a
// package-level &lazy{f: …} whose f captures nothing costs nothing when
// the hook starts: the linker lays it out (pre-tool-call's start-up
// allocations are bounded: internal/bench's TestPreToolCallOwnInitBytes).
type lazy[T any] struct {
	once sync.Once
	v    T
	f    func() T
}

// get returns the value, made by f the first time.
func (l *lazy[T]) get() T {
	l.once.Do(func() { l.v = l.f() })
	return l.v
}
