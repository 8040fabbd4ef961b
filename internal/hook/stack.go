package hook

// GrowStack grows the calling goroutine's stack to 64 KiB in one step, while
// its stack is still shallow. A goroutine starts with a 2 KiB stack and
// doubles it whenever a call runs out of room: a hook's call grew its stack
// 2 → 4 → 8 → 16 KiB on a Read and on to 32 KiB on an Edit or a Bash call,
// each time deep in the call, where the copy walks every frame's stack map
// (pclntab pages read for the first time in a fresh process), and each size
// in between took its own span from the stack pool, whose pages are all
// written to thread a free list. Grown at once, the stack is copied with a
// frame or two on it, and the sizes in between are never allocated: 20 page
// faults and 0.1–0.2 ms of CPU fewer a call (BENCHMARKS.md, branch pre10).
// The frame that asks for the room is never written to (the branch that
// would use it never runs), so the pages cost nothing until a call really
// reaches that deep.
//
//go:noinline
func GrowStack() {
	if growNever {
		var pad [stackFrame]byte
		growSink(&pad)
	}
}

// stackFrame is the frame GrowStack asks room for: with the caller's few
// frames and the runtime's guard, a 64 KiB stack.
const stackFrame = 60 << 10

// growNever is false; it is a variable so that the compiler keeps
// GrowStack's frame.
var growNever bool

//go:noinline
func growSink(p *[stackFrame]byte) { p[0] = 1 }
