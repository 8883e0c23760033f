// Package wasmtimetest runs the skilldex module under Wasmtime, a third wasm
// runtime next to wazero (runtime-test) and the JS engines, and checks that
// it answers exactly as the native engine (SPEC S42). It is its own Go
// module, so that cgo (wasmtime-go links Wasmtime's C library, shipped
// inside the Go module) reaches no user of github.com/skilldex/skilldex.
//
// host.go is a complete host written from wasm/ABI.md: Wasmtime's own WASI
// (nothing inherited, no preopens, stderr to a file the host reads after a
// trap) and the skilldex_host imports over a core.FS. The rules it
// follows, each from ABI.md:
//   - every i32 argument is read as unsigned (uint32(v.I32())), the i64
//     reply as a uint64;
//   - a range outside the guest's memory traps the call, touching nothing;
//   - _initialize runs once, called by the host after Linker.Instantiate
//     (Linker.DefineModule would call it itself, and a second call traps);
//   - a trap discards the instance: the next call makes a fresh one from
//     the compiled module;
//   - the frontmatter module (ABI 2 and later) is compiled the first time any engine
//     needs it and instantiated, in a store of its own, the first time each
//     engine instance calls parse_frontmatter; if it fails or traps, that
//     call answers EIO and its instance is discarded.
//
// The module is compiled once per run: Compile serialises the compiled
// code to a cache folder keyed by the module's sha256, and later runs
// deserialise it.
package wasmtimetest

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/bytecodealliance/wasmtime-go/v39"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/wasm/abi"
)

// Module is the skilldex module compiled for one Wasmtime engine, with
// the frontmatter module's bytes, compiled on first need.
type Module struct {
	engine   *wasmtime.Engine
	module   *wasmtime.Module
	cacheDir string
	// Cached tells whether the compiled code came from the cache folder.
	Cached bool

	fmBytes  []byte
	fmOnce   sync.Once
	fmModule *wasmtime.Module
	fmErr    error
	// FrontmatterCompiles counts compilations of the frontmatter module.
	FrontmatterCompiles int
}

// Compile compiles wasm, or loads its compiled form from cacheDir (the
// file <sha256>.cwasm, written after a compilation). An empty cacheDir
// compiles without caching. The module's imports are checked
// (ABI.md#loading, step 2). frontmatter is skilldex-frontmatter.wasm, or
// nil (then parse_frontmatter answers EIO).
func Compile(wasm, frontmatter []byte, cacheDir string) (*Module, error) {
	engine := wasmtime.NewEngine()
	mod, cached, err := compileCached(engine, wasm, cacheDir)
	if err != nil {
		return nil, err
	}
	m := &Module{engine: engine, module: mod, cacheDir: cacheDir, Cached: cached, fmBytes: frontmatter}
	if err := m.checkImports(); err != nil {
		return nil, err
	}
	return m, nil
}

// compileCached compiles wasm, through the serialised copy in cacheDir.
func compileCached(engine *wasmtime.Engine, wasm []byte, cacheDir string) (*wasmtime.Module, bool, error) {
	sum := sha256.Sum256(wasm)
	file := ""
	if cacheDir != "" {
		file = filepath.Join(cacheDir, hex.EncodeToString(sum[:])+"-"+wasmtimeVersion+".cwasm")
		if mod, err := wasmtime.NewModuleDeserializeFile(engine, file); err == nil {
			return mod, true, nil
		}
	}
	mod, err := wasmtime.NewModule(engine, wasm)
	if err != nil {
		return nil, false, fmt.Errorf("wasmtime: compiling the module: %w", err)
	}
	if file != "" {
		if b, err := mod.Serialize(); err == nil && os.MkdirAll(cacheDir, 0o755) == nil {
			// Write then rename, so a concurrent run never reads half a file.
			tmp := file + ".tmp" + fmt.Sprint(os.Getpid())
			if os.WriteFile(tmp, b, 0o644) == nil {
				os.Rename(tmp, file)
			}
		}
	}
	return mod, false, nil
}

