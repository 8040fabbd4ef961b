package shell

import "sync"

// lazy is sync.OnceValue as a value the compiler lays out in the binary:
// a package-level
//
//	var x = func() T { return xLazy.get() }
//	var xLazy = lazy[T]{f: func() T { … }}
//
// costs nothing when the process starts, where x = sync.OnceValue(…)
// allocates its state and closure in the package's initialisation, on
// every hook call, whether or not it reads a shell command (two objects
// each: 106 allocations in all before branch perf12). get is OnceValue's
// result: f runs once, at the first call; if it panicked, every call
// panics with the same value.
type lazy[T any] struct {
	once  sync.Once
	f     func() T
	v     T
	valid bool
	p     any
}

func (l *lazy[T]) get() T {
	l.once.Do(func() {
		defer func() {
			l.p = recover()
			if !l.valid {
				panic(l.p)
			}
		}()
		l.v = l.f()
		l.f = nil
		l.valid = true
	})
	if !l.valid {
		panic(l.p)
	}
	return l.v
}
