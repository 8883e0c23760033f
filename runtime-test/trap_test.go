package runtimetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/internal/hosttest"
	"github.com/skilldex/skilldex/wasm/abi"
	"github.com/skilldex/skilldex/wasmhost"
	"github.com/skilldex/skilldex/wire"
)

// A guest that breaks the ABI in a host import (a pointer or length outside
// its memory) traps that call: Call fails with INTERNAL, no Go panic
// escapes, and the next call runs on a new instance (wasm/ABI.md#imports:
// trapping is reserved for ABI violations).
func TestTrap_guestBreaksABI(t *testing.T) {
	ctx := context.Background()
	const bad = 0xFFFFFF00 // outside the fake guest's one page
	const req = 1024       // where the fake guest's request lands: the path "/" or "/f"
	imp := func(idx int, args ...uint32) []byte {
		var b []byte
		for _, a := range args {
			b = append(b, i32Const(a)...)
		}
		return cat(b, call(idx), []byte{opDrop}, i64Const(0))
	}
	const readDir, stat, lstat, readFile, realpath, fileVersion, readFileWithin = 0, 1, 2, 3, 4, 6, 7
	for _, tc := range []struct {
		name    string
		body    []byte
		request string
		want    string // in the error message
	}{
		{"read_dir path", imp(readDir, bad, 16, 0, 0, 0), "/", "path"},
		{"stat path", imp(stat, bad, 16, 0), "/", "path"},
		{"lstat path length", imp(lstat, req, 1<<20, 0), "/", "path"},
		{"realpath path", imp(realpath, bad, 1, 0, 0, 0), "/", "path"},
		{"read_file path", imp(readFile, bad, 1, 0, 0, 0), "/", "path"},
		{"read_dir out_len", imp(readDir, req, 1, 0, 0, bad), "/", "out pointer"},
		{"stat out_type", imp(stat, req, 1, bad), "/", "out pointer"},
		{"lstat out_type", imp(lstat, req, 1, bad), "/", "out pointer"},
		{"read_file buf", imp(readFile, req, 2, bad, 64, 0), "/f", "buffer"},
		{"read_file buf_cap", imp(readFile, req, 2, 0, 1<<20, 0), "/f", "buffer"},
		{"realpath buf", imp(realpath, req, 1, bad, 64, 0), "/", "buffer"},
		{"file_version path", imp(fileVersion, bad, 16, 0), "/f", "path"},
		{"file_version out", imp(fileVersion, req, 2, bad), "/f", "buffer"},
		// All 40 bytes must lie in memory, not just the first word.
		{"file_version out at the end", imp(fileVersion, req, 2, 65536-32), "/f", "buffer"},
		{"read_file_within version", imp(readFileWithin, req, 2, req, 2, 0, 64, 128, bad), "/f", "buffer"},
		{"read_file_within version at the end", imp(readFileWithin, req, 2, req, 2, 0, 64, 128, 65536-32), "/f", "buffer"},
		{"reply outside memory", i64Const(uint64(bad)<<32 | 64), "/", "outside memory"},
		{"unreachable", []byte{opUnreachable}, "/", "unreachable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wasmhost.Compile(ctx, fakeGuest(abi.Version, tc.body))
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close(ctx)
			fsys := memfs.New()
			if err := fsys.WriteFile("/f", []byte("hello")); err != nil {
				t.Fatal(err)
			}
			e, err := m.Instantiate(ctx, fsys)
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 2; i++ {
				_, err := e.Call(ctx, []byte(tc.request))
				var ce *core.Error
				if !errors.As(err, &ce) || ce.Code != core.CodeInternal || !strings.Contains(ce.Message, tc.want) {
					t.Fatalf("call %d: err = %v, want an INTERNAL trap mentioning %q", i, err, tc.want)
				}
				if e.Traps() != i {
					t.Fatalf("call %d: Traps() = %d", i, e.Traps())
				}
			}
		})
	}
}

// After a trap the next call runs on a fresh instance and answers exactly
// as the native core (wasm/ABI.md#concurrency-traps-and-re-entry); a
// panicking filesystem is such a trap.
func TestTrap_fsPanicRecovers(t *testing.T) {
	ctx := context.Background()
	tree := hosttest.Tree(t)
	fsys := &hosttest.PanicFS{PrefixReader: tree, Path: "/home/u/.claude/skills"}
	e := newEngine(t, fsys)
	native := wire.Call(tree, []byte(hosttest.Request))
	for round := 1; round <= 3; round++ {
		fsys.Armed = true
		_, err := e.Call(ctx, []byte(hosttest.Request))
		var ce *core.Error
		if !errors.As(err, &ce) || ce.Code != core.CodeInternal || !strings.Contains(ce.Message, "panicFS") {
			t.Fatalf("round %d: err = %v, want an INTERNAL trap quoting the panic", round, err)
		}
		if e.MemorySize() != 0 {
			t.Errorf("round %d: the trapped instance is still live", round)
		}
		fsys.Armed = false
		got, err := e.Call(ctx, []byte(hosttest.Request))
		if err != nil {
			t.Fatalf("round %d: call after the trap: %v", round, err)
		}
		if !bytes.Equal(got, native) {
			t.Fatalf("round %d: after the trap\nwasm:   %s\nnative: %s", round, got, native)
		}
		if e.Traps() != round {
			t.Fatalf("Traps() = %d, want %d", e.Traps(), round)
		}
	}
}

