//go:build unix

package osfs_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/osfs"
)

// Regression tests of the adversarial review on the real OS: what a racer changing the
// tree during a call can make the engine read (SPEC S44), and bounds on
// files the OS can make endless (S45).

// raceCalls is how many calls a race test makes while its racer changes
// the tree: n in make test (several times the calls the failures it guards
// against took to show), a quarter with -short, and n times
// SKILLDEX_RACE_SCALE to run longer. A count of calls, not a duration, so
// the test does the same work on a loaded machine and under -race.
func raceCalls(t *testing.T, n int) int {
	if s := os.Getenv("SKILLDEX_RACE_SCALE"); s != "" {
		k, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		return n * k
	}
	if testing.Short() {
		return n / 4
	}
	return n
}

// TestOSFS_resolveRace: while a racer swaps skill://x/ref.txt between a
// file and a link to a file outside the skill, Resolve never returns the
// outside bytes (21 of 200 native resolves did). Both
// realpath flavours, so both checks of the opened file (the kernel's name
// for the descriptor, and device + inode) are exercised.
func TestOSFS_resolveRace(t *testing.T) {
	dir := t.TempDir()
	h := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	mustT(t, os.MkdirAll(h("/s/x/sub"), 0o755))
	mustT(t, os.WriteFile(h("/s/x/SKILL.md"), []byte("---\nname: x\n---\n"), 0o644))
	mustT(t, os.WriteFile(h("/s/x/inside.txt"), []byte("inside"), 0o644))
	mustT(t, os.WriteFile(h("/outside.txt"), []byte("OUTSIDE"), 0o644))
	skills := []core.Skill{{Name: "x", FilePath: "/s/x/SKILL.md", BaseDir: "/s/x"}}
	bothRealpaths(t, dir, func(t *testing.T, fsys *osfs.FS) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var swaps atomic.Int64
		done := make(chan struct{})
		go func() { // the racer: a file, then a link out, atomically by rename
			defer close(done)
			for i := 0; ctx.Err() == nil; i++ {
				tmp := h("/s/x/tmp" + strconv.Itoa(i%2))
				_ = os.Remove(tmp)
				if i%2 == 0 { // a regular file: its realpath is its own path
					_ = os.Link(h("/s/x/inside.txt"), tmp)
					_ = os.Rename(tmp, h("/s/x/ref.txt"))
				} else {
					_ = os.Symlink(h("/outside.txt"), tmp)
					_ = os.Rename(tmp, h("/s/x/ref.txt"))
				}
				swaps.Add(1)
			}
		}()
		calls, served := 0, 0
		for n := raceCalls(t, 2000); calls < n; {
			calls++
			r, err := core.Resolve(context.Background(), fsys, "skill://x/ref.txt", skills)
			if err == nil {
				served++
				if strings.Contains(r.Content, "OUTSIDE") {
					cancel()
					<-done
					t.Fatalf("call %d returned the outside file", calls)
				}
			}
		}
		cancel()
		<-done
		t.Logf("%d resolves (%d served) during %d swaps", calls, served, swaps.Load())
	})
}

