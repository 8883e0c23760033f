package wasmhost

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/wasm/abi"
)

// The host imports of module abi.HostModule (wasm/ABI.md#imports), over the
// core.FS of the engine whose call is running. Each call arrives with the
// *instance in its context (ctxKey).
//
// Expected conditions are errnos: the FS's error code through
// core.POSIXCode and abi.ErrnoOf, exactly the code the native core would
// see (a code outside the ABI table is EIO). The functions trap (panic,
// which wazero turns into a trap of the running call) only when the guest
// breaks the ABI (a pointer or length outside its memory) and when the
// call's context is done.

var (
	i32x3 = []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}
	i32x5 = []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}
	i32x1 = []api.ValueType{api.ValueTypeI32}
)

func hostModule(rt wazero.Runtime) wazero.HostModuleBuilder {
	b := rt.NewHostModuleBuilder(abi.HostModule)
	export5 := func(name string, fn func(*instance, api.Memory, string, uint32, uint32, uint32) abi.Errno) {
		b.NewFunctionBuilder().
			WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
				inst, _ := ctx.Value(ctxKey{}).(*instance)
				checkDone(ctx, name)
				mem := mod.Memory()
				path := readPath(mem, name, stack)
				e := abi.EIO // an import called outside skilldex_call has no FS
				if inst != nil {
					e = fn(inst, mem, path, uint32(stack[2]), uint32(stack[3]), uint32(stack[4]))
					inst.traceCall(name, path, e)
				}
				stack[0] = uint64(e)
			}), i32x5, i32x1).
			WithParameterNames("path_ptr", "path_len", "buf_ptr", "buf_cap", "out_len_ptr").
			Export(name)
	}
	export3 := func(name string, fn func(*instance, string) (core.FileType, error)) {
		b.NewFunctionBuilder().
			WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
				inst, _ := ctx.Value(ctxKey{}).(*instance)
				checkDone(ctx, name)
				mem := mod.Memory()
				path := readPath(mem, name, stack)
				e := abi.EIO
				if inst != nil {
					t, err := fn(inst, path)
					e = errnoOf(err)
					if e == abi.OK {
						writeU32(mem, name, uint32(stack[2]), uint32(t))
					}
					inst.traceCall(name, path, e)
				}
				stack[0] = uint64(e)
			}), i32x3, i32x1).
			WithParameterNames("path_ptr", "path_len", "out_type_ptr").
			Export(name)
	}
	export5(abi.ImportReadDir, (*instance).readDir)
	export3(abi.ImportStat, func(inst *instance, p string) (core.FileType, error) { return inst.e.fsys.Stat(p) })
	export3(abi.ImportLstat, func(inst *instance, p string) (core.FileType, error) { return inst.e.fsys.Lstat(p) })
	export5(abi.ImportReadFile, (*instance).readFile)
	export5(abi.ImportRealpath, (*instance).realpath)
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			const name = abi.ImportReadFileWithin
			inst, _ := ctx.Value(ctxKey{}).(*instance)
			checkDone(ctx, name)
			mem := mod.Memory()
			within := readPath(mem, name, stack)
			path := readPath(mem, name, stack[2:])
			var version []byte // the version asked for, which must lie in memory
			if p := uint32(stack[7]); p != 0 {
				version = buffer(mem, name, p, abi.FileVersionSize)
			}
			e := abi.EIO
			if inst != nil {
				e = inst.readFileWithin(mem, within, path, uint32(stack[4]), uint32(stack[5]), uint32(stack[6]), version)
				inst.traceCall(name, path, e)
			}
			stack[0] = uint64(e)
		}), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, i32x1).
		WithParameterNames("within_ptr", "within_len", "path_ptr", "path_len", "buf_ptr", "buf_cap", "out_len_ptr", "version_ptr").
		Export(abi.ImportReadFileWithin)
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			const name = abi.ImportSHA256
			checkDone(ctx, name)
			mem := mod.Memory()
			data := buffer(mem, name, uint32(stack[0]), uint32(stack[1]))
			out := buffer(mem, name, uint32(stack[2]), sha256.Size)
			sum := sha256.Sum256(data)
			copy(out, sum[:])
			stack[0] = uint64(abi.OK)
		}), i32x3, i32x1).
		WithParameterNames("data_ptr", "data_len", "out_ptr").
		Export(abi.ImportSHA256)
	// prefetch_within (ABI.md#prefetch_within): this host reads on the
	// calling goroutine when asked, so it takes no hint; the list must
	// still lie in memory.
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			const name = abi.ImportPrefetchWithin
			checkDone(ctx, name)
			buffer(mod.Memory(), name, uint32(stack[0]), uint32(stack[1]))
			stack[0] = uint64(abi.OK)
		}), i32x3, i32x1).
		WithParameterNames("list_ptr", "list_len", "buf_cap").
		Export(abi.ImportPrefetchWithin)
	// file_version (ABI.md#file_version): the 40 bytes at out_ptr must lie
	// in memory whatever the answer: a guest that breaks the ABI traps
	// before the FS is asked, over an FS with no versions too.
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			const name = abi.ImportFileVersion
			inst, _ := ctx.Value(ctxKey{}).(*instance)
			checkDone(ctx, name)
			mem := mod.Memory()
			path := readPath(mem, name, stack)
			out := buffer(mem, name, uint32(stack[2]), abi.FileVersionSize)
			e := abi.EIO
			if inst != nil {
				e = inst.fileVersion(path, out)
				inst.traceCall(name, path, e)
			}
			stack[0] = uint64(e)
		}), i32x3, i32x1).
		WithParameterNames("path_ptr", "path_len", "out_ptr").
		Export(abi.ImportFileVersion)
	b.NewFunctionBuilder().
		WithGoModuleFunction(api.GoModuleFunc(func(ctx context.Context, mod api.Module, stack []uint64) {
			inst, _ := ctx.Value(ctxKey{}).(*instance)
			checkDone(ctx, abi.ImportParseFrontmatter)
			e := abi.EIO
			if inst != nil {
				e = inst.parseFrontmatterImport(ctx, mod.Memory(), stack)
			}
			stack[0] = uint64(e)
		}), []api.ValueType{api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32, api.ValueTypeI32}, i32x1).
		WithParameterNames("path_ptr", "path_len", "text_ptr", "text_len", "buf_ptr", "buf_cap", "out_len_ptr").
		Export(abi.ImportParseFrontmatter)
	return b
}

