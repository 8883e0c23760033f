package runtimetest

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/fsadapter/osfs"
	"github.com/skilldex/skilldex/wasm/abi"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
	"github.com/skilldex/skilldex/wasmhost"
)

// TestABI_lock compares the imports and exports of the module, with their
// signatures, as wazero compiled them, with wasm/testdata/abi.golden
// (docs/STYLE.md habit 10, wasm/ABI.md#versioning). go test ./wasm/abi checks the
// golden file against package abi, ABI.md and the binary's own sections;
// this is the check of what a runtime actually links. It also cross-checks
// abitest.Signatures (the binary reader the JS tests mirror) with wazero.
func TestABI_lock(t *testing.T) {
	got := module.Signatures()
	want, err := abitest.ReadGolden(root)
	if err != nil {
		t.Fatal(err)
	}
	if d := abitest.Diff(want, got); d != "" {
		t.Errorf("the module under wazero differs from %s (- golden, + module); if intended, bump the ABI (wasm/ABI.md#versioning) and run go test ./wasm/abi -run TestABI_golden -update:\n%s", abitest.GoldenPath, d)
	}
	parsed, err := abitest.Signatures(wasmBytes)
	if err != nil {
		t.Fatal(err)
	}
	if d := abitest.Diff(parsed, got); d != "" {
		t.Errorf("abitest.Signatures and wazero disagree (- abitest, + wazero):\n%s", d)
	}
}

// A module built for another ABI is refused with ErrBadBinary
// (wasm/ABI.md#loading): at Compile for its imports and exports, at
// Instantiate for the version it answers.
func TestABI_badBinary(t *testing.T) {
	ctx := context.Background()
	v2 := append([]wasmImport{}, hostImports...)
	v2[0].module = "skilldex_host_v2"
	ok := fakeGuest(abi.Version, i64Const(0))
	for _, tc := range []struct {
		name        string
		wasm        []byte
		instantiate bool // refused by Instantiate rather than Compile
	}{
		{"not wasm", []byte("not a wasm module"), false},
		{"truncated", ok[:len(ok)-3], false},
		{"host module v2", wasmModule(v2, []wasmFunc{{export: abi.ExportInitialize}}, 1), false},
		{"other import module", wasmModule([]wasmImport{{"env", "f", nil, nil}}, nil, 1), false},
		{"no skilldex_call", wasmModule(hostImports, []wasmFunc{
			{export: abi.ExportInitialize},
			{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(1)},
			{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
		}, 1), false},
		{"skilldex_call of another signature", wasmModule(hostImports, []wasmFunc{
			{export: abi.ExportInitialize},
			{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(1)},
			{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
			{export: abi.ExportCall, params: []byte{i32}, results: []byte{i64}, body: i64Const(0)},
		}, 1), false},
		{"no memory", wasmModule(hostImports, []wasmFunc{
			{export: abi.ExportInitialize},
			{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(1)},
			{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
			{export: abi.ExportCall, params: []byte{i32, i32}, results: []byte{i64}, body: i64Const(0)},
		}, 0), false},
		{"version 1", fakeGuest(1, i64Const(0)), true},
		{"version 2", fakeGuest(2, i64Const(0)), true},
		{"version 0", fakeGuest(0, i64Const(0)), true},
		{"_initialize traps", wasmModule(hostImports, []wasmFunc{
			{export: abi.ExportInitialize, body: []byte{opUnreachable}},
			{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(1)},
			{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
			{export: abi.ExportCall, params: []byte{i32, i32}, results: []byte{i64}, body: i64Const(0)},
		}, 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wasmhost.Compile(ctx, tc.wasm)
			if !tc.instantiate {
				if !errors.Is(err, wasmhost.ErrBadBinary) {
					t.Fatalf("Compile: err = %v, want ErrBadBinary", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			defer m.Close(ctx)
			if _, err := m.Instantiate(ctx, memfs.New()); !errors.Is(err, wasmhost.ErrBadBinary) {
				t.Fatalf("Instantiate: err = %v, want ErrBadBinary", err)
			}
		})
	}
	// The fake guest with the right version is accepted, and answers.
	m, err := wasmhost.Compile(ctx, ok)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	e, err := m.Instantiate(ctx, memfs.New())
	if err != nil {
		t.Fatal(err)
	}
	if reply, err := e.Call(ctx, []byte(`{}`)); err != nil || len(reply) != 0 {
		t.Errorf("Call = %q, %v; want the empty reply at 0", reply, err)
	}
}

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
	ctx := context.Background()
	const fileVersion = 6 // its index in hostImports
	// skilldex_call: *2040 = file_version(request, 2048); the reply is
	// [2040, +48): the errno, 4 bytes of padding and the 40 bytes at 2048.
	body := cat(i32Const(2040), localGet(0), localGet(1), i32Const(2048), call(fileVersion), i32Store(), i64Const(2040<<32|48))
	m, err := wasmhost.Compile(ctx, fakeGuest(abi.Version, body))
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
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
			e, err := m.Instantiate(ctx, tc.fsys)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close(ctx)
			got, err := e.Call(ctx, []byte(tc.path))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tc.want) {
				t.Fatalf("file_version %s\n got %x\nwant %x", tc.path, got, tc.want)
			}
		})
	}
}

// TestABI_previousHostRefused: a host written for the previous ABI version
// (it provides skilldex_host_v<N-1>) cannot run the module: linking fails
// before any code runs, and the error names the import module it lacks, so
// an embedder learns at once to update the host (wasm/ABI.md#versioning).
func TestABI_previousHostRefused(t *testing.T) {
	ctx := context.Background()
	previous := fmt.Sprintf("skilldex_host_v%d", abi.Version-1)
	if previous == abi.HostModule {
		t.Fatalf("abi.HostModule %q does not carry abi.Version %d", abi.HostModule, abi.Version)
	}
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	// The previous host's imports, by their names: what matters is that
	// they live in the previous module.
	_, err := r.NewHostModuleBuilder(previous).
		NewFunctionBuilder().WithFunc(func(_ context.Context, p, n, out uint32) uint32 { return 0 }).Export(abi.ImportStat).
		Instantiate(ctx)
	if err != nil {
		t.Fatal(err)
	}
	compiled, err := r.CompileModule(ctx, wasmBytes)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithStartFunctions())
	if err == nil {
		t.Fatalf("a %s host instantiated the module of ABI %d", previous, abi.Version)
	}
	if !strings.Contains(err.Error(), abi.HostModule) {
		t.Errorf("the refusal does not name %s: %v", abi.HostModule, err)
	}
}