// TestOSFS_discoverFIFORace: a SKILL.md swapped for a FIFO between
// discovery's type check and its read hung core.Discover in open(2) (issue
// 16 item 7, reproduced within 16-26 calls). Every call must now return.
func TestOSFS_discoverFIFORace(t *testing.T) {
	dir := t.TempDir()
	h := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	mustT(t, os.MkdirAll(h("/home/.claude/skills/x"), 0o755))
	mustT(t, os.WriteFile(h("/file"), []byte("---\ndescription: d\n---\n"), 0o644))
	mustT(t, syscall.Mkfifo(h("/fifo"), 0o644))
	fsys, err := osfs.Dir(dir)
	mustT(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ctx.Err() == nil; i++ {
			tmp := h("/home/.claude/skills/x/tmp")
			_ = os.Remove(tmp)
			src := h("/file")
			if i%2 == 1 {
				src = h("/fifo")
			}
			if os.Link(src, tmp) == nil {
				_ = os.Rename(tmp, h("/home/.claude/skills/x/SKILL.md"))
			}
		}
	}()
	calls := 0
	for n := raceCalls(t, 300); calls < n; {
		finished := make(chan error, 1)
		go func() {
			_, err := core.Discover(context.Background(), fsys, "/home", "/home", core.DefaultOptions())
			finished <- err
		}()
		select {
		case err := <-finished:
			mustT(t, err)
		case <-time.After(10 * time.Second): // a hang, not a slow call: a discovery here takes milliseconds
			cancel()
			// Release a reader blocked on the FIFO so the test can end.
			if w, err := os.OpenFile(h("/fifo"), os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				w.Close()
			}
			t.Fatalf("call %d of core.Discover blocked for 10 s (a FIFO opened blocking)", calls+1)
		}
		calls++
	}
	cancel()
	<-done
	t.Logf("%d discoveries during the swaps", calls)
}

// TestOSFS_boundedReads: a 200 MB file inside a skill, a SKILL.md over
// 1 MiB and a context file that never ends (/proc/self/pagemap) are
// refused without being read whole (S45).
func TestOSFS_boundedReads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := func(p string) string { return filepath.Join(dir, filepath.FromSlash(p)) }
	mustT(t, os.MkdirAll(h("/s/x"), 0o755))
	mustT(t, os.WriteFile(h("/s/x/SKILL.md"), []byte("---\nname: x\n---\n"), 0o644))
	mustT(t, os.Truncate(h("/s/x/SKILL.md"), 300<<20))
	mustT(t, os.WriteFile(h("/s/x/big.bin"), nil, 0o644))
	mustT(t, os.Truncate(h("/s/x/big.bin"), 200<<20))
	fsys, err := osfs.Dir(dir)
	mustT(t, err)
	skills := []core.Skill{{Name: "x", FilePath: "/s/x/SKILL.md", BaseDir: "/s/x"}}
	var e *core.Error
	_, err = core.Resolve(context.Background(), fsys, "skill://x/big.bin", skills)
	if !errors.As(err, &e) || e.Message != "File too large: /s/x/big.bin (209715200 bytes; the limit is 8 MiB)" {
		t.Errorf("Resolve(200 MB) = %v", err)
	}
	_, err = core.ExpandCommand(context.Background(), fsys, "/skill:x", skills, true)
	if !errors.As(err, &e) || e.Message != "File too large: /s/x/SKILL.md (314572800 bytes; the limit is 1 MiB)" {
		t.Errorf("ExpandCommand(300 MB) = %v", err)
	}
	if _, err := os.Stat("/proc/self/pagemap"); err != nil {
		t.Skip("no /proc/self/pagemap")
	}
	// A file whose size the kernel reports as 0 and that goes on for
	// gigabytes: ReadFileWithin reads what it is given room for and says
	// there is more.
	whole := osfs.New()
	buf := make([]byte, 1<<20)
	n, size, err := whole.ReadFileWithin("/proc", "/proc/self/pagemap", buf)
	if err != nil || n != len(buf) || size <= int64(n) {
		t.Errorf("ReadFileWithin(pagemap) = %d, size %d, %v", n, size, err)
	}
	// Linked from a context file: outside home, never opened (S43).
	home := t.TempDir()
	mustT(t, os.MkdirAll(filepath.Join(home, ".xcsh/agent"), 0o755))
	mustT(t, os.Symlink("/proc/self/pagemap", filepath.Join(home, ".xcsh/agent/XCSH.md")))
	r, err := core.ContextFiles(context.Background(), whole, home, home, "")
	mustT(t, err)
	if len(r.Files) != 0 || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0].Message, "links outside its skill (/proc/") {
		t.Errorf("ContextFiles with XCSH.md -> /proc/self/pagemap = %+v", r)
	}
}