// checkDone traps the running call when its context is done, so that a
// cancelled call stops at its next filesystem access even before wazero's
// own watcher closes the module.
func checkDone(ctx context.Context, name string) {
	if err := ctx.Err(); err != nil {
		panic(fmt.Errorf("wasmhost: %s: call interrupted: %w", name, err))
	}
}

// violation traps the running call: the guest broke the ABI.
func violation(name, format string, args ...any) {
	panic(fmt.Errorf("wasmhost: %s: the module broke the ABI: %s", name, fmt.Sprintf(format, args...)))
}

func readPath(mem api.Memory, name string, stack []uint64) string {
	ptr, n := uint32(stack[0]), uint32(stack[1])
	b, ok := mem.Read(ptr, n)
	if !ok {
		violation(name, "path [%#x, +%d) is outside memory", ptr, n)
	}
	return string(b)
}

// buffer returns the guest's output buffer [ptr, ptr+n).
func buffer(mem api.Memory, name string, ptr, n uint32) []byte {
	b, ok := mem.Read(ptr, n)
	if !ok {
		violation(name, "buffer [%#x, +%d) is outside memory", ptr, n)
	}
	return b
}

func writeU32(mem api.Memory, name string, ptr, v uint32) {
	if !mem.WriteUint32Le(ptr, v) {
		violation(name, "out pointer %#x is outside memory", ptr)
	}
}

// clampLen is a length as a u32 (results over 4 GiB cannot be
// represented; the guest fails them with EFBIG anyway).
func clampLen(n int) uint32 {
	if n > math.MaxUint32 {
		return math.MaxUint32
	}
	return uint32(n)
}