// frontmatterModule compiles the frontmatter module once per Module and
// checks that it imports WASI only.
func (m *Module) frontmatterModule() (*wasmtime.Module, error) {
	m.fmOnce.Do(func() {
		if m.fmBytes == nil {
			m.fmErr = errors.New("no frontmatter module")
			return
		}
		m.FrontmatterCompiles++
		mod, _, err := compileCached(m.engine, m.fmBytes, m.cacheDir)
		if err != nil {
			m.fmErr = err
			return
		}
		for _, imp := range mod.Imports() {
			if imp.Module() != abi.WASIModule {
				m.fmErr = fmt.Errorf("bad binary: the frontmatter module imports %s.%s", imp.Module(), *imp.Name())
				return
			}
		}
		m.fmModule = mod
	})
	return m.fmModule, m.fmErr
}

// FrontmatterSignatures lists the frontmatter module as Wasmtime sees it.
func (m *Module) FrontmatterSignatures() ([]string, error) {
	mod, err := m.frontmatterModule()
	if err != nil {
		return nil, err
	}
	return signatures(mod), nil
}

// wasmtimeVersion keys the cache: compiled code is only valid for the
// Wasmtime that made it (a mismatch fails to deserialise anyway).
const wasmtimeVersion = "v39.0.1"

// checkImports refuses a module built for another ABI.
func (m *Module) checkImports() error {
	for _, imp := range m.module.Imports() {
		if imp.Module() != abi.HostModule && imp.Module() != abi.WASIModule {
			return fmt.Errorf("wasmtime: bad binary: the module imports %s.%s; this host speaks %s", imp.Module(), *imp.Name(), abi.HostModule)
		}
	}
	return nil
}

// Signatures lists the module as Wasmtime sees it, in the form of
// wasm/testdata/abi.golden ("import <module> <name> func(...) -> (...)").
func (m *Module) Signatures() []string { return signatures(m.module) }

func signatures(mod *wasmtime.Module) []string {
	var lines []string
	for _, imp := range mod.Imports() {
		lines = append(lines, "import "+imp.Module()+" "+*imp.Name()+" "+externSig(imp.Type()))
	}
	for _, exp := range mod.Exports() {
		lines = append(lines, "export "+exp.Name()+" "+externSig(exp.Type()))
	}
	return lines
}

func externSig(t *wasmtime.ExternType) string {
	if t.MemoryType() != nil {
		return "memory"
	}
	ft := t.FuncType()
	if ft == nil {
		return "other"
	}
	list := func(vs []*wasmtime.ValType) string {
		s := make([]string, len(vs))
		for i, v := range vs {
			s[i] = v.String()
		}
		return strings.Join(s, ", ")
	}
	return "func(" + list(ft.Params()) + ") -> (" + list(ft.Results()) + ")"
}

// Engine is one instance of the module over one core.FS, recreated after a
// trap. It is not safe for concurrent use.
type Engine struct {
	mod         *Module
	fsys        core.FS
	memoryLimit int64
	stderrDir   string

	store  *wasmtime.Store
	memory *wasmtime.Memory
	alloc  *wasmtime.Func
	call   *wasmtime.Func
	stderr string // this instance's fd 2

	traps     int
	instances int
	fault     error // the ABI violation that trapped the running call

	fm          *frontmatterInstance // this instance's frontmatter module, once needed
	fmInstances int
	fmFailures  []string // why parse_frontmatter answered EIO
}

// frontmatterInstance is an instance of the frontmatter module, in a store
// of its own.
type frontmatterInstance struct {
	store        *wasmtime.Store
	memory       *wasmtime.Memory
	alloc, parse *wasmtime.Func
}

// Instantiate makes an engine over fsys. memoryLimit caps the linear memory
// in bytes (0: the wasm32 limit, 4 GiB); stderrDir holds the file that
// receives the module's fd 2.
func (m *Module) Instantiate(fsys core.FS, memoryLimit int64, stderrDir string) (*Engine, error) {
	e := &Engine{mod: m, fsys: fsys, memoryLimit: memoryLimit, stderrDir: stderrDir}
	if err := e.instantiate(); err != nil {
		return nil, err
	}
	return e, nil
}

