package runtimetest

import (
	"bytes"
	"context"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/internal/corpus"
	"github.com/skilldex/skilldex/internal/frontmatter"
	"github.com/skilldex/skilldex/internal/hosttest"
	"github.com/skilldex/skilldex/wasm/abi"
	"github.com/skilldex/skilldex/wire"
)

// rawHost is a second host of the real module, written straight on wazero
// (the "minimal host" of wasm/ABI.md), whose imports can break the ABI on
// purpose. It checks the guest's side: a host that breaks the ABI makes the
// engine panic inside the module, which comes back as an INTERNAL error
// reply, never a trap, and the instance stays usable.
type rawHost struct {
	fsys core.FS
	// broken, when set, answers in place of the import of that name.
	broken map[string]func(ctx context.Context, mod api.Module, stack []uint64)
	// good are the correct imports, for broken ones to delegate to.
	good map[string]func(ctx context.Context, mod api.Module, stack []uint64)
	mod  api.Module
	// inner is the reply of a re-entrant skilldex_call made from an import.
	inner []byte
}

func newRawHost(t *testing.T, fsys core.FS) *rawHost {
	t.Helper()
	ctx := context.Background()
	cache, err := wazero.NewCompilationCacheWithDir(cacheDir)
	if err != nil {
		t.Fatal(err)
	}
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cache))
	t.Cleanup(func() { rt.Close(ctx); cache.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	h := &rawHost{fsys: fsys, broken: map[string]func(context.Context, api.Module, []uint64){},
		good: map[string]func(context.Context, api.Module, []uint64){}}
	b := rt.NewHostModuleBuilder(abi.HostModule)
	add := func(name string, n int, fn func(mem api.Memory, path string, stack []uint64) abi.Errno) {
		params := make([]api.ValueType, n)
		for i := range params {
			params[i] = api.ValueTypeI32
		}
		h.good[name] = func(ctx context.Context, mod api.Module, stack []uint64) {
			p, _ := mod.Memory().Read(uint32(stack[0]), uint32(stack[1]))
			stack[0] = uint64(fn(mod.Memory(), string(p), stack))
		}
		b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			if f := h.broken[name]; f != nil {
				f(ctx, mod, stack)
				return
			}
			h.good[name](ctx, mod, stack)
		}), params, []api.ValueType{api.ValueTypeI32}).Export(name)
	}
	errno := func(err error) abi.Errno { return abi.ErrnoOf(core.POSIXCode(err)) }
	put := func(mem api.Memory, data []byte, stack []uint64) abi.Errno {
		mem.WriteUint32Le(uint32(stack[4]), uint32(len(data)))
		if len(data) > int(uint32(stack[3])) {
			return abi.BufferTooSmall
		}
		mem.Write(uint32(stack[2]), data)
		return abi.OK
	}
	add(abi.ImportReadDir, 5, func(mem api.Memory, p string, stack []uint64) abi.Errno {
		ents, err := h.fsys.ReadDir(p)
		if err != nil {
			return errno(err)
		}
		var buf []byte
		for _, d := range ents {
			buf = append(buf, byte(d.Type))
			buf = binary.LittleEndian.AppendUint32(buf, uint32(len(d.Name)))
			buf = append(buf, d.Name...)
		}
		return put(mem, buf, stack)
	})
	stat := func(f func(string) (core.FileType, error)) func(api.Memory, string, []uint64) abi.Errno {
		return func(mem api.Memory, p string, stack []uint64) abi.Errno {
			typ, err := f(p)
			if err != nil {
				return errno(err)
			}
			mem.WriteUint32Le(uint32(stack[2]), uint32(typ))
			return abi.OK
		}
	}
	add(abi.ImportStat, 3, stat(func(p string) (core.FileType, error) { return h.fsys.Stat(p) }))
	add(abi.ImportLstat, 3, stat(func(p string) (core.FileType, error) { return h.fsys.Lstat(p) }))
	add(abi.ImportReadFile, 5, func(mem api.Memory, p string, stack []uint64) abi.Errno {
		data, err := h.fsys.ReadFile(p)
		if err != nil {
			return errno(err)
		}
		if c := int(uint32(stack[3])); len(data) > c {
			mem.Write(uint32(stack[2]), data[:c])
		}
		return put(mem, data, stack)
	})
	// read_file_within over a memfs: the realpath checked against within
	// (ABI.md#read_file_within), then read_file; the version, when asked,
	// bracketed (core.ReadFileWithinVersion).
	add(abi.ImportReadFileWithin, 8, func(mem api.Memory, within string, stack []uint64) abi.Errno {
		pb, _ := mem.Read(uint32(stack[2]), uint32(stack[3]))
		c := uint32(stack[5])
		buf, _ := mem.Read(uint32(stack[4]), c)
		n, size, v, err := core.ReadFileWithinVersion(h.fsys, within, string(pb), buf)
		if err != nil {
			return errno(err)
		}
		if vp := uint32(stack[7]); vp != 0 {
			for i, x := range []uint64{v.Dev, v.Ino, uint64(v.Size), uint64(v.Mtime), uint64(v.Ctime)} {
				mem.WriteUint64Le(vp+uint32(8*i), x)
			}
		}
		if size > int64(n) {
			mem.WriteUint32Le(uint32(stack[6]), uint32(min(size, 1<<32-1)))
			return abi.BufferTooSmall
		}
		mem.WriteUint32Le(uint32(stack[6]), uint32(n))
		return abi.OK
	})
	// prefetch_within: a hint this host does not take (ABI.md#prefetch_within).
	add(abi.ImportPrefetchWithin, 3, func(api.Memory, string, []uint64) abi.Errno { return abi.OK })
	// sha256 declined: the module hashes itself (ABI.md#sha256).
	add(abi.ImportSHA256, 3, func(api.Memory, string, []uint64) abi.Errno { return abi.EIO })
	// file_version over a core.Versioner (memfs is one), ENOSYS over any
	// other FS: the engine then reads files again (ABI.md#file_version).
	add(abi.ImportFileVersion, 3, func(mem api.Memory, p string, stack []uint64) abi.Errno {
		vr, ok := h.fsys.(core.Versioner)
		if !ok {
			return abi.ENOSYS
		}
		v, err := vr.FileVersion(p)
		if err != nil {
			return errno(err)
		}
		var out []byte
		for _, w := range []uint64{v.Dev, v.Ino, uint64(v.Size), uint64(v.Mtime), uint64(v.Ctime)} {
			out = binary.LittleEndian.AppendUint64(out, w)
		}
		mem.Write(uint32(stack[2]), out)
		return abi.OK
	})
	add(abi.ImportRealpath, 5, func(mem api.Memory, p string, stack []uint64) abi.Errno {
		r, err := h.fsys.Realpath(p)
		if err != nil {
			return errno(err)
		}
		return put(mem, []byte(r), stack)
	})
	// The complete frontmatter path natively, in place of the frontmatter
	// module: the same result bytes (ABI.md#frontmatter-results).
	add(abi.ImportParseFrontmatter, 7, func(mem api.Memory, p string, stack []uint64) abi.Errno {
		text, _ := mem.Read(uint32(stack[2]), uint32(stack[3]))
		return put(mem, frontmatter.AppendParse(nil, p, string(text)), stack[2:])
	})
	if _, err := b.Instantiate(ctx); err != nil {
		t.Fatal(err)
	}
	compiled, err := rt.CompileModule(ctx, wasmBytes)
	if err != nil {
		t.Fatal(err)
	}
	h.mod, err = rt.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().
		WithStartFunctions(abi.ExportInitialize).WithSysNanosleep().WithSysNanotime().WithSysWalltime())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// call runs one request the ABI way; a trap fails the test.