func errnoOf(err error) abi.Errno {
	if err == nil {
		return abi.OK
	}
	return abi.ErrnoOf(core.POSIXCode(err))
}

// takePending returns the result kept by the last BufferTooSmall of op on
// path, if this is its retry.
func (inst *instance) takePending(op, path string) ([]byte, bool) {
	if inst.pendingOp != op || inst.pendingPath != path {
		return nil, false
	}
	b := inst.pending
	inst.pendingOp, inst.pendingPath, inst.pending = "", "", nil
	return b, true
}

// tooSmall keeps result for the guest's retry and reports the size needed.
func (inst *instance) tooSmall(mem api.Memory, op, path string, result []byte, outLen uint32) abi.Errno {
	inst.pendingOp, inst.pendingPath, inst.pending = op, path, result
	writeU32(mem, op, outLen, clampLen(len(result)))
	return abi.BufferTooSmall
}

// put writes a whole result into the guest's buffer, or reports the size
// needed (ABI.md#read_dir, #realpath).
func (inst *instance) put(mem api.Memory, op, path string, result []byte, buf, bufCap, outLen uint32) abi.Errno {
	if uint64(len(result)) > uint64(bufCap) {
		return inst.tooSmall(mem, op, path, result, outLen)
	}
	copy(buffer(mem, op, buf, bufCap), result)
	writeU32(mem, op, outLen, uint32(len(result)))
	return abi.OK
}

// readDir is read_dir (ABI.md#read_dir): the entries packed as
// u8 type | u32le name length | name.
func (inst *instance) readDir(mem api.Memory, path string, buf, bufCap, outLen uint32) abi.Errno {
	listing, ok := inst.takePending(abi.ImportReadDir, path)
	if !ok {
		entries, err := inst.e.fsys.ReadDir(path)
		if err != nil {
			return errnoOf(err)
		}
		n := 0
		for _, d := range entries {
			n += abi.DirEntryHeader + len(d.Name)
		}
		listing = make([]byte, 0, n)
		for _, d := range entries {
			t := byte(d.Type)
			if uint32(t) > abi.TypeSymlink {
				t = byte(abi.TypeOther)
			}
			listing = append(listing, t)
			listing = binary.LittleEndian.AppendUint32(listing, clampLen(len(d.Name)))
			listing = append(listing, d.Name...)
		}
	}
	return inst.put(mem, abi.ImportReadDir, path, listing, buf, bufCap, outLen)
}

// realpath is realpath (ABI.md#realpath).
func (inst *instance) realpath(mem api.Memory, path string, buf, bufCap, outLen uint32) abi.Errno {
	real, ok := inst.takePending(abi.ImportRealpath, path)
	if !ok {
		s, err := inst.e.fsys.Realpath(path)
		if err != nil {
			return errnoOf(err)
		}
		real = []byte(s)
	}
	return inst.put(mem, abi.ImportRealpath, path, real, buf, bufCap, outLen)
}

// readFile is read_file (ABI.md#read_file): the first buf_cap bytes of
// the file, and BufferTooSmall when there are more. Over a
// [core.PrefixReader] it reads no more than buf_cap bytes, so discovery's
// prefix reads stay cheap; as the size of the rest is then unknown,
// *out_len is buf_cap+1 and the guest grows its buffer geometrically.
// Over a plain [core.FS] it reads the whole file and keeps it for the
// guest's retry.
func (inst *instance) readFile(mem api.Memory, path string, buf, bufCap, outLen uint32) abi.Errno {
	const op = abi.ImportReadFile
	if data, ok := inst.takePending(op, path); ok {
		return inst.putPrefix(mem, path, data, buf, bufCap, outLen)
	}
	if pr, ok := inst.e.fsys.(core.PrefixReader); ok {
		data, complete, err := pr.ReadFilePrefix(path, int(bufCap))
		if err != nil {
			return errnoOf(err)
		}
		if len(data) > int(bufCap) {
			data = data[:bufCap] // an FS that broke its contract; keep ours
			complete = false
		}
		copy(buffer(mem, op, buf, bufCap), data)
		if complete {
			writeU32(mem, op, outLen, uint32(len(data)))
			return abi.OK
		}
		writeU32(mem, op, outLen, clampLen(int(bufCap)+1))
		return abi.BufferTooSmall
	}
	data, err := inst.e.fsys.ReadFile(path)
	if err != nil {
		return errnoOf(err)
	}
	return inst.putPrefix(mem, path, data, buf, bufCap, outLen)
}

