package wasmtimetest

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/internal/hosttest"
	"github.com/skilldex/skilldex/wasm/abi"
	"github.com/skilldex/skilldex/wire"
)

// fakeGuest is a one-page module with the skilldex exports whose
// skilldex_call runs body (WAT; the request is at 1024, its length in
// local 1), importing the host functions as $read_dir ... $file_version.
func fakeGuest(t *testing.T, pages int, body string) *Module {
	t.Helper()
	wat := fmt.Sprintf(`(module
  (import "%[1]s" "read_dir" (func $read_dir (param i32 i32 i32 i32 i32) (result i32)))
  (import "%[1]s" "stat" (func $stat (param i32 i32 i32) (result i32)))
  (import "%[1]s" "lstat" (func $lstat (param i32 i32 i32) (result i32)))
  (import "%[1]s" "read_file" (func $read_file (param i32 i32 i32 i32 i32) (result i32)))
  (import "%[1]s" "realpath" (func $realpath (param i32 i32 i32 i32 i32) (result i32)))
  (import "%[1]s" "read_file_within" (func $read_file_within (param i32 i32 i32 i32 i32 i32 i32 i32) (result i32)))
  (import "%[1]s" "parse_frontmatter" (func $parse_frontmatter (param i32 i32 i32 i32 i32 i32 i32) (result i32)))
  (import "%[1]s" "file_version" (func $file_version (param i32 i32 i32) (result i32)))
  (memory (export "memory") %[2]d)
  (func (export "_initialize"))
  (func (export "skilldex_abi_version") (result i32) i32.const %[3]d)
  (func (export "skilldex_alloc") (param i32) (result i32) i32.const 1024)
  (func (export "skilldex_call") (param i32 i32) (result i64) %[4]s))`, abi.HostModule, pages, abi.Version, body)
	wasm, err := wasmtime.Wat2Wasm(wat)
	if err != nil {
		t.Fatal(err)
	}
	m, err := Compile(wasm, nil, "")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func isInternal(err error, want string) bool {
	var ce *core.Error
	return errors.As(err, &ce) && ce.Code == core.CodeInternal && strings.Contains(ce.Message, want)
}

// A guest that passes a range outside its memory to an import, or returns
// a reply outside it, or traps: the call fails with INTERNAL, the
// filesystem is not touched, and the next call runs on a new instance
// (wasm/ABI.md#imports).
func TestTrap_guestBreaksABI(t *testing.T) {
	const bad = "0xFFFFFF00"
	imp := func(name string, args ...string) string {
		var b strings.Builder
		for _, a := range args {
			if a == "p" {
				b.WriteString("local.get 0 ")
			} else if a == "n" {
				b.WriteString("local.get 1 ")
			} else {
				b.WriteString("i32.const " + a + " ")
			}
		}
		return b.String() + "call $" + name + " drop i64.const 0"
	}
	for _, tc := range []struct{ name, body, request, want string }{
		{"read_dir path", imp("read_dir", bad, "16", "0", "0", "0"), "/", "read_dir: path"},
		{"stat path", imp("stat", bad, "16", "0"), "/", "stat: path"},
		{"lstat path length", imp("lstat", "p", "0x100000", "0"), "/", "lstat: path"},
		{"realpath path", imp("realpath", bad, "1", "0", "0", "0"), "/", "realpath: path"},
		{"read_file path", imp("read_file", bad, "1", "0", "0", "0"), "/", "read_file: path"},
		{"read_dir out_len", imp("read_dir", "p", "n", "0", "0", bad), "/", "read_dir: out pointer"},
		{"stat out_type at the end", imp("stat", "p", "n", "65534"), "/", "stat: out pointer"},
		{"lstat out_type", imp("lstat", "p", "n", bad), "/", "lstat: out pointer"},
		{"read_file buf", imp("read_file", "p", "n", bad, "64", "0"), "/f", "read_file: buffer"},
		{"read_file buf_cap", imp("read_file", "p", "n", "0", "0x100000", "0"), "/f", "read_file: buffer"},
		{"realpath buf", imp("realpath", "p", "n", bad, "64", "0"), "/", "realpath: buffer"},
		{"read_file_within within", imp("read_file_within", bad, "16", "p", "n", "0", "64", "128", "0"), "/f", "read_file_within: within"},
		{"read_file_within path", imp("read_file_within", "p", "n", bad, "16", "0", "64", "128", "0"), "/f", "read_file_within: path"},
		{"read_file_within version", imp("read_file_within", "p", "n", "p", "n", "0", "64", "128", bad), "/f", "read_file_within: version pointer"},
		{"read_file_within version at the end", imp("read_file_within", "p", "n", "p", "n", "0", "64", "128", "65504"), "/f", "read_file_within: version pointer"},
		{"parse_frontmatter text", imp("parse_frontmatter", "p", "n", bad, "16", "0", "64", "128"), "/", "parse_frontmatter: text"},
		{"parse_frontmatter buf", imp("parse_frontmatter", "p", "n", "p", "n", bad, "64", "0"), "/", "parse_frontmatter: buffer"},
		{"file_version path", imp("file_version", bad, "16", "0"), "/f", "file_version: path"},
		{"file_version out", imp("file_version", "p", "n", bad), "/f", "file_version: out pointer"},
		// All 40 bytes must lie in memory, not just the first word.
		{"file_version out at the end", imp("file_version", "p", "n", "65504"), "/f", "file_version: out pointer"},
		{"reply outside memory", "i64.const 0xFFFFFF0000000040", "/", "reply"},
		{"unreachable", "unreachable", "/", "unreachable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := memfs.New()
			if err := fsys.WriteFile("/f", []byte("hello")); err != nil {
				t.Fatal(err)
			}
			counted := &countFS{FS: fsys}
			e, err := fakeGuest(t, 1, tc.body).Instantiate(counted, 0, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			for i := 1; i <= 2; i++ {
				_, err := e.Call([]byte(tc.request))
				if !isInternal(err, tc.want) {
					t.Fatalf("call %d: err = %v, want an INTERNAL trap mentioning %q", i, err, tc.want)
				}
				if e.Traps() != i || e.Instances() != i { // the next call makes the next instance
					t.Fatalf("call %d: %d traps, %d instances", i, e.Traps(), e.Instances())
				}
			}
			if counted.calls != 0 {
				t.Fatalf("the filesystem was called %d times", counted.calls)
			}
		})
	}
}

// countFS counts the filesystem calls. It is a core.Versioner (ENOSYS
// over an FS that is none), so that file_version reaches it too.
type countFS struct {
	core.FS
	calls int
}

func (c *countFS) FileVersion(p string) (core.FileVersion, error) {
	c.calls++
	if v, ok := c.FS.(core.Versioner); ok {
		return v.FileVersion(p)
	}
	return core.FileVersion{}, &core.PathError{Op: "fileVersion", Path: p, Code: core.ENOSYS}
}

func (c *countFS) ReadDir(p string) ([]core.DirEntry, error) { c.calls++; return c.FS.ReadDir(p) }
func (c *countFS) Stat(p string) (core.FileType, error)      { c.calls++; return c.FS.Stat(p) }
func (c *countFS) Lstat(p string) (core.FileType, error)     { c.calls++; return c.FS.Lstat(p) }
func (c *countFS) ReadFile(p string) ([]byte, error)         { c.calls++; return c.FS.ReadFile(p) }
func (c *countFS) Realpath(p string) (string, error)         { c.calls++; return c.FS.Realpath(p) }

// versionFS is a core.Versioner over another FS, answering the versions and
// error codes the test gives it (any other path: ENOENT). With an error it
// also returns a non-zero version, which the host must not write.
type versionFS struct {
	core.FS
	versions map[string]core.FileVersion
	codes    map[string]string
}

func (v *versionFS) FileVersion(p string) (core.FileVersion, error) {
	if ver, ok := v.versions[p]; ok {
		return ver, nil
	}
	code, ok := v.codes[p]
	if !ok {
		code = core.ENOENT
	}
	return core.FileVersion{Dev: 9, Ino: 9, Size: 9, Mtime: 9, Ctime: 9}, &core.PathError{Op: "fileVersion", Path: p, Code: code}
}

// file_version (wasm/ABI.md#file_version): over a core.Versioner the host
// writes the version at out_ptr as dev, ino, size, mtime, ctime, each 8
// bytes little-endian, and returns OK; a failure is the code's errno
// (ENOSYS included; a code outside the table is EIO) with nothing written;
// over an FS that is no core.Versioner, ENOSYS. Over osfs a symlink is
// followed.
func TestHost_fileVersion(t *testing.T) {
	// skilldex_call: *2040 = file_version(request, 2048); the reply is
	// [2040, +48): the errno, 4 bytes of padding and the 40 bytes at 2048.
	m := fakeGuest(t, 1, `i32.const 2040 local.get 0 local.get 1 i32.const 2048 call $file_version i32.store i64.const 0x7F800000030`)
	reply := func(e abi.Errno, v *core.FileVersion) []byte {
		b := binary.LittleEndian.AppendUint32(nil, e)
		b = append(b, 0, 0, 0, 0)
		if v == nil {
			return append(b, make([]byte, abi.FileVersionSize)...)
		}
		for _, w := range []uint64{v.Dev, v.Ino, uint64(v.Size), uint64(v.Mtime), uint64(v.Ctime)} {
			b = binary.LittleEndian.AppendUint64(b, w)
		}
		return b
	}

	v := core.FileVersion{Dev: 0x0102030405060708, Ino: 0xF1F2F3F4F5F6F7F8, Size: 5, Mtime: -2, Ctime: 1<<62 + 3}
	vfs := &versionFS{FS: memfs.New(), versions: map[string]core.FileVersion{"/f": v},
		codes: map[string]string{"/d": core.EISDIR, "/fifo": core.EINVAL, "/nosys": core.ENOSYS, "/x/y": core.ENOTDIR, "/odd": "EWHATEVER"}}

	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("f", filepath.Join(dir, "l")); err != nil {
		t.Fatal(err)
	}
	disk, err := osfs.Dir(dir)
	if err != nil {
		t.Fatal(err)
	}
	onDisk, err := disk.FileVersion("/f")
	if err != nil && core.POSIXCode(err) != core.ENOSYS {
		t.Fatal(err)
	}
	diskWant := reply(abi.OK, &onDisk)
	if err != nil { // a system whose stat has no versions
		diskWant = reply(abi.ENOSYS, nil)
	}

	for _, tc := range []struct {
		name string
		fsys core.FS
		path string
		want []byte
	}{
		{"version", vfs, "/f", reply(abi.OK, &v)},
		{"directory", vfs, "/d", reply(abi.EISDIR, nil)},
		{"not a regular file", vfs, "/fifo", reply(abi.EINVAL, nil)},
		{"missing", vfs, "/none", reply(abi.ENOENT, nil)},
		{"not a directory", vfs, "/x/y", reply(abi.ENOTDIR, nil)},
		{"the FS cannot tell", vfs, "/nosys", reply(abi.ENOSYS, nil)},
		{"a code outside the table", vfs, "/odd", reply(abi.EIO, nil)},
		{"no Versioner", struct{ core.FS }{memfs.New()}, "/f", reply(abi.ENOSYS, nil)},
		{"osfs file", disk, "/f", diskWant},
		{"osfs symlink not followed", disk, "/l", reply(abi.EINVAL, nil)},
		{"osfs directory", disk, "/d", reply(abi.EISDIR, nil)},
		{"osfs missing", disk, "/none", reply(abi.ENOENT, nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := m.Instantiate(tc.fsys, 0, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			got, err := e.Call([]byte(tc.path))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("file_version %s\n got %x\nwant %x", tc.path, got, tc.want)
			}
		})
	}
}

// Addresses at 2 GiB and above are unsigned (wasm/ABI.md, reading the
// integers as unsigned): a guest with a 2 GiB + 128 KiB memory reads the
// file named by its request into a buffer at 0x80012000, stats it into
// 0x80010100, and replies from there.
func TestHighAddresses(t *testing.T) {
	body := `
    local.get 0 local.get 1 i32.const 0x80010100 call $stat drop
    local.get 0 local.get 1 i32.const 0x80012000 i32.const 4096 i32.const 0x80010108 call $read_file drop
    i32.const 0x80012008 i32.const 0x80010100 i32.load i32.const 48 i32.add i32.store8
    i64.const 0x8001200000000000 i32.const 0x80010108 i32.load i64.extend_i32_u i64.or`
	fsys := memfs.New()
	if err := fsys.WriteFile("/reply.json", []byte(`{"type":?}`)); err != nil {
		t.Fatal(err)
	}
	e, err := fakeGuest(t, 0x80020000/65536, body).Instantiate(fsys, 0, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	got, err := e.Call([]byte("/reply.json"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != `{"type":1}` {
		t.Fatalf("reply %q, want {\"type\":1}", got)
	}
}

// A real trap of the real module (the core.FS panics inside an import):
// the call fails with INTERNAL, and the next call runs on a fresh instance
// and answers exactly as native.
func TestTrap_fsPanicRecovers(t *testing.T) {
	tree := hosttest.Tree(t)
	fsys := &hosttest.PanicFS{PrefixReader: tree, Path: "/home/u/.claude/skills", Armed: true}
	e := newEngine(t, fsys)
	if _, err := e.Call([]byte(hosttest.Request)); !isInternal(err, "panicFS") {
		t.Fatalf("err = %v, want an INTERNAL trap naming the panic", err)
	}
	fsys.Armed = false
	got, err := e.Call([]byte(hosttest.Request))
	if err != nil {
		t.Fatal(err)
	}
	if native := wire.Call(tree, []byte(hosttest.Request)); !bytes.Equal(got, native) {
		t.Fatalf("after the trap\nwasmtime: %s\nnative:   %s", got, native)
	}
	if e.Instances() != 2 {
		t.Fatalf("%d instances, want 2", e.Instances())
	}
}

// Under a memory cap (Wasmtime's store limiter), a call that needs more
// makes the Go runtime fail with "out of memory" (wasm/ABI.md#limits): the
// call fails with INTERNAL quoting it, and the next call works on a fresh
// instance.
func TestTrap_memoryCap(t *testing.T) {
	tree := hosttest.Tree(t)
	// 8 MiB of NUL bytes, the most a resolve reads (S45), whose reply
	// escapes each byte to six: more than 32 MiB.
	if err := tree.WriteFile("/home/u/proj/.xcsh/skills/c/huge.txt", make([]byte, 8<<20)); err != nil {
		t.Fatal(err)
	}
	e, err := module.Instantiate(tree, 32<<20, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	_, err = e.Call([]byte(`{"op":"resolve","cwd":"/home/u/proj","home":"/home/u","url":"skill://c/huge.txt"}`))
	if !isInternal(err, "out of memory") {
		t.Fatalf("err = %v, want an INTERNAL trap quoting the runtime's out of memory", err)
	}
	t.Logf("%.200s", err)
	got, err := e.Call([]byte(hosttest.Request))
	if err != nil {
		t.Fatal(err)
	}
	if native := wire.Call(tree, []byte(hosttest.Request)); !bytes.Equal(got, native) {
		t.Fatalf("after the trap\nwasmtime: %s\nnative:   %s", got, native)
	}
	if n := e.MemorySize(); n > 32<<20 {
		t.Fatalf("memory %d bytes over the 32 MiB cap", n)
	}
}

// wasm/ABI.md#loading: Linker.DefineModule calls _initialize itself (the
// exports then work at once), and a second _initialize traps; an export
// called before _initialize traps (the snapshot's guard: internal/wasmsnap).
func TestLoading_initialize(t *testing.T) {
	stderr := t.TempDir() + "/stderr"
	setup := func() (*wasmtime.Store, *wasmtime.Linker) {
		store := wasmtime.NewStore(module.engine)
		wasi := wasmtime.NewWasiConfig()
		if err := wasi.SetStderrFile(stderr); err != nil {
			t.Fatal(err)
		}
		store.SetWasi(wasi)
		linker := wasmtime.NewLinker(module.engine)
		if err := linker.DefineWasi(); err != nil {
			t.Fatal(err)
		}
		e := &Engine{fsys: memfs.New()}
		if err := e.defineHost(linker); err != nil {
			t.Fatal(err)
		}
		return store, linker
	}
	readStderr := func() string { b, _ := os.ReadFile(stderr); return string(b) }

	store, linker := setup()
	if err := linker.DefineModule(store, "skilldex", module.module); err != nil {
		t.Fatal(err)
	}
	version := linker.Get(store, "skilldex", "skilldex_abi_version").Func()
	if v, err := version.Call(store); err != nil || v.(int32) != abi.Version {
		t.Fatalf("after DefineModule: skilldex_abi_version = %v, %v; want %d (initialised by Wasmtime)", v, err, abi.Version)
	}
	initialize := linker.Get(store, "skilldex", "_initialize").Func()
	if _, err := initialize.Call(store); err == nil || !strings.Contains(err.Error(), "unreachable") {
		t.Fatalf("a second _initialize: %v; want a trap (unreachable)", err)
	}

	store, linker = setup()
	inst, err := linker.Instantiate(store, module.module)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"skilldex_abi_version", "skilldex_alloc", "skilldex_call"} {
		f := inst.GetFunc(store, name)
		args := make([]any, len(f.Type(store).Params()))
		for i := range args {
			args[i] = int32(0)
		}
		if _, err := f.Call(store, args...); err == nil || !strings.Contains(err.Error(), "unreachable") {
			t.Fatalf("%s before _initialize: %v; want a trap (unreachable)", name, err)
		}
	}
	if s := readStderr(); s != "" {
		t.Fatalf("stderr: %q", s)
	}
}