// cancelFS cancels the call's context from inside the filesystem while
// armed: the module stops at its next filesystem access, the call fails
// with ctx's error, and the next call works.
type cancelFS struct {
	core.PrefixReader // an FS with its prefix reads
	cancel            context.CancelFunc
}

func (c *cancelFS) ReadDir(path string) ([]core.DirEntry, error) {
	if c.cancel != nil {
		c.cancel()
	}
	return c.PrefixReader.ReadDir(path)
}

func TestTrap_cancelledContext(t *testing.T) {
	tree := hosttest.Tree(t)
	fsys := &cancelFS{PrefixReader: tree}
	e := newEngine(t, fsys)
	ctx, cancel := context.WithCancel(context.Background())
	fsys.cancel = cancel
	if _, err := e.Call(ctx, []byte(hosttest.Request)); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	fsys.cancel = nil
	if e.Traps() != 1 {
		t.Errorf("Traps() = %d after the interrupted call, want 1", e.Traps())
	}
	if _, err := e.Call(ctx, []byte(hosttest.Request)); !errors.Is(err, context.Canceled) {
		t.Fatalf("call with a cancelled context: err = %v, want context.Canceled", err)
	}
	if e.Traps() != 1 {
		t.Errorf("Traps() = %d: a call refused for its done context discarded an instance", e.Traps())
	}
	got, err := e.Call(context.Background(), []byte(hosttest.Request))
	if err != nil {
		t.Fatal(err)
	}
	if native := wire.Call(tree, []byte(hosttest.Request)); !bytes.Equal(got, native) {
		t.Fatalf("after cancellation\nwasm:   %s\nnative: %s", got, native)
	}
}

// Close makes every later call fail with ErrClosed.
func TestEngine_closed(t *testing.T) {
	ctx := context.Background()
	e, err := module.Instantiate(ctx, hosttest.Tree(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := e.Close(ctx); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if _, err := e.Call(ctx, []byte(hosttest.Request)); !errors.Is(err, wasmhost.ErrClosed) {
		t.Fatalf("err = %v, want ErrClosed", err)
	}
}

// A call that needs more memory than the limit makes the Go runtime exit
// (wasm/ABI.md#limits): the call fails with INTERNAL quoting the runtime's
// message, and the next call works on a fresh instance.
func TestTrap_outOfMemory(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	m, err := wasmhost.Compile(ctx, wasmBytes, append(hostOpts, wasmhost.WithMemoryLimit(32<<20))...)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	tree := hosttest.Tree(t)
	// 8 MiB of NUL bytes, the most a resolve reads (S45), whose reply
	// escapes each byte to six: more than 32 MiB.
	if err := tree.WriteFile("/home/u/proj/.xcsh/skills/c/huge.txt", make([]byte, 8<<20)); err != nil {
		t.Fatal(err)
	}
	e, err := m.Instantiate(ctx, tree)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close(ctx)
	_, err = e.Call(ctx, []byte(`{"op":"resolve","cwd":"/home/u/proj","home":"/home/u","url":"skill://c/huge.txt"}`))
	var ce *core.Error
	if !errors.As(err, &ce) || ce.Code != core.CodeInternal || !strings.Contains(ce.Message, "fatal error: out of memory") {
		t.Fatalf("err = %v, want an INTERNAL trap quoting the runtime's out of memory", err)
	}
	t.Logf("%.200s", err)
	got, err := e.Call(ctx, []byte(hosttest.Request))
	if err != nil {
		t.Fatal(err)
	}
	if native := wire.Call(tree, []byte(hosttest.Request)); !bytes.Equal(got, native) {
		t.Fatalf("after the trap\nwasm:   %s\nnative: %s", got, native)
	}
}

// Calls from several goroutines on one engine are serialised, and engines
// of one module run side by side; every reply is the native one
// (wasm/ABI.md: one call at a time per instance, instances share nothing).
func TestEngine_concurrent(t *testing.T) {
	ctx := context.Background()
	tree := hosttest.Tree(t)
	requests := [][]byte{
		[]byte(hosttest.Request),
		[]byte(`{"op":"resolve","cwd":"/home/u/proj","home":"/home/u","url":"skill://c/ref.md"}`),
		[]byte(`{"op":"commands","cwd":"/home/u/proj","home":"/home/u"}`),
	}
	engines := []*wasmhost.Engine{newEngine(t, tree), newEngine(t, tree)}
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e := engines[g%len(engines)]
			for i := 0; i < 30; i++ {
				req := requests[(g+i)%len(requests)]
				got, err := e.Call(ctx, req)
				if err != nil {
					errs <- err
					return
				}
				if want := wire.Call(tree, req); !bytes.Equal(got, want) {
					errs <- fmt.Errorf("goroutine %d call %d: %s\nwasm:   %s\nnative: %s", g, i, req, got, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
