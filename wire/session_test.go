package wire_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/wire"
)

// discoverCases are the corpus cases whose request is a discovery.
func discoverCases(t *testing.T) []*corpus.Case {
	t.Helper()
	cases, err := corpus.LoadDir(filepath.Join("..", "testdata", "conformance"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*corpus.Case
	for _, c := range cases {
		var req struct{ Op string }
		if json.Unmarshal(c.Request, &req) == nil && req.Op == "discover" {
			out = append(out, c)
		}
	}
	if len(out) < 100 {
		t.Fatalf("only %d discover cases in the corpus", len(out))
	}
	return out
}

// TestSessionReusesUnchangedDiscovery: a session's third discovery of an
// unchanged tree is answered from the second's reply, and every reply is
// the bytes wire.Call gives (S42), on every discover case of the
// corpus, faults included.
func TestSessionReusesUnchangedDiscovery(t *testing.T) {
	for _, c := range discoverCases(t) {
		fsys := c.MemFS()
		want := wire.Call(fsys, c.Request)
		var s wire.Session
		for i := 1; i <= 3; i++ {
			if got := s.Call(fsys, c.Request); !bytes.Equal(got, want) {
				t.Fatalf("%s: call %d:\n%s\nwant\n%s", c.Name, i, got, want)
			}
		}
		// An error reply is never kept: the request is made again.
		if wantReused := 1 - bytes.Count(want[:min(len(want), 10)], []byte(`{"error"`)); s.Reused != wantReused {
			t.Errorf("%s: %d of 3 discoveries reused, want %d", c.Name, s.Reused, wantReused)
		}
	}
}

// TestSessionSeesEveryChange changes the tree of every discover case of
// the corpus after the session has recorded a discovery, one change at a
// time: each file rewritten with the same number of bytes, a new skill in
// each directory, each entry removed, each symlink pointed at its parent
// folder instead. The session's next reply must be what a fresh discovery
// of the changed tree gives (a reused reply is never stale).
func TestSessionSeesEveryChange(t *testing.T) {
	newSkill := []byte("---\nname: added-later\ndescription: Appeared after the last discovery.\n---\n")
	tried, reused := 0, 0
	for _, c := range discoverCases(t) {
		if len(c.Faults) > 0 {
			continue
		}
		for _, e := range changes(c) {
			for _, how := range []string{"change", "remove"} {
				m := memfs.New()
				if err := c.Build(m); err != nil {
					t.Fatal(err)
				}
				var s wire.Session
				s.Call(m, c.Request)
				before := append([]byte(nil), s.Call(m, c.Request)...)
				var err error
				switch {
				case how == "remove":
					err = m.Remove(e.Path)
				case e.Type == core.TypeFile:
					err = m.WriteFile(e.Path, sameSizeChange(e.Data))
				case e.Type == core.TypeDir:
					err = m.WriteFile(e.Path+"/added-later/SKILL.md", newSkill)
				case e.Type == core.TypeSymlink:
					if err = m.Remove(e.Path); err == nil {
						err = m.Symlink("..", e.Path)
					}
				}
				if err != nil {
					t.Fatalf("%s: %s %s: %v", c.Name, how, e.Path, err)
				}
				tried++
				want := wire.Call(m, c.Request)
				got := s.Call(m, c.Request)
				if !bytes.Equal(got, want) {
					t.Fatalf("%s: %s %s: the session replied\n%s\nwant\n%s", c.Name, how, e.Path, got, want)
				}
				if s.Reused > 0 {
					reused++
					if !bytes.Equal(before, want) {
						t.Fatalf("%s: %s %s: reused a reply that changed", c.Name, how, e.Path)
					}
				}
			}
		}
	}
	// Most changes touch what a discovery read; some (a file no provider
	// reads) do not, and those replies stand.
	if tried < 4000 || reused == 0 || reused > tried/2 {
		t.Fatalf("%d changes tried, %d replies reused", tried, reused)
	}
	t.Logf("%d changes tried, %d replies reused", tried, reused)
}

// TestSessionAfterAChange: after a discovery that follows a change, each
// file it read must still be seen when it changes next (S61).
func TestSessionAfterAChange(t *testing.T) {
	tried := 0
	for _, c := range discoverCases(t) {
		if len(c.Faults) > 0 {
			continue
		}
		var files []corpus.Entry
		for _, e := range c.Entries {
			if e.Type == core.TypeFile {
				files = append(files, e)
			}
		}
		for i, first := range files {
			next := files[(i+1)%len(files)]
			m := memfs.New()
			if err := c.Build(m); err != nil {
				t.Fatal(err)
			}
			var s wire.Session
			s.Call(m, c.Request)
			s.Call(m, c.Request)
			for _, e := range []corpus.Entry{first, next} {
				data, err := m.ReadFile(e.Path)
				if err != nil {
					t.Fatal(err)
				}
				if err := m.WriteFile(e.Path, sameSizeChange(data)); err != nil {
					t.Fatal(err)
				}
				tried++
				if got, want := s.Call(m, c.Request), wire.Call(m, c.Request); !bytes.Equal(got, want) {
					t.Fatalf("%s: %s changed after %s: the session replied\n%s\nwant\n%s", c.Name, e.Path, first.Path, got, want)
				}
			}
		}
	}
	if tried < 1000 {
		t.Fatalf("only %d changes tried", tried)
	}
}

// TestSessionChangeDuringRead: a file that changes right after the
// discovery that follows a change has read it is seen at the next call
// (S61): the version that stands for the read is the one the read saw,
// which the file no longer has.
func TestSessionChangeDuringRead(t *testing.T) {
	tried := 0
	for _, c := range discoverCases(t) {
		if len(c.Faults) > 0 {
			continue
		}
		for _, e := range c.Entries {
			if e.Type != core.TypeFile {
				continue
			}
			m := &racingFS{FS: memfs.New()}
			if err := c.Build(m.FS); err != nil {
				t.Fatal(err)
			}
			var s wire.Session
			s.Call(m, c.Request)
			s.Call(m, c.Request)
			// Changes to every other file make the next call a discovery
			// that follows this one; e changes under it, right after its
			// read.
			for _, f := range c.Entries {
				if f.Type == core.TypeFile && f.Path != e.Path {
					if err := m.WriteFile(f.Path, sameSizeChange(f.Data)); err != nil {
						t.Fatal(err)
					}
				}
			}
			m.after = e.Path
			s.Call(m, c.Request)
			if m.after != "" {
				continue // the discovery does not read e
			}
			tried++
			if got, want := s.Call(m, c.Request), wire.Call(m, c.Request); !bytes.Equal(got, want) {
				t.Fatalf("%s: %s changed after its read: the session replied\n%s\nwant\n%s", c.Name, e.Path, got, want)
			}
		}
	}
	if tried < 300 {
		t.Fatalf("only %d changes tried", tried)
	}
}

// racingFS is a memfs that rewrites the file after (the same size, one
// byte changed) right after its first read.
type racingFS struct {
	*memfs.FS
	after string
}

func (r *racingFS) ReadFilePrefix(p string, n int) ([]byte, bool, error) {
	data, complete, err := r.FS.ReadFilePrefix(p, n)
	r.changeAfterRead(p)
	return data, complete, err
}

func (r *racingFS) ReadFile(p string) ([]byte, error) {
	data, err := r.FS.ReadFile(p)
	r.changeAfterRead(p)
	return data, err
}

func (r *racingFS) changeAfterRead(p string) {
	if p != r.after {
		return
	}
	r.after = ""
	data, _ := r.FS.ReadFile(p)
	_ = r.FS.WriteFile(p, sameSizeChange(data))
}

// changes are the entries of c's tree to change: every file and symlink,
// and every directory, written or implied by a path below it.
func changes(c *corpus.Case) []corpus.Entry {
	var out []corpus.Entry
	dirs := map[string]bool{}
	for _, e := range c.Entries {
		switch e.Type {
		case core.TypeFile, core.TypeSymlink:
			out = append(out, e)
		case core.TypeDir:
			dirs[e.Path] = true
		}
		for d := path.Dir(e.Path); d != "/"; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	for d := range dirs {
		out = append(out, corpus.Entry{Path: d, Type: core.TypeDir})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// sameSizeChange returns data with one byte changed, the size kept: in a
// frontmatter's name or description where it has one, so the change shows.
func sameSizeChange(data []byte) []byte {
	out := append([]byte(nil), data...)
	i := bytes.Index(out, []byte("name: "))
	if i < 0 {
		i = 0
	} else {
		i += len("name: ")
	}
	if i < len(out) {
		if out[i] == 'z' {
			out[i] = 'y'
		} else {
			out[i] = 'z'
		}
	}
	return out
}

// TestSessionOS: over the OS, a file's version stands for its bytes only
// once it has not changed for a while; until then the session reads it
// again and compares (record.New). Both ways, a same-size rewrite is
// seen.
func TestSessionOS(t *testing.T) {
	for _, late := range []bool{false, true} {
		dir := t.TempDir()
		skill := filepath.Join(dir, "home", "u", ".claude", "skills", "a", "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(skill), 0o755); err != nil {
			t.Fatal(err)
		}
		write := func(name string) {
			if err := os.WriteFile(skill, []byte("---\nname: "+name+"\ndescription: d\n---\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("aaaa")
		fsys := corpusOSFS(t, dir)
		req := []byte(`{"op":"discover","cwd":"/work","home":"/home/u"}`)
		var s wire.Session
		if late {
			// The discovery "begins" a minute from now: the file is old
			// enough for its version to stand.
			s.Now = func() int64 { return time.Now().Add(time.Minute).UnixNano() }
		}
		first := append([]byte(nil), s.Call(fsys, req)...)
		s.Call(fsys, req)
		if got := s.Call(fsys, req); !bytes.Equal(got, first) || s.Reused != 1 {
			t.Fatalf("late=%v: unchanged tree: reused %d, reply\n%s", late, s.Reused, got)
		}
		write("bbbb")
		got := s.Call(fsys, req)
		if want := wire.Call(fsys, req); !bytes.Equal(got, want) || !bytes.Contains(got, []byte(`"name":"bbbb"`)) {
			t.Fatalf("late=%v: after a same-size rewrite the session replied\n%s\nwant\n%s", late, got, want)
		}
	}
}

func corpusOSFS(t *testing.T, dir string) core.FS {
	t.Helper()
	c := &corpus.Case{}
	fsys, err := c.OSFS(dir)
	if err != nil {
		t.Fatal(err)
	}
	return fsys
}

// TestSessionOtherOps: another op between two discoveries (an editor's
// match or prompt) has its own reply and leaves the last discovery's
// standing.
func TestSessionOtherOps(t *testing.T) {
	m := memfs.New()
	if err := m.WriteFile("/home/u/.claude/skills/a/SKILL.md", []byte("---\nname: a\ndescription: d\nglobs: \"*.go\"\n---\n")); err != nil {
		t.Fatal(err)
	}
	discover := []byte(`{"op":"discover","cwd":"/work","home":"/home/u"}`)
	match := []byte(`{"op":"match","cwd":"/work","home":"/home/u","paths":["x.go"]}`)
	var s wire.Session
	want := wire.Call(m, discover)
	for i := 0; i < 3; i++ {
		if got := s.Call(m, discover); !bytes.Equal(got, want) {
			t.Fatalf("discover %d: %s", i, got)
		}
		if got, want := s.Call(m, match), wire.Call(m, match); !bytes.Equal(got, want) {
			t.Fatalf("match %d: %s, want %s", i, got, want)
		}
	}
	if s.Reused != 1 {
		t.Fatalf("%d discoveries reused, want the third", s.Reused)
	}
}

// TestSessionSeesEveryMove moves parts of every discover case's tree the
// way an attacker with a cloned repository would, after the session has
// recorded a discovery (SPEC S61): each file moved out of the tree and
// replaced by a link to it (the same file, so the same version through the
// link: a fresh discovery says link-outside), each folder moved out and
// replaced by a link to it, and each folder exchanged with a sibling (the
// same files under other names). The session's next reply must be what a
// fresh discovery of the changed tree gives.
func TestSessionSeesEveryMove(t *testing.T) {
	tried := 0
	for _, c := range discoverCases(t) {
		if len(c.Faults) > 0 {
			continue
		}
		for _, e := range changes(c) {
			if e.Type == core.TypeSymlink {
				continue
			}
			moves := []string{"link-out"}
			siblings := siblingDirs(c, e)
			if len(siblings) > 0 {
				moves = append(moves, "exchange")
			}
			for _, how := range moves {
				// A filesystem that checks its reads itself, as every host's
				// does: the recorded discovery makes no lstat of its own.
				x := &exchangingFS{FS: memfs.New()}
				m := x.FS
				if err := c.Build(m); err != nil {
					t.Fatal(err)
				}
				var s wire.Session
				s.Call(x, c.Request)
				s.Call(x, c.Request)
				var err error
				switch how {
				case "link-out":
					outside := "/elsewhere-" + strings.ReplaceAll(e.Path, "/", "_")
					if err = m.Rename(e.Path, outside); err == nil {
						err = m.Symlink(outside, e.Path)
					}
				case "exchange":
					err = m.Exchange(e.Path, siblings[0])
				}
				if err != nil {
					t.Fatalf("%s: %s %s: %v", c.Name, how, e.Path, err)
				}
				tried++
				want := wire.Call(m, c.Request)
				if got := s.Call(x, c.Request); !bytes.Equal(got, want) {
					t.Fatalf("%s: %s %s: the session replied\n%s\nwant\n%s", c.Name, how, e.Path, got, want)
				}
			}
		}
	}
	if tried < 1000 {
		t.Fatalf("only %d moves tried", tried)
	}
	t.Logf("%d moves tried", tried)
}

// siblingDirs are the folders beside e, when e is a folder.
func siblingDirs(c *corpus.Case, e corpus.Entry) []string {
	if e.Type != core.TypeDir {
		return nil
	}
	var out []string
	for _, f := range changes(c) {
		if f.Type == core.TypeDir && f.Path != e.Path && path.Dir(f.Path) == path.Dir(e.Path) {
			out = append(out, f.Path)
		}
	}
	return out
}

// TestSessionExchangeDuringRead: a skill folder exchanged with a sibling
// just before the session's recorded read of its SKILL.md and exchanged
// back just after (the read opens the sibling's file under this name; the
// path names the first file again before and after) must not leave the
// sibling's bytes in later replies (SPEC S61): the version that stands for
// a read is the opened file's, which the path no longer names.
func TestSessionExchangeDuringRead(t *testing.T) {
	tried := 0
	for _, c := range discoverCases(t) {
		if len(c.Faults) > 0 {
			continue
		}
		for _, e := range c.Entries {
			if e.Type != core.TypeFile || path.Base(e.Path) != "SKILL.md" {
				continue
			}
			dir := path.Dir(e.Path)
			siblings := siblingDirs(c, corpus.Entry{Path: dir, Type: core.TypeDir})
			if len(siblings) == 0 {
				continue
			}
			m := &exchangingFS{FS: memfs.New()}
			if err := c.Build(m.FS); err != nil {
				t.Fatal(err)
			}
			var s wire.Session
			s.Call(m, c.Request)
			m.read, m.a, m.b = e.Path, dir, siblings[0]
			s.Call(m, c.Request) // recorded, the exchange around e's read
			if m.read != "" {
				continue // e is not read through a checked read
			}
			tried++
			if got, want := s.Call(m, c.Request), wire.Call(m.FS, c.Request); !bytes.Equal(got, want) {
				t.Fatalf("%s: %s exchanged with %s during its read: the session replied\n%s\nwant\n%s", c.Name, dir, siblings[0], got, want)
			}
		}
	}
	if tried < 50 {
		t.Fatalf("only %d exchanges tried", tried)
	}
	t.Logf("%d exchanges tried", tried)
}

// exchangingFS is a memfs whose checked reads give the version of the file
// they read, as the hosts do from the opened descriptor
// (core.VersionedReader). Its next read of read exchanges the folders a and
// b just before and just after.
type exchangingFS struct {
	*memfs.FS
	read, a, b string
}

func (x *exchangingFS) ReadFileWithin(within, p string, buf []byte) (int, int64, error) {
	n, size, _, err := x.ReadFileWithinVersion(within, p, buf)
	return n, size, err
}

func (x *exchangingFS) ReadFileWithinVersion(within, p string, buf []byte) (int, int64, core.FileVersion, error) {
	if p == x.read {
		x.read = ""
		if err := x.FS.Exchange(x.a, x.b); err != nil {
			panic(err)
		}
		defer func() {
			if err := x.FS.Exchange(x.a, x.b); err != nil {
				panic(err)
			}
		}()
	}
	n, size, err := core.ReadFileWithin(x.FS, within, p, buf)
	if err != nil {
		return 0, 0, core.FileVersion{}, err
	}
	v, err := x.FS.FileVersion(p)
	if err != nil {
		v = core.FileVersion{}
	}
	return n, size, v, nil
}
