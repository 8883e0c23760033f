package core

import (
	"strings"
	"testing"
)

// TestStringArena: every string the arena hands out keeps its bytes while
// more are written after it, within a chunk, across chunks, and for
// strings longer than a chunk.
func TestStringArena(t *testing.T) {
	a := stringArena{chunk: 16}
	type handed struct{ got, want string }
	var all []handed
	for i := 0; i < 50; i++ {
		want := strings.Repeat(string(rune('a'+i%26)), i%20)
		buf := []byte(want)
		got := a.bytes(buf)
		for j := range buf {
			buf[j] = '!' // the arena copied them
		}
		all = append(all, handed{got, want})
		path := a.concat("/root", "/", want, "/SKILL.md")
		all = append(all, handed{path, "/root/" + want + "/SKILL.md"})
	}
	for i, h := range all {
		if h.got != h.want {
			t.Fatalf("string %d = %q, want %q", i, h.got, h.want)
		}
	}
	if s := a.concat(); s != "" {
		t.Fatalf("concat() = %q", s)
	}
}
