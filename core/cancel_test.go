package core_test

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// cancelingFS cancels its context at its n-th call and counts the calls
// made after that.
type cancelingFS struct {
	core.FS
	cancel      context.CancelFunc
	n           int64
	calls, late atomic.Int64
}

func (f *cancelingFS) tick() {
	switch c := f.calls.Add(1); {
	case c == f.n:
		f.cancel()
	case c > f.n:
		f.late.Add(1)
	}
}

func (f *cancelingFS) ReadDir(p string) ([]core.DirEntry, error) { f.tick(); return f.FS.ReadDir(p) }
func (f *cancelingFS) Stat(p string) (core.FileType, error)      { f.tick(); return f.FS.Stat(p) }
func (f *cancelingFS) Lstat(p string) (core.FileType, error)     { f.tick(); return f.FS.Lstat(p) }
func (f *cancelingFS) ReadFile(p string) ([]byte, error)         { f.tick(); return f.FS.ReadFile(p) }
func (f *cancelingFS) Realpath(p string) (string, error)         { f.tick(); return f.FS.Realpath(p) }

// cancelTree is a workspace of 200 skills in one root, a skill with 50
// files, and a context file at each of 10 ancestors.
func cancelTree(t *testing.T) *memfs.FS {
	m := memfs.New()
	for i := range 200 {
		name := "s" + strconv.Itoa(i)
		must(t, m.WriteFile("/home/u/.claude/skills/"+name+"/SKILL.md", []byte("---\nname: "+name+"\ndescription: d\n---\nbody\n")))
	}
	for i := range 50 {
		must(t, m.WriteFile("/home/u/.claude/skills/s0/d"+strconv.Itoa(i%5)+"/f"+strconv.Itoa(i), []byte("x")))
	}
	p := "/w"
	for range 10 {
		must(t, m.WriteFile(p+"/XCSH.md", []byte("context")))
		p += "/d"
	}
	must(t, m.Mkdir(p))
	return m
}

// TestCancel: every core operation that reads the filesystem takes a
// context; a context done before the call reads nothing and fails with an
// error that wraps ctx.Err(); one canceled during the call stops it within
// a few filesystem calls (a step bound, not a time bound) with no result.
func TestCancel(t *testing.T) {
	m := cancelTree(t)
	skills := []core.Skill{{Name: "s0", FilePath: "/home/u/.claude/skills/s0/SKILL.md", BaseDir: "/home/u/.claude/skills/s0"}}
	ops := []struct {
		name string
		run  func(ctx context.Context, fsys core.FS) (any, error)
		mid  bool // long enough to be canceled in the middle
	}{
		{"Discover", func(ctx context.Context, fsys core.FS) (any, error) {
			return core.Discover(ctx, fsys, "/home/u", "/home/u", core.Options{})
		}, true},
		{"ScanDir", func(ctx context.Context, fsys core.FS) (any, error) {
			return core.ScanDir(ctx, fsys, "/home/u/.claude/skills", "claude:user")
		}, true},
		{"Validate", func(ctx context.Context, fsys core.FS) (any, error) {
			return core.Validate(ctx, fsys, "/home/u/.claude/skills")
		}, true},
		{"ListFiles", func(ctx context.Context, fsys core.FS) (any, error) {
			return core.ListFiles(ctx, fsys, "s0", skills)
		}, true},
		{"ContextFiles", func(ctx context.Context, fsys core.FS) (any, error) {
			return core.ContextFiles(ctx, fsys, "/w/d/d/d/d/d/d/d/d/d/d", "/home/u", "")
		}, true},
		{"Resolve", func(ctx context.Context, fsys core.FS) (any, error) {
			return core.Resolve(ctx, fsys, "skill://s0", skills)
		}, false},
		{"ExpandCommand", func(ctx context.Context, fsys core.FS) (any, error) {
			return core.ExpandCommand(ctx, fsys, "/skill:s0", skills, true)
		}, false},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			// Uncanceled, it succeeds and makes some calls.
			full := &cancelingFS{FS: m, cancel: func() {}, n: -1}
			if res, err := op.run(context.Background(), full); err != nil || res == nil {
				t.Fatalf("uncanceled: %v, %v", res, err)
			}
			// Done before the call: nothing read.
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			before := &cancelingFS{FS: m, cancel: cancel, n: -1}
			res, err := op.run(ctx, before)
			if !errors.Is(err, context.Canceled) || !isNil(res) || before.calls.Load() != 0 {
				t.Errorf("done before: %v, %v after %d calls; want a context.Canceled error, no result, no call", res, err, before.calls.Load())
			}
			if !op.mid {
				return
			}
			// Canceled at a third of its calls: it stops soon after.
			ctx, cancel = context.WithCancel(context.Background())
			defer cancel()
			during := &cancelingFS{FS: m, cancel: cancel, n: full.calls.Load() / 3}
			res, err = op.run(ctx, during)
			if !errors.Is(err, context.Canceled) || !isNil(res) {
				t.Errorf("canceled during: %v, %v; want a context.Canceled error and no result", res, err)
			}
			if late := during.late.Load(); late > 8 {
				t.Errorf("canceled at call %d of %d, it made %d calls more", during.n, full.calls.Load(), late)
			}
		})
	}
}

// isNil reports whether v holds a nil pointer.
func isNil(v any) bool {
	switch v := v.(type) {
	case *core.Result:
		return v == nil
	case *core.ScanResult:
		return v == nil
	case *core.Validation:
		return v == nil
	case *core.FileList:
		return v == nil
	case *core.ContextResult:
		return v == nil
	case *core.Resource:
		return v == nil
	case *core.Expansion:
		return v == nil
	}
	return v == nil
}

// TestCancel_deadline: a deadline is reported as context.DeadlineExceeded.
func TestCancel_deadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 0)
	defer cancel()
	<-ctx.Done()
	if _, err := core.Discover(ctx, memfs.New(), "/h", "/h", core.Options{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Discover = %v, want context.DeadlineExceeded", err)
	}
}