// Traps counts the calls that trapped; Instances the instances made;
// FrontmatterInstances the frontmatter module's instances made;
// FrontmatterFailures why parse_frontmatter answered EIO.
func (e *Engine) Traps() int                    { return e.traps }
func (e *Engine) Instances() int                { return e.instances }
func (e *Engine) FrontmatterInstances() int     { return e.fmInstances }
func (e *Engine) FrontmatterFailures() []string { return e.fmFailures }

// MemorySize is the current instance's linear memory in bytes.
func (e *Engine) MemorySize() int {
	if e.store == nil {
		return 0
	}
	return int(e.memory.DataSize(e.store))
}

func (e *Engine) instantiate() error {
	e.fm = nil // a frontmatter instance lives and dies with the engine's
	store := wasmtime.NewStore(e.mod.engine)
	if e.memoryLimit > 0 {
		store.Limiter(e.memoryLimit, -1, -1, -1, -1)
	}
	wasi := wasmtime.NewWasiConfig()
	e.stderr = filepath.Join(e.stderrDir, fmt.Sprintf("stderr-%p-%d", e, e.instances))
	if err := wasi.SetStderrFile(e.stderr); err != nil {
		return err
	}
	store.SetWasi(wasi)
	linker := wasmtime.NewLinker(e.mod.engine)
	if err := linker.DefineWasi(); err != nil {
		return err
	}
	if err := e.defineHost(linker); err != nil {
		return err
	}
	inst, err := linker.Instantiate(store, e.mod.module)
	if err != nil {
		return fmt.Errorf("wasmtime: bad binary: %w", err)
	}
	mem := inst.GetExport(store, abi.ExportMemory)
	initialize := inst.GetFunc(store, abi.ExportInitialize)
	version := inst.GetFunc(store, abi.ExportVersion)
	e.alloc = inst.GetFunc(store, abi.ExportAlloc)
	e.call = inst.GetFunc(store, abi.ExportCall)
	if mem == nil || mem.Memory() == nil || initialize == nil || version == nil || e.alloc == nil || e.call == nil {
		return errors.New("wasmtime: bad binary: an export of wasm/ABI.md is missing")
	}
	e.store, e.memory = store, mem.Memory()
	e.instances++
	if _, err := initialize.Call(store); err != nil {
		e.store = nil
		return fmt.Errorf("wasmtime: bad binary: _initialize trapped: %w%s", err, e.stderrTail())
	}
	v, err := version.Call(store)
	if err != nil {
		e.store = nil
		return fmt.Errorf("wasmtime: bad binary: skilldex_abi_version trapped: %w", err)
	}
	if v.(int32) != abi.Version {
		e.store = nil
		return fmt.Errorf("wasmtime: bad binary: the module speaks skilldex ABI %d, this host %d", v, abi.Version)
	}
	return nil
}

// Call runs one JSON request and returns the reply (a copy). A trap fails
// the call with a core.Error INTERNAL and discards the instance.
func (e *Engine) Call(request []byte) ([]byte, error) {
	if e.store == nil {
		if err := e.instantiate(); err != nil {
			return nil, err
		}
	}
	e.fault = nil
	reply, err := e.callNow(request)
	if err != nil {
		e.traps++
		msg := "the engine crashed during the call: " + err.Error()
		if e.fault != nil {
			msg = "the engine crashed during the call: " + e.fault.Error()
		}
		msg += e.stderrTail()
		e.store = nil
		return nil, &core.Error{Code: core.CodeInternal, Message: msg}
	}
	return reply, nil
}

func (e *Engine) callNow(request []byte) ([]byte, error) {
	p, err := e.alloc.Call(e.store, int32(len(request)))
	if err != nil {
		return nil, err
	}
	ptr := uint32(p.(int32)) // unsigned (ABI.md, reading the integers as unsigned)
	if ptr == 0 {
		return nil, fmt.Errorf("bad request: %d bytes is over the module's request limit", len(request))
	}
	mem := e.memory.UnsafeData(e.store)
	if uint64(ptr)+uint64(len(request)) > uint64(len(mem)) {
		return nil, fmt.Errorf("the module broke the ABI: request buffer [%#x, +%d) is outside memory", ptr, len(request))
	}
	copy(mem[ptr:], request)
	r, err := e.call.Call(e.store, int32(ptr), int32(len(request)))
	if err != nil {
		return nil, err
	}
	packed := uint64(r.(int64))
	rp, rn := packed>>32, packed&math.MaxUint32
	mem = e.memory.UnsafeData(e.store) // memory may have grown
	if rp+rn > uint64(len(mem)) {
		return nil, fmt.Errorf("the module broke the ABI: reply [%#x, +%d) is outside memory", rp, rn)
	}
	return append([]byte(nil), mem[rp:rp+rn]...), nil
}

