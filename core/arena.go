package core

import "strings"

// stringArena hands out strings that share a few large allocations instead
// of one allocation each. In the wasm module each allocation is a call
// into the Go runtime's allocator and one more object for the collector,
// and discovery made several a skill (its paths, its frontmatter's text and
// JSON). The strings are immutable like any other: a
// strings.Builder never changes bytes it has written, and a full chunk is
// left to the strings that point into it, not reused. The cost is that a
// chunk lives as long as any string in it.
type stringArena struct {
	b     strings.Builder
	chunk int // the size of a new chunk, unless a string needs more
}

// room makes sure n more bytes fit in the current chunk.
func (a *stringArena) room(n int) {
	if a.b.Cap()-a.b.Len() < n {
		a.b = strings.Builder{}
		a.b.Grow(max(n, a.chunk))
	}
}

// bytes returns b as a string in the arena.
func (a *stringArena) bytes(b []byte) string {
	a.room(len(b))
	start := a.b.Len()
	a.b.Write(b)
	return a.b.String()[start:]
}

// concat returns the concatenation of the strings as a string in the arena.
func (a *stringArena) concat(parts ...string) string {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	a.room(n)
	start := a.b.Len()
	for _, p := range parts {
		a.b.WriteString(p)
	}
	return a.b.String()[start:]
}