// readFileWithin is read_file_within (ABI.md#read_file_within): over a
// [core.ContainedReader] (osfs) the file opened is checked against within;
// over any other FS (memfs, a test's wrapper) its realpath is
// ([core.ReadFileWithin]): since ABI 3 the guest relies on the check. When
// version is not nil, the version of the file read goes there
// ([core.ReadFileWithinVersion]; zeros when the FS cannot tell).
func (inst *instance) readFileWithin(mem api.Memory, within, path string, buf, bufCap, outLen uint32, version []byte) abi.Errno {
	const op = abi.ImportReadFileWithin
	var n int
	var size int64
	var err error
	if version != nil {
		var v core.FileVersion
		n, size, v, err = core.ReadFileWithinVersion(inst.e.fsys, within, path, buffer(mem, op, buf, bufCap))
		putFileVersion(version, v)
	} else {
		n, size, err = core.ReadFileWithin(inst.e.fsys, within, path, buffer(mem, op, buf, bufCap))
	}
	if err != nil {
		return errnoOf(err)
	}
	if n < 0 || n > int(bufCap) {
		return abi.EIO // an FS that broke its contract
	}
	if size > int64(n) {
		writeU32(mem, op, outLen, clampLen(int(size)))
		return abi.BufferTooSmall
	}
	writeU32(mem, op, outLen, uint32(n))
	return abi.OK
}

// fileVersion is file_version (ABI.md#file_version): over a
// [core.Versioner] the version of the regular file path names, written to
// out (abi.FileVersionSize bytes) as dev, ino, size, mtime, ctime, each
// little-endian; the Versioner's error as an errno otherwise (ENOSYS when
// it cannot tell). Over any other FS (a wrapper that hides the method)
// ENOSYS: the engine then reads files again rather than trust a version.
// out is written only on OK.
func (inst *instance) fileVersion(path string, out []byte) abi.Errno {
	vr, ok := inst.e.fsys.(core.Versioner)
	if !ok {
		return abi.ENOSYS
	}
	v, err := vr.FileVersion(path)
	if err != nil {
		return errnoOf(err)
	}
	putFileVersion(out, v)
	return abi.OK
}

// putFileVersion packs v as file_version's result (ABI.md#file_version).
func putFileVersion(out []byte, v core.FileVersion) {
	_ = out[abi.FileVersionSize-1]
	binary.LittleEndian.PutUint64(out[0:], v.Dev)
	binary.LittleEndian.PutUint64(out[8:], v.Ino)
	binary.LittleEndian.PutUint64(out[16:], uint64(v.Size))
	binary.LittleEndian.PutUint64(out[24:], uint64(v.Mtime))
	binary.LittleEndian.PutUint64(out[32:], uint64(v.Ctime))
}

// putPrefix writes the first bufCap bytes of a file read whole.
func (inst *instance) putPrefix(mem api.Memory, path string, data []byte, buf, bufCap, outLen uint32) abi.Errno {
	const op = abi.ImportReadFile
	copy(buffer(mem, op, buf, bufCap), data)
	if uint64(len(data)) > uint64(bufCap) {
		return inst.tooSmall(mem, op, path, data, outLen)
	}
	writeU32(mem, op, outLen, uint32(len(data)))
	return abi.OK
}

// traceCall logs one import call when tracing.
func (inst *instance) traceCall(name, path string, e abi.Errno) {
	w := inst.e.m.cfg.trace
	if w == nil {
		return
	}
	res := "OK"
	switch e {
	case abi.OK:
	case abi.BufferTooSmall:
		res = "BufferTooSmall"
	default:
		res = abi.CodeOf(e)
	}
	fmt.Fprintf(w, "skilldex host: %s %q -> %s\n", name, path, res)
}
