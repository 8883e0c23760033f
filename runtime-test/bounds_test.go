package runtimetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/fsadapter/osfs"
)

// TestModule_boundedReads: a 200 MB file inside a skill, under the 256 MiB
// bound of one host import result, ran the instance out of memory (3.5 GB
// RSS). The module now asks the host for at most 8 MiB
// (S45): the reply is TOO_LARGE with the size, the linear memory stays
// small, and the instance answers the next call.
func TestModule_boundedReads(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "h/.claude/skills/x")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\ndescription: d\n---\nbody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(skill, "big.bin")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, 200<<20); err != nil { // sparse: nothing written
		t.Fatal(err)
	}
	fsys, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, fsys)
	ctx := context.Background()
	req := `{"op":"resolve","cwd":"/h","home":"/h","url":"skill://x/big.bin"}`
	got, err := e.Call(ctx, []byte(req))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"error":{"code":"TOO_LARGE","message":"File too large: /h/.claude/skills/x/big.bin (209715200 bytes; the limit is 8 MiB)"}}`
	if string(got) != want {
		t.Errorf("resolve of a 200 MB file:\n got %.300s\nwant %s", got, want)
	}
	if m := e.MemorySize(); m > 64<<20 {
		t.Errorf("linear memory %d MiB after refusing a 200 MB file", m>>20)
	}
	got, err = e.Call(ctx, []byte(`{"op":"resolve","cwd":"/h","home":"/h","url":"skill://x"}`))
	if err != nil || !strings.Contains(string(got), `"content":"---\ndescription: d\n---\nbody\n"`) {
		t.Errorf("the next call: %s, %v", got, err)
	}
}