// stderrTail is the instance's fd 2, for the message of a trap.
func (e *Engine) stderrTail() string {
	b, _ := os.ReadFile(e.stderr)
	if len(b) > 2048 {
		b = b[:2048]
	}
	if s := strings.TrimSpace(string(b)); s != "" {
		return "\n" + s
	}
	return ""
}

// guestFault is an ABI violation by the guest (ABI.md#imports): the import
// traps.
func (e *Engine) guestFault(name, what string, p, n uint64, size int) *wasmtime.Trap {
	e.fault = fmt.Errorf("the module broke the ABI: %s: %s [%#x, +%d) is outside memory (%d bytes)", name, what, p, n, size)
	return wasmtime.NewTrap(e.fault.Error())
}

// defineHost defines the imports of abi.HostModule on linker: the five
// filesystem operations, read_file_within, sha256, prefetch_within,
// file_version and parse_frontmatter.
func (e *Engine) defineHost(linker *wasmtime.Linker) error {
	i32 := func(n int) []*wasmtime.ValType {
		v := make([]*wasmtime.ValType, n)
		for i := range v {
			v[i] = wasmtime.NewValType(wasmtime.KindI32)
		}
		return v
	}
	stat := func(name string, op func(string) (core.FileType, error)) error {
		return linker.FuncNew(abi.HostModule, name, wasmtime.NewFuncType(i32(3), i32(1)),
			func(c *wasmtime.Caller, args []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
				mem := c.GetExport(abi.ExportMemory).Memory().UnsafeData(c)
				p, n, out := uint32(args[0].I32()), uint32(args[1].I32()), uint32(args[2].I32())
				if trap := e.check(name, mem, p, n, 0, 0, out); trap != nil {
					return nil, trap
				}
				t, errno, trap := e.fsCall(func() (core.FileType, error) { return op(string(mem[p : p+n])) })
				if trap != nil {
					return nil, trap
				}
				if errno == abi.OK {
					binary.LittleEndian.PutUint32(mem[out:], uint32(t))
				}
				return []wasmtime.Val{wasmtime.ValI32(int32(errno))}, nil
			})
	}
	five := func(name string, op func(path string, buf []byte) (size int, errno abi.Errno)) error {
		return linker.FuncNew(abi.HostModule, name, wasmtime.NewFuncType(i32(5), i32(1)),
			func(c *wasmtime.Caller, args []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
				mem := c.GetExport(abi.ExportMemory).Memory().UnsafeData(c)
				p, n := uint32(args[0].I32()), uint32(args[1].I32())
				buf, bufCap, outLen := uint32(args[2].I32()), uint32(args[3].I32()), uint32(args[4].I32())
				if trap := e.check(name, mem, p, n, buf, bufCap, outLen); trap != nil {
					return nil, trap
				}
				var size int
				var errno abi.Errno
				_, _, trap := e.fsCall(func() (core.FileType, error) {
					size, errno = op(string(mem[p:p+n]), mem[buf:buf+bufCap])
					return 0, nil
				})
				if trap != nil {
					return nil, trap
				}
				if errno == abi.OK || errno == abi.BufferTooSmall {
					binary.LittleEndian.PutUint32(mem[outLen:], uint32(min(size, math.MaxUint32)))
				}
				return []wasmtime.Val{wasmtime.ValI32(int32(errno))}, nil
			})
	}
	if err := stat(abi.ImportStat, func(p string) (core.FileType, error) { return e.fsys.Stat(p) }); err != nil {
		return err
	}
	if err := stat(abi.ImportLstat, func(p string) (core.FileType, error) { return e.fsys.Lstat(p) }); err != nil {
		return err
	}
	if err := five(abi.ImportReadDir, e.readDir); err != nil {
		return err
	}
	if err := five(abi.ImportReadFile, e.readFile); err != nil {
		return err
	}
	if err := five(abi.ImportRealpath, e.realpath); err != nil {
		return err
	}
	// read_file_within (ABI.md#read_file_within): the opened file checked
	// against within over a core.ContainedReader, else its realpath
	// (core.ReadFileWithin; since ABI 3 the module relies on the check).
	// With version_ptr not 0, the version of the file read goes there
	// (core.ReadFileWithinVersion; zeros when the FS cannot tell).
	if err := linker.FuncNew(abi.HostModule, abi.ImportReadFileWithin, wasmtime.NewFuncType(i32(8), i32(1)),
		func(c *wasmtime.Caller, args []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			mem, a, trap := e.sevenArgs(c, args, abi.ImportReadFileWithin, "within", 0)
			if trap != nil {
				return nil, trap
			}
			wp, wn, p, n, buf, bufCap, outLen := a[0], a[1], a[2], a[3], a[4], a[5], a[6]
			vp := uint32(args[7].I32())
			if vp != 0 && uint64(vp)+abi.FileVersionSize > uint64(len(mem)) {
				return nil, e.guestFault(abi.ImportReadFileWithin, "version pointer", uint64(vp), abi.FileVersionSize, len(mem))
			}
			var size int
			var errno abi.Errno
			_, _, trap = e.fsCall(func() (core.FileType, error) {
				within, path, b := string(mem[wp:wp+wn]), string(mem[p:p+n]), mem[buf:buf+bufCap]
				var got int
				var sz int64
				var err error
				if vp != 0 {
					var v core.FileVersion
					got, sz, v, err = core.ReadFileWithinVersion(e.fsys, within, path, b)
					putVersion(mem[vp:vp+abi.FileVersionSize], v)
				} else {
					got, sz, err = core.ReadFileWithin(e.fsys, within, path, b)
				}
				switch {
				case err != nil:
					errno = errnoOf(err)
				case sz > int64(got):
					size, errno = int(min(sz, math.MaxUint32)), abi.BufferTooSmall
				default:
					size, errno = got, abi.OK
				}
				return 0, nil
			})
			if trap != nil {
				return nil, trap
			}
			if errno == abi.OK || errno == abi.BufferTooSmall {
				binary.LittleEndian.PutUint32(mem[outLen:], uint32(min(size, math.MaxUint32)))
			}
			return []wasmtime.Val{wasmtime.ValI32(int32(errno))}, nil
		}); err != nil {
		return err
	}
	// sha256 (ABI.md#sha256): S54's digest with Go's crypto/sha256.
	if err := linker.FuncNew(abi.HostModule, abi.ImportSHA256, wasmtime.NewFuncType(i32(3), i32(1)),
		func(c *wasmtime.Caller, args []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			mem := c.GetExport(abi.ExportMemory).Memory().UnsafeData(c)
			p, n, out := uint64(uint32(args[0].I32())), uint64(uint32(args[1].I32())), uint64(uint32(args[2].I32()))
			if p+n > uint64(len(mem)) || out+sha256.Size > uint64(len(mem)) {
				return nil, wasmtime.NewTrap(fmt.Sprintf("the module broke the ABI: sha256: [%#x, +%d) or out %#x is outside its memory", p, n, out))
			}
			sum := sha256.Sum256(mem[p : p+n])
			copy(mem[out:], sum[:])
			return []wasmtime.Val{wasmtime.ValI32(int32(abi.OK))}, nil
		}); err != nil {
		return err
	}
	// prefetch_within (ABI.md#prefetch_within): a hint this host does not
	// take; the list must still lie in memory.
	if err := linker.FuncNew(abi.HostModule, abi.ImportPrefetchWithin, wasmtime.NewFuncType(i32(3), i32(1)),
		func(c *wasmtime.Caller, args []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			mem := c.GetExport(abi.ExportMemory).Memory().UnsafeData(c)
			if p, n := uint64(uint32(args[0].I32())), uint64(uint32(args[1].I32())); p+n > uint64(len(mem)) {
				return nil, wasmtime.NewTrap(fmt.Sprintf("the module broke the ABI: prefetch_within: [%#x, +%d) is outside its memory", p, n))
			}
			return []wasmtime.Val{wasmtime.ValI32(int32(abi.OK))}, nil
		}); err != nil {
		return err
	}
	// file_version (ABI.md#file_version): over a core.Versioner the
	// version of the regular file path names, as dev, ino, size, mtime,
	// ctime (u64/i64 little-endian) at out; ENOSYS over any other FS. The
	// path and the 40 bytes at out must lie in memory whatever the answer.
	if err := linker.FuncNew(abi.HostModule, abi.ImportFileVersion, wasmtime.NewFuncType(i32(3), i32(1)),
		func(c *wasmtime.Caller, args []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			const name = abi.ImportFileVersion
			mem := c.GetExport(abi.ExportMemory).Memory().UnsafeData(c)
			p, n, out := uint32(args[0].I32()), uint32(args[1].I32()), uint32(args[2].I32())
			switch size := uint64(len(mem)); {
			case uint64(p)+uint64(n) > size:
				return nil, e.guestFault(name, "path", uint64(p), uint64(n), len(mem))
			case uint64(out)+abi.FileVersionSize > size:
				return nil, e.guestFault(name, "out pointer", uint64(out), abi.FileVersionSize, len(mem))
			}
			vr, ok := e.fsys.(core.Versioner)
			if !ok {
				return []wasmtime.Val{wasmtime.ValI32(int32(abi.ENOSYS))}, nil
			}
			var v core.FileVersion
			_, errno, trap := e.fsCall(func() (core.FileType, error) {
				var err error
				v, err = vr.FileVersion(string(mem[p : p+n]))
				return 0, err
			})
			if trap != nil {
				return nil, trap
			}
			if errno == abi.OK {
				putVersion(mem[out:out+abi.FileVersionSize], v)
			}
			return []wasmtime.Val{wasmtime.ValI32(int32(errno))}, nil
		}); err != nil {
		return err
	}
	return linker.FuncNew(abi.HostModule, abi.ImportParseFrontmatter, wasmtime.NewFuncType(i32(7), i32(1)),
		func(c *wasmtime.Caller, args []wasmtime.Val) ([]wasmtime.Val, *wasmtime.Trap) {
			mem, a, trap := e.sevenArgs(c, args, abi.ImportParseFrontmatter, "text", 2)
			if trap != nil {
				return nil, trap
			}
			pp, pn, tp, tn, buf, bufCap, outLen := a[0], a[1], a[2], a[3], a[4], a[5], a[6]
			errno := abi.EIO
			result, err := e.parseFrontmatter(mem[pp:pp+pn], mem[tp:tp+tn])
			if err != nil {
				e.fmFailures = append(e.fmFailures, err.Error())
			} else {
				var size int
				size, errno = put(result, mem[buf:buf+bufCap])
				binary.LittleEndian.PutUint32(mem[outLen:], uint32(size))
			}
			return []wasmtime.Val{wasmtime.ValI32(int32(errno))}, nil
		})
}

