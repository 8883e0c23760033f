package core_test

import (
	"bytes"
	"context"
	"errors"
	"strconv"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wire"
)

// TestFrontmatterCache_discoveries: an editor's run of discoveries with one
// FrontmatterCache, the workspace edited between them, gives at every step
// the bytes of a discovery without a cache (S42), and the
// unchanged skills come from the cache.
func TestFrontmatterCache_discoveries(t *testing.T) {
	fs := memfs.New()
	root := "/home/u/.claude/skills/"
	write := func(p string, data []byte) { must(t, fs.WriteFile(p, data)) }
	write(root+"pdf/SKILL.md", []byte("---\nname: pdf\ndescription: Read PDFs — tables, forms.\nglobs:\n  - \"**/*.pdf\"\nmetadata:\n  author: docs-team\n---\n# PDF\n"))
	write(root+"review/SKILL.md", []byte("---\nname: review\ndescription: \"Review a diff: bugs, style.\"\nallowed-tools: [Read, Grep]\n---\n"))
	write(root+"my notes/SKILL.md", skillMD("my notes", "Notes with a space in the folder."))
	write(root+"twin/SKILL.md", skillMD("review", "The same name as another, so shadowed by name."))
	write(root+"broken/SKILL.md", []byte("---\nname: [broken\n---\n"))
	write("/home/u/.agents/skills/pdf/SKILL.md", []byte("---\nname: pdf\ndescription: Read PDFs — tables, forms.\nglobs:\n  - \"**/*.pdf\"\nmetadata:\n  author: docs-team\n---\n# PDF\n"))
	must(t, fs.Mkdir("/work/p"))

	cache := &core.FrontmatterCache{}
	discover := func(opts core.Options) []byte {
		res, err := core.Discover(context.Background(), fs, "/work/p", "/home/u", opts)
		if err != nil {
			t.Fatal(err)
		}
		return wire.AppendJSON(nil, res)
	}
	step := func(name string) int {
		t.Helper()
		before := cache.Hits()
		opts := core.DefaultOptions()
		opts.FrontmatterCache = cache
		got, want := discover(opts), discover(core.DefaultOptions())
		if !bytes.Equal(got, want) {
			t.Fatalf("%s: with the cache\n%s\nwithout\n%s", name, got, want)
		}
		return cache.Hits() - before
	}

	if hits := step("first discovery"); hits != 1 {
		t.Fatalf("first discovery: %d hits, want 1 (the second pdf, the same bytes as the first)", hits)
	}
	if hits := step("unchanged"); hits != 5 {
		t.Fatalf("unchanged workspace: %d hits, want 5 (every file the direct path takes)", hits)
	}
	write(root+"review/SKILL.md", []byte("---\nname: review\ndescription: \"Review a diff: bugs, style, tests.\"\nallowed-tools: [Read, Grep]\n---\n"))
	if hits := step("one description edited"); hits != 4 {
		t.Fatalf("one file edited: %d hits, want 4", hits)
	}
	// Two files swap contents: each hits the other's result.
	a, _ := fs.ReadFile(root + "my notes/SKILL.md")
	b, _ := fs.ReadFile(root + "twin/SKILL.md")
	write(root+"my notes/SKILL.md", b)
	write(root+"twin/SKILL.md", a)
	if hits := step("two files swapped"); hits != 5 {
		t.Fatalf("swapped files: %d hits, want 5", hits)
	}
	write(root+"pdf/SKILL.md", nil) // S4: an empty file is no skill
	write(root+"new/SKILL.md", skillMD("new", "Added between two calls."))
	step("one emptied, one added")
	// A workspace larger than the cache holds: discovered without it.
	for i := 0; i <= core.MaxCachedSkills; i++ {
		write(root+"s"+strconv.Itoa(i)+"/SKILL.md", skillMD("s"+strconv.Itoa(i), "d"))
	}
	if hits := step("over the cache's bound"); hits != 0 {
		t.Fatalf("a discovery of more than %d candidates used the cache: %d hits", core.MaxCachedSkills, hits)
	}
}

// TestFrontmatterCache_concurrent: discoveries on several goroutines share
// one cache (the zero value is safe for concurrent use) while another
// goroutine edits a file between them; every result is the bytes of an
// uncached discovery of one of the file's two versions. go test -race
// checks the locking.
func TestFrontmatterCache_concurrent(t *testing.T) {
	fs := memfs.New()
	root := "/home/u/.claude/skills/"
	for i := range 20 {
		must(t, fs.WriteFile(root+"s"+strconv.Itoa(i)+"/SKILL.md", skillMD("s"+strconv.Itoa(i), "Skill number "+strconv.Itoa(i)+", with globs.")))
	}
	must(t, fs.Mkdir("/work/p"))
	versions := [][]byte{skillMD("s0", "The first version."), skillMD("s0", "The second version, longer.")}
	want := map[string]bool{}
	for _, v := range versions {
		must(t, fs.WriteFile(root+"s0/SKILL.md", v))
		res, err := core.Discover(context.Background(), fs, "/work/p", "/home/u", core.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		want[string(wire.AppendJSON(nil, res))] = true
	}
	cache := &core.FrontmatterCache{}
	done := make(chan error)
	for g := range 4 {
		go func() {
			opts := core.DefaultOptions()
			opts.FrontmatterCache = cache
			for i := range 25 {
				if g == 0 && i%5 == 0 {
					if err := fs.WriteFile(root+"s0/SKILL.md", versions[i/5%2]); err != nil {
						done <- err
						return
					}
				}
				res, err := core.Discover(context.Background(), fs, "/work/p", "/home/u", opts)
				if err != nil {
					done <- err
					return
				}
				if got := wire.AppendJSON(nil, res); !want[string(got)] {
					done <- errors.New("a discovery with the shared cache gave neither version's result: " + string(got))
					return
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if cache.Hits() == 0 {
		t.Fatal("the cache served nothing")
	}
}