func (h *rawHost) call(t *testing.T, request string) []byte {
	t.Helper()
	ctx := context.Background()
	r, err := h.mod.ExportedFunction(abi.ExportAlloc).Call(ctx, uint64(len(request)))
	if err != nil {
		t.Fatal(err)
	}
	h.mod.Memory().Write(uint32(r[0]), []byte(request))
	r, err = h.mod.ExportedFunction(abi.ExportCall).Call(ctx, r[0], uint64(len(request)))
	if err != nil {
		t.Fatalf("skilldex_call trapped: %v", err)
	}
	reply, ok := h.mod.Memory().Read(uint32(r[0]>>32), uint32(r[0]))
	if !ok {
		t.Fatal("reply outside memory")
	}
	return append([]byte(nil), reply...)
}

// The guest's checks of the host (fsadapter/hostfs): a result that breaks
// the ABI is an INTERNAL error reply, not a trap, and the instance answers
// the next request correctly. An errno outside the table reads as EIO.
func TestGuest_hostBreaksABI(t *testing.T) {
	tree := hosttest.Tree(t)
	h := newRawHost(t, tree)
	native := wire.Call(tree, []byte(hosttest.Request))
	if got := h.call(t, hosttest.Request); !bytes.Equal(got, native) {
		t.Fatalf("the raw host disagrees with native\nwasm:   %s\nnative: %s", got, native)
	}
	setOutLen := func(v func(stack []uint64) uint32, errno abi.Errno) func(context.Context, api.Module, []uint64) {
		return func(_ context.Context, mod api.Module, stack []uint64) {
			mod.Memory().WriteUint32Le(uint32(stack[4]), v(stack))
			stack[0] = uint64(errno)
		}
	}
	bufCap := func(stack []uint64) uint32 { return uint32(stack[3]) }
	fresh := 0
	for _, tc := range []struct {
		name, imp string
		fn        func(context.Context, api.Module, []uint64)
	}{
		{"read_dir out_len > buf_cap", abi.ImportReadDir, setOutLen(func(s []uint64) uint32 { return bufCap(s) + 1 }, abi.OK)},
		{"read_dir truncated entry", abi.ImportReadDir, func(_ context.Context, mod api.Module, stack []uint64) {
			mod.Memory().Write(uint32(stack[2]), []byte{1, 9, 0, 0, 0, 'a'})
			mod.Memory().WriteUint32Le(uint32(stack[4]), 6)
			stack[0] = uint64(abi.OK)
		}},
		{"read_dir BufferTooSmall not larger", abi.ImportReadDir, setOutLen(bufCap, abi.BufferTooSmall)},
		{"realpath out_len > buf_cap", abi.ImportRealpath, setOutLen(func(s []uint64) uint32 { return bufCap(s) + 1 }, abi.OK)},
		// Discovery reads SKILL.md through read_file_within (S44): buf_cap is
		// its sixth parameter, out_len its seventh.
		{"read_file_within BufferTooSmall not larger", abi.ImportReadFileWithin, func(_ context.Context, mod api.Module, stack []uint64) {
			mod.Memory().WriteUint32Le(uint32(stack[6]), uint32(stack[5]))
			stack[0] = uint64(abi.BufferTooSmall)
		}},
		{"stat BufferTooSmall", abi.ImportStat, func(_ context.Context, _ api.Module, stack []uint64) { stack[0] = uint64(abi.BufferTooSmall) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h.broken[tc.imp] = tc.fn
			// A request the module has not answered yet: the same one
			// would be answered from its last reply, the files unchanged
			// (wire.Session), without the import this case breaks.
			fresh++
			got := h.call(t, hosttest.Request+strings.Repeat(" ", fresh))
			delete(h.broken, tc.imp)
			if !bytes.HasPrefix(got, []byte(`{"error":{"code":"INTERNAL"`)) || !strings.Contains(string(got), "broke the ABI") {
				t.Fatalf("reply = %s, want an INTERNAL error naming the ABI violation", got)
			}
			if got := h.call(t, hosttest.Request); !bytes.Equal(got, native) {
				t.Fatalf("next call\nwasm:   %s\nnative: %s", got, native)
			}
		})
	}

	// An errno the table does not know is EIO (wasm/ABI.md#errno).
	t.Run("unknown errno", func(t *testing.T) {
		root := "/home/u/.claude/skills"
		h.broken[abi.ImportReadDir] = func(ctx context.Context, mod api.Module, stack []uint64) {
			if p, _ := mod.Memory().Read(uint32(stack[0]), uint32(stack[1])); string(p) == root {
				stack[0] = 77
				return
			}
			h.good[abi.ImportReadDir](ctx, mod, stack)
		}
		got := h.call(t, hosttest.Request)
		delete(h.broken, abi.ImportReadDir)
		faulty := corpus.WithFaults(tree, []corpus.Fault{{Op: "readDir", Path: root, Code: "EIO"}})
		if want := wire.Call(faulty, []byte(hosttest.Request)); !bytes.Equal(got, want) {
			t.Fatalf("errno 77\nwasm:   %s\nnative with EIO: %s", got, want)
		}
	})

	// An import that calls skilldex_call again gets an INTERNAL reply for
	// the inner call; the outer call completes (wasm/ABI.md: re-entry).
	t.Run("re-entry", func(t *testing.T) {
		h.broken[abi.ImportLstat] = func(ctx context.Context, mod api.Module, stack []uint64) {
			delete(h.broken, abi.ImportLstat)
			saved := append([]uint64(nil), stack...)
			r, err := mod.ExportedFunction(abi.ExportCall).Call(ctx, 0, 0)
			if err != nil {
				panic(err)
			}
			inner, _ := mod.Memory().Read(uint32(r[0]>>32), uint32(r[0]))
			h.inner = append([]byte(nil), inner...)
			copy(stack, saved)
			h.good[abi.ImportLstat](ctx, mod, stack)
		}
		got := h.call(t, hosttest.Request)
		if !bytes.HasPrefix(h.inner, []byte(`{"error":{"code":"INTERNAL"`)) {
			t.Errorf("inner reply = %s, want INTERNAL", h.inner)
		}
		if !bytes.Equal(got, native) {
			t.Errorf("outer call\nwasm:   %s\nnative: %s", got, native)
		}
	})
}