// sevenArgs decodes the arguments of an import that takes two byte ranges
// and an output buffer (read_file_within, parse_frontmatter): ptr, len,
// ptr, len, buf, cap, outLen. The range at index extra (0 or 2), named
// what, is checked here; the other one and the buffer by check. Any range
// outside memory traps.
func (e *Engine) sevenArgs(c *wasmtime.Caller, args []wasmtime.Val, name, what string, extra int) ([]byte, [7]uint32, *wasmtime.Trap) {
	mem := c.GetExport(abi.ExportMemory).Memory().UnsafeData(c)
	var a [7]uint32
	for i := range a {
		a[i] = uint32(args[i].I32())
	}
	other := 2 - extra
	if trap := e.check(name, mem, a[other], a[other+1], a[4], a[5], a[6]); trap != nil {
		return nil, a, trap
	}
	if uint64(a[extra])+uint64(a[extra+1]) > uint64(len(mem)) {
		return nil, a, e.guestFault(name, what, uint64(a[extra]), uint64(a[extra+1]), len(mem))
	}
	return mem, a, nil
}

// putVersion writes v as file_version's result (ABI.md#file_version): dev,
// ino, size, mtime, ctime, each 8 bytes little-endian.
func putVersion(b []byte, v core.FileVersion) {
	binary.LittleEndian.PutUint64(b[0:], v.Dev)
	binary.LittleEndian.PutUint64(b[8:], v.Ino)
	binary.LittleEndian.PutUint64(b[16:], uint64(v.Size))
	binary.LittleEndian.PutUint64(b[24:], uint64(v.Mtime))
	binary.LittleEndian.PutUint64(b[32:], uint64(v.Ctime))
}

