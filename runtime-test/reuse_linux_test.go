//go:build linux

package runtimetest

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/wire"
	"golang.org/x/sys/unix"
)

// TestReuseUnderAttack is the differential harness of SPEC S61: a
// long-lived engine (the native wire.Session, and the module under wazero,
// which keeps its own session) and a fresh one are asked the same discovery
// over the OS after every change an attacker with a cloned repository can
// make: a SKILL.md moved out and replaced by a link to it, a folder moved
// out and replaced by a link, same-size rewrites, folders exchanged for
// good, and folders exchanged and back (renameat2 RENAME_EXCHANGE, held
// 0-2 ms) while the long-lived engines discover. Once the changes stop,
// the long-lived engines must answer what the fresh one does.
//
// It runs for 3 seconds (after a 3-second wait: a file's version stands
// for its bytes only once it is 3 s old); SKILLDEX_SOAK=30m runs it longer.
func TestReuseUnderAttack(t *testing.T) {
	run := 3 * time.Second
	if s := os.Getenv("SKILLDEX_SOAK"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil {
			t.Fatalf("SKILLDEX_SOAK: %v", err)
		}
		run = d
	}
	ctx := context.Background()
	dir := t.TempDir()
	skills := filepath.Join(dir, "home", "u", ".claude", "skills")
	outside := filepath.Join(dir, "outside")
	const n = 16
	name := func(i int) string { return fmt.Sprintf("s%02d", i) }
	write := func(root string, i int, desc string) {
		p := filepath.Join(root, name(i), "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		body := fmt.Sprintf("---\nname: %s\ndescription: %s\n---\nThe instructions of %s.\n", name(i), desc, name(i))
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Spare trees to start again from: renamed into place, their files
	// keep their change times, so they are old enough when used.
	type spare struct {
		dir  string
		made time.Time
	}
	var spares []spare
	made := 0
	addSpares := func(k int) {
		for range k {
			d := filepath.Join(dir, "spares", fmt.Sprint(made))
			made++
			for i := range n {
				write(d, i, fmt.Sprintf("skill number %02d", i))
			}
			spares = append(spares, spare{d, time.Now()})
		}
	}
	for i := range n {
		write(skills, i, fmt.Sprintf("skill number %02d", i))
	}
	addSpares(16)
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	fsys, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	eng, err := module.Instantiate(ctx, fsys)
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close(ctx)
	var native wire.Session
	req := []byte(`{"op":"discover","cwd":"/work","home":"/home/u"}`)
	call := func() {
		native.Call(fsys, req)
		if _, err := eng.Call(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(3200 * time.Millisecond) // the files' versions now stand for their bytes
	call()
	call()

	seed := uint64(time.Now().UnixNano())
	rng := rand.New(rand.NewPCG(seed, 1))
	folder := func(i int) string { return filepath.Join(skills, name(i)) }
	exchange := func(a, b string) error {
		return unix.Renameat2(unix.AT_FDCWD, a, unix.AT_FDCWD, b, unix.RENAME_EXCHANGE)
	}
	rounds, changes := 0, map[string]int{}
	for start := time.Now(); time.Since(start) < run; rounds++ {
		i, j := rng.IntN(n), rng.IntN(n)
		file := filepath.Join(folder(i), "SKILL.md")
		kind := []string{"link-file-out", "link-folder-out", "rewrite", "exchange", "exchange-and-back", "exchange-and-back"}[rng.IntN(6)]
		var err error
		switch kind {
		case "link-file-out":
			// mv a ../outside/a; mkdir a; ln -s ../outside/a/SKILL.md a/SKILL.md
			out := filepath.Join(outside, fmt.Sprintf("f%d", rounds))
			if err = os.Rename(folder(i), out); err == nil {
				if err = os.Mkdir(folder(i), 0o755); err == nil {
					err = os.Symlink(filepath.Join(out, "SKILL.md"), file)
				}
			}
		case "link-folder-out":
			out := filepath.Join(outside, fmt.Sprintf("d%d", rounds))
			if err = os.Rename(folder(i), out); err == nil {
				err = os.Symlink(out, folder(i))
			}
		case "rewrite":
			if _, serr := os.Lstat(file); serr == nil {
				err = os.WriteFile(file, []byte(fmt.Sprintf("---\nname: %s\ndescription: rewritten %04d\n---\nNew.\n", name(i), rounds%10000)), 0o644)
			}
		case "exchange":
			if i != j {
				err = exchange(folder(i), folder(j))
			}
		case "exchange-and-back":
			if i == j {
				break
			}
			// The long-lived engines discover while a and b are exchanged
			// and back, again and again; the tree ends as it began.
			var wg sync.WaitGroup
			stop := make(chan struct{})
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					if err := exchange(folder(i), folder(j)); err != nil {
						return
					}
					time.Sleep(time.Duration(rng.IntN(2000)) * time.Microsecond)
					if err := exchange(folder(i), folder(j)); err != nil {
						panic(err) // the tree would be left exchanged
					}
					time.Sleep(time.Duration(rng.IntN(500)) * time.Microsecond)
				}
			}()
			for range 3 {
				call()
			}
			close(stop)
			wg.Wait()
		}
		if err != nil {
			t.Fatalf("seed %d round %d: %s %s: %v", seed, rounds, kind, name(i), err)
		}
		changes[kind]++
		want := wire.Call(fsys, req)
		if got := native.Call(fsys, req); !bytes.Equal(got, want) {
			t.Fatalf("seed %d round %d, after %s of %s: the native session replied\n%s\nwant\n%s", seed, rounds, kind, name(i), got, want)
		}
		got, err := eng.Call(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d round %d, after %s of %s: the module replied\n%s\nwant\n%s", seed, rounds, kind, name(i), got, want)
		}
		if rounds%16 == 15 && len(spares) > 0 && time.Since(spares[0].made) > 3200*time.Millisecond {
			// Start again from a clean tree now and then, so that links
			// out do not pile up.
			if err := os.RemoveAll(skills); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(spares[0].dir, skills); err != nil {
				t.Fatal(err)
			}
			spares = spares[1:]
			if len(spares) < 4 {
				addSpares(8)
			}
		}
	}
	t.Logf("%d rounds in %v: %v (seed %d)", rounds, run, changes, seed)
}
