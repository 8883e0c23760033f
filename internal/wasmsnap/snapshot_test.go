package wasmsnap

import (
	"bytes"
	"context"
	"crypto/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

var reactor = sync.OnceValues(func() ([]byte, error) {
	dir, err := os.MkdirTemp("", "wasmsnap-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	out := filepath.Join(dir, "reactor.wasm")
	cmd := exec.Command("go", "build", "-buildmode=c-shared", "-trimpath", "-buildvcs=false", "-ldflags=-buildid=", "-o", out, "./testdata/reactor")
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if b, err := cmd.CombinedOutput(); err != nil {
		return nil, &buildError{string(b), err}
	}
	return os.ReadFile(out)
})

type buildError struct {
	out string
	err error
}

func (e *buildError) Error() string { return e.err.Error() + ": " + e.out }

// rebuilt are the test reactor's packages whose init-time maps are safe:
// lookup rebuilds table, and it reads none of unicode's.
var rebuilt = []string{"main", "unicode"}

func build(t *testing.T) (raw, snap []byte) {
	t.Helper()
	raw, err := reactor()
	if err != nil {
		t.Fatal(err)
	}
	snap, err = Reactor(context.Background(), raw, rebuilt...)

	if err != nil {
		t.Fatal(err)
	}
	return raw, snap
}

// instance instantiates wasm under wazero with real entropy and no
// initialisation.
func instance(t *testing.T, wasm []byte) api.Module {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	t.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.InstantiateWithConfig(ctx, wasm, wazero.NewModuleConfig().WithStartFunctions().
		WithRandSource(rand.Reader).WithSysNanotime().WithSysWalltime())
	if err != nil {
		t.Fatal(err)
	}
	return mod
}

func call(t *testing.T, mod api.Module, name string) (uint64, error) {
	t.Helper()
	r, err := mod.ExportedFunction(name).Call(context.Background())
	if err != nil || len(r) == 0 {
		return 0, err
	}
	return r[0], nil
}

func mustCall(t *testing.T, mod api.Module, name string) uint64 {
	t.Helper()
	r, err := call(t, mod, name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return r
}

// The snapshot answers as the module does after _initialize, from the
// state the initialisers left: the counter, the heap, a map built at init.
func TestSnapshot_sameState(t *testing.T) {
	raw, snap := build(t)
	for _, tc := range []struct {
		name string
		wasm []byte
	}{{"original", raw}, {"snapshot", snap}} {
		t.Run(tc.name, func(t *testing.T) {
			mod := instance(t, tc.wasm)
			mustCall(t, mod, "_initialize")
			if got := mustCall(t, mod, "count"); got != 42 {
				t.Errorf("count = %d, want 42 (41, +1 by init)", got)
			}
			if got := mustCall(t, mod, "count"); got != 43 {
				t.Errorf("second count = %d, want 43", got)
			}
			if got := mustCall(t, mod, "lookup"); got != 2*100000+8000 {
				t.Errorf("lookup = %d, want %d", got, 2*100000+8000)
			}
		})
	}
}

// Each instance of the snapshot draws its own hash key: the same seed and
// string hash differently in two instances (the seed, drawn at init, is
// the same in both: only the key differs).
func TestSnapshot_freshHashKey(t *testing.T) {
	_, snap := build(t)
	seen := map[uint64]bool{}
	for range 3 {
		mod := instance(t, snap)
		mustCall(t, mod, "_initialize")
		seen[mustCall(t, mod, "hash")] = true
	}
	if len(seen) != 3 {
		t.Fatalf("three instances gave %d distinct hashes: the hash key is shared", len(seen))
	}
}

// _initialize twice traps, as Go's does; so does any export before it.
func TestSnapshot_initGuard(t *testing.T) {
	_, snap := build(t)
	mod := instance(t, snap)
	for _, name := range []string{"count", "lookup", "hash"} {
		if _, err := call(t, mod, name); err == nil || !strings.Contains(err.Error(), "unreachable") {
			t.Errorf("%s before _initialize: %v; want a trap", name, err)
		}
	}
	mod = instance(t, snap)
	mustCall(t, mod, "_initialize")
	if _, err := call(t, mod, "_initialize"); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Errorf("a second _initialize: %v; want a trap", err)
	}
}

// The package initialisers' code is gone and so is the name section that
// found it; the module still runs (TestSnapshot_sameState).
func TestSnapshot_stubsInitialisers(t *testing.T) {
	raw, snap := build(t)
	m, err := decodeModule(raw)
	if err != nil {
		t.Fatal(err)
	}
	var inits []string
	for _, name := range m.names {
		if packageInit.MatchString(name) {
			inits = append(inits, name)
		}
	}
	if !slices.Contains(inits, "main.init") || !slices.Contains(inits, "main.init.0") {
		t.Fatalf("package initialisers found: %q; want main.init (the map) and main.init.0 among them", inits)
	}
	s, err := decodeModule(snap)
	if err != nil {
		t.Fatal(err)
	}
	if s.names != nil {
		t.Error("the snapshot kept the name section")
	}
	cs, _ := s.section(secCode)
	stubs := bytes.Count(cs.body, []byte{3, 0, opUnreachable, opEnd})
	if stubs < len(inits) {
		t.Errorf("%d stubbed bodies, want at least %d (one per initialiser)", stubs, len(inits))
	}
	if len(snap) >= len(raw) {
		t.Errorf("snapshot %d bytes, not smaller than the named build's %d", len(snap), len(raw))
	}
}

// The same module gives the same snapshot (make build is reproducible).
func TestSnapshot_reproducible(t *testing.T) {
	raw, snap := build(t)
	again, err := Reactor(context.Background(), raw, rebuilt...)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(snap, again) {
		t.Fatal("two snapshots of the same module differ")
	}
}

// What the snapshot refuses, with the reason.
func TestSnapshot_refuses(t *testing.T) {
	raw, _ := build(t)
	for _, tc := range []struct {
		name, want string
		wasm       []byte
		init       string
	}{
		{"not wasm", "bad magic", []byte("\x7fELF...."), "_initialize"},
		{"truncated", "truncated", raw[:len(raw)/2], "_initialize"},
		{"no such init", `no function "_start"`, raw, "_start"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Snapshot(context.Background(), tc.wasm, Config{Init: tc.init, Entropy: fixedEntropy()})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSegments(t *testing.T) {
	for _, tc := range []struct {
		name string
		mem  []byte
		segs int
	}{
		{"empty", nil, 0},
		{"zeros", make([]byte, 100), 0},
		{"one byte", []byte{0, 0, 7, 0}, 1},
		{"short gap merged", []byte{1, 0, 0, 0, 2}, 1},
		{"long gap split", append(append([]byte{1}, make([]byte, 8)...), 2), 2},
		{"edges", []byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			segs := segments(tc.mem)
			if len(segs) != tc.segs {
				t.Errorf("%d segments, want %d", len(segs), tc.segs)
			}
			back := make([]byte, len(tc.mem))
			for _, s := range segs {
				if len(s.data) == 0 || s.data[0] == 0 || s.data[len(s.data)-1] == 0 {
					t.Errorf("segment at %d starts or ends with zero: %v", s.off, s.data)
				}
				copy(back[s.off:], s.data)
			}
			if !bytes.Equal(back, tc.mem) && !(len(tc.mem) == 0 && len(back) == 0) {
				t.Errorf("segments rebuild %v, want %v", back, tc.mem)
			}
		})
	}
}

// decodeModule reads attacker-shaped bytes without panicking.
func FuzzDecodeModule(f *testing.F) {
	f.Add([]byte("\x00asm\x01\x00\x00\x00"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x01\x04\x01\x60\x00\x00"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x05\x03\x01\x00\x01\x06\x06\x01\x7f\x01\x41\x00\x0b"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := decodeModule(b)
		if err == nil && encodeModule(m.secs) == nil {
			t.Fatal("nil encoding")
		}
	})
}

// A package initialiser that builds a map fails the snapshot, named, unless
// its package is one the module rebuilds: the test reactor's table is
// rebuilt by lookup, so build passes "main"; without it the snapshot fails.
func TestSnapshot_initMaps(t *testing.T) {
	raw, _ := build(t)
	_, err := Reactor(context.Background(), raw, "unicode")
	if err == nil || !strings.Contains(err.Error(), "main.init builds a map") {
		t.Fatalf("error %v, want one naming main.init", err)
	}
	if _, err := Reactor(context.Background(), raw, rebuilt...); err != nil {
		t.Fatal(err)
	}
}

func TestInitPackage(t *testing.T) {
	for name, want := range map[string]string{
		"unicode.init": "unicode", "unicode.map.init.0": "unicode", "syscall.init.1": "syscall",
		"github.com_skilldex_skilldex_wire.init": "github.com_skilldex_skilldex_wire", "gopkg.in_yaml.v3.init.0": "gopkg.in_yaml.v3",
	} {
		if got := initPackage(name); got != want {
			t.Errorf("initPackage(%q) = %q, want %q", name, got, want)
		}
	}
}