// parseFrontmatter runs the frontmatter module on path and text
// (ABI.md#parse_frontmatter), making its instance on first use. Any
// failure discards that instance; the caller answers EIO.
func (e *Engine) parseFrontmatter(path, text []byte) ([]byte, error) {
	if e.fm == nil {
		fm, err := e.newFrontmatter()
		if err != nil {
			return nil, err
		}
		e.fm = fm
	}
	result, err := e.fm.run(path, text)
	if err != nil {
		e.fm = nil
		return nil, err
	}
	return result, nil
}

func (e *Engine) newFrontmatter() (*frontmatterInstance, error) {
	mod, err := e.mod.frontmatterModule()
	if err != nil {
		return nil, err
	}
	store := wasmtime.NewStore(e.mod.engine)
	if e.memoryLimit > 0 {
		store.Limiter(e.memoryLimit, -1, -1, -1, -1)
	}
	wasi := wasmtime.NewWasiConfig()
	if err := wasi.SetStderrFile(e.stderr + "-frontmatter"); err != nil {
		return nil, err
	}
	store.SetWasi(wasi)
	linker := wasmtime.NewLinker(e.mod.engine)
	if err := linker.DefineWasi(); err != nil {
		return nil, err
	}
	inst, err := linker.Instantiate(store, mod)
	if err != nil {
		return nil, fmt.Errorf("the frontmatter module: %w", err)
	}
	mem := inst.GetExport(store, abi.ExportMemory)
	initialize, version := inst.GetFunc(store, abi.ExportInitialize), inst.GetFunc(store, abi.ExportVersion)
	fm := &frontmatterInstance{store: store, alloc: inst.GetFunc(store, abi.ExportAlloc), parse: inst.GetFunc(store, abi.ExportFrontmatterParse)}
	if mem == nil || mem.Memory() == nil || initialize == nil || version == nil || fm.alloc == nil || fm.parse == nil {
		return nil, errors.New("bad binary: the frontmatter module lacks an export")
	}
	fm.memory = mem.Memory()
	e.fmInstances++
	if _, err := initialize.Call(store); err != nil {
		return nil, fmt.Errorf("the frontmatter module's _initialize: %w", err)
	}
	if v, err := version.Call(store); err != nil || v.(int32) != abi.Version {
		return nil, fmt.Errorf("bad binary: the frontmatter module is not of ABI %d (%v, %v)", abi.Version, v, err)
	}
	return fm, nil
}

// run copies path then text into the frontmatter module and returns a copy
// of skilldex_frontmatter_parse's result (all integers unsigned).
func (fm *frontmatterInstance) run(path, text []byte) ([]byte, error) {
	n := len(path) + len(text)
	if n > abi.MaxRequest {
		return nil, fmt.Errorf("%d bytes is over the request limit", n)
	}
	p, err := fm.alloc.Call(fm.store, int32(n))
	if err != nil {
		return nil, err
	}
	ptr := uint32(p.(int32))
	mem := fm.memory.UnsafeData(fm.store)
	if ptr == 0 || uint64(ptr)+uint64(n) > uint64(len(mem)) {
		return nil, fmt.Errorf("the frontmatter module's skilldex_alloc returned %#x for %d bytes", ptr, n)
	}
	copy(mem[ptr:], path)
	copy(mem[ptr+uint32(len(path)):], text)
	r, err := fm.parse.Call(fm.store, int32(ptr), int32(len(path)), int32(len(text)))
	if err != nil {
		return nil, fmt.Errorf("the frontmatter module trapped: %w", err)
	}
	packed := uint64(r.(int64))
	rp, rn := packed>>32, packed&math.MaxUint32
	mem = fm.memory.UnsafeData(fm.store)
	if rp+rn > uint64(len(mem)) {
		return nil, fmt.Errorf("the frontmatter module's result [%#x, +%d) is outside its memory", rp, rn)
	}
	return append([]byte(nil), mem[rp:rp+rn]...), nil
}

// check traps unless the guest's path, buffer and out pointer lie in its
// memory (unsigned arithmetic, so no range wraps around).
func (e *Engine) check(name string, mem []byte, p, n, buf, bufCap, out uint32) *wasmtime.Trap {
	size := uint64(len(mem))
	switch {
	case uint64(p)+uint64(n) > size:
		return e.guestFault(name, "path", uint64(p), uint64(n), len(mem))
	case uint64(buf)+uint64(bufCap) > size:
		return e.guestFault(name, "buffer", uint64(buf), uint64(bufCap), len(mem))
	case uint64(out)+4 > size:
		return e.guestFault(name, "out pointer", uint64(out), 4, len(mem))
	}
	return nil
}

// fsCall runs a filesystem operation; a panic in it (a bug of the host's
// core.FS) traps the call instead of unwinding through Wasmtime's frames.
func (e *Engine) fsCall(op func() (core.FileType, error)) (t core.FileType, errno abi.Errno, trap *wasmtime.Trap) {
	defer func() {
		if r := recover(); r != nil {
			e.fault = fmt.Errorf("the filesystem panicked: %v", r)
			trap = wasmtime.NewTrap(e.fault.Error())
		}
	}()
	t, err := op()
	return t, errnoOf(err), nil
}

func errnoOf(err error) abi.Errno {
	if err == nil {
		return abi.OK
	}
	return abi.ErrnoOf(core.POSIXCode(err))
}

// readDir packs the listing (ABI.md#read_dir); too big: the size needed.
func (e *Engine) readDir(path string, buf []byte) (int, abi.Errno) {
	entries, err := e.fsys.ReadDir(path)
	if err != nil {
		return 0, errnoOf(err)
	}
	var listing []byte
	for _, d := range entries {
		t := byte(d.Type)
		if uint32(t) > abi.TypeSymlink {
			t = byte(abi.TypeOther)
		}
		listing = append(listing, t)
		listing = binary.LittleEndian.AppendUint32(listing, uint32(len(d.Name)))
		listing = append(listing, d.Name...)
	}
	return put(listing, buf)
}

// realpath writes the canonical path (ABI.md#realpath).
func (e *Engine) realpath(path string, buf []byte) (int, abi.Errno) {
	real, err := e.fsys.Realpath(path)
	if err != nil {
		return 0, errnoOf(err)
	}
	return put([]byte(real), buf)
}

func put(result, buf []byte) (int, abi.Errno) {
	if len(result) > len(buf) {
		return len(result), abi.BufferTooSmall
	}
	copy(buf, result)
	return len(result), abi.OK
}

// readFile writes the file's first len(buf) bytes (ABI.md#read_file).
// Over a core.PrefixReader it reads no more than that; the rest's size is
// then unknown, so *out_len is len(buf)+1 and the guest grows its buffer.
func (e *Engine) readFile(path string, buf []byte) (int, abi.Errno) {
	if pr, ok := e.fsys.(core.PrefixReader); ok {
		data, complete, err := pr.ReadFilePrefix(path, len(buf))
		if err != nil {
			return 0, errnoOf(err)
		}
		n := copy(buf, data)
		if complete && n == len(data) {
			return n, abi.OK
		}
		return len(buf) + 1, abi.BufferTooSmall
	}
	data, err := e.fsys.ReadFile(path)
	if err != nil {
		return 0, errnoOf(err)
	}
	copy(buf, data)
	if len(data) > len(buf) {
		return len(data), abi.BufferTooSmall
	}
	return len(data), abi.OK
}
