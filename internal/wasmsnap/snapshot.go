package wasmsnap

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"regexp"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// Config is what Snapshot needs besides the module.
type Config struct {
	// Init is the export that initialises the module: "_initialize" for a
	// WASI reactor.
	Init string
	// Entropy is what random_get returns while Init runs. For a
	// reproducible build it is a fixed stream.
	Entropy io.Reader
	// RebuiltInitMaps are the packages (as the name section spells them:
	// "unicode", "github.com_x_y") whose initialisers may build maps,
	// because the module rebuilds those maps at its first call. A map
	// built by any other package initialiser fails the snapshot (see
	// initMaps; syscall's copy of the environment is allowed, empty).
	RebuiltInitMaps []string
	// UnreadInitMaps are packages, spelled as in RebuiltInitMaps, whose
	// init-time maps nothing the module runs after Init reads: their
	// entries go stale unseen. A package belongs here only with a reason
	// the caller states beside the list (see Frontmatter).
	UnreadInitMaps []string
}

const (
	pageSize     = 65536
	globalPrefix = "wasmsnap.global."
	wasiModule   = "wasi_snapshot_preview1"
)

// Snapshot runs cfg.Init once under wazero's interpreter and returns a
// module whose memory and globals start in the state Init left them in,
// and whose export of that name is a function that does nothing.
//
// Init runs with no arguments, no environment, no files and a clock of
// its own: the monotonic clock starts at 1 ns and advances 1 ns a read,
// the wall clock reads 1970-01-01T00:00:00Z. Any other import it calls
// fails the snapshot.
func Snapshot(ctx context.Context, wasm []byte, cfg Config) ([]byte, error) {
	m, err := decodeModule(wasm)
	if err != nil {
		return nil, err
	}
	initIdx := -1
	for i, e := range m.exports {
		if e.name == cfg.Init && e.kind == kindFunc {
			initIdx = i
		}
	}
	if initIdx < 0 {
		return nil, fmt.Errorf("the module exports no function %q", cfg.Init)
	}
	rec := &recordingReader{r: cfg.Entropy}
	mem, globals, err := run(ctx, m, Config{Init: cfg.Init, Entropy: rec, RebuiltInitMaps: cfg.RebuiltInitMaps, UnreadInitMaps: cfg.UnreadInitMaps})
	if err != nil {
		return nil, err
	}
	keys, err := locateHashKey(rec.reads, mem)
	if err != nil {
		return nil, err
	}
	return m.rewrite(mem, globals, initIdx, keys)
}

// run instantiates m, with an export added for each of its globals, calls
// Init and returns the memory and the globals' values.
func run(ctx context.Context, m *module, cfg Config) ([]byte, []uint64, error) {
	exports := append([]export(nil), m.exports...)
	for i := range m.globals {
		exports = append(exports, export{name: fmt.Sprint(globalPrefix, i), kind: kindGlobal, index: uint32(i)})
	}
	instrumented := encodeModule(replaceSection(m.secs, secExport, encodeExports(exports)))

	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfigInterpreter())
	defer rt.Close(ctx)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		return nil, nil, err
	}
	// Every other import fails: Init must not need the host.
	hosts := map[string]wazero.HostModuleBuilder{}
	var order []string
	for _, f := range m.funcImports {
		if f.module == wasiModule {
			continue
		}
		b, ok := hosts[f.module]
		if !ok {
			b = rt.NewHostModuleBuilder(f.module)
			hosts[f.module] = b
			order = append(order, f.module)
		}
		name := f.module + "." + f.name
		b.NewFunctionBuilder().WithGoModuleFunction(api.GoModuleFunc(func(context.Context, api.Module, []uint64) {
			panic(fmt.Sprintf("wasmsnap: %s called during %s: a snapshot cannot hold what the host answered", name, cfg.Init))
		}), valueTypes(f.typ.params), valueTypes(f.typ.results)).Export(f.name)
	}
	for _, name := range order {
		if _, err := hosts[name].Instantiate(ctx); err != nil {
			return nil, nil, err
		}
	}
	maps := &initMaps{rebuilt: cfg.RebuiltInitMaps, unread: cfg.UnreadInitMaps}
	compiled, err := rt.CompileModule(experimental.WithFunctionListenerFactory(ctx, maps), instrumented)
	if err != nil {
		return nil, nil, err
	}
	var stderr bytes.Buffer
	var clock int64
	mc := wazero.NewModuleConfig().WithName("").WithStartFunctions().
		WithStdout(&stderr).WithStderr(&stderr).
		WithRandSource(cfg.Entropy).
		WithNanotime(func() int64 { clock++; return clock }, 1).
		WithWalltime(func() (int64, int32) { return 0, 0 }, 1)
	mod, err := rt.InstantiateModule(ctx, compiled, mc)
	if err != nil {
		return nil, nil, err
	}
	if _, err := mod.ExportedFunction(cfg.Init).Call(ctx); err != nil {
		return nil, nil, fmt.Errorf("%s: %v (stderr: %q)", cfg.Init, err, stderr.String())
	}
	if stderr.Len() > 0 {
		return nil, nil, fmt.Errorf("%s wrote to stdout or stderr: %q", cfg.Init, stderr.String())
	}
	if err := maps.err(); err != nil {
		return nil, nil, err
	}
	size := mod.Memory().Size()
	data, ok := mod.Memory().Read(0, size)
	if !ok {
		return nil, nil, errors.New("reading the memory failed")
	}
	mem := append([]byte(nil), data...)
	globals := make([]uint64, len(m.globals))
	for i := range m.globals {
		globals[i] = mod.ExportedGlobal(fmt.Sprint(globalPrefix, i)).Get()
	}
	return mem, globals, nil
}

func valueTypes(ts []byte) []api.ValueType {
	out := make([]api.ValueType, len(ts))
	for i, t := range ts {
		out[i] = api.ValueType(t)
	}
	return out
}

// rewrite emits the snapshot module: m's sections with the memory's
// minimum raised to the memory's size, the globals' initial values and
// the data segments replaced by the snapshot's, and the init export
// pointing at a new function that does nothing.
func (m *module) rewrite(mem []byte, globals []uint64, initIdx int, keys []uint32) ([]byte, error) {
	secs := m.secs
	// memory
	pages := uint32(len(mem) / pageSize)
	if m.memMax != nil && pages > *m.memMax {
		return nil, fmt.Errorf("memory grew to %d pages, over its maximum %d", pages, *m.memMax)
	}
	mb := appendU32(nil, 1)
	if m.memMax != nil {
		mb = append(mb, 1)
		mb = appendU32(mb, pages)
		mb = appendU32(mb, *m.memMax)
	} else {
		mb = append(mb, 0)
		mb = appendU32(mb, pages)
	}
	secs = replaceSection(secs, secMemory, mb)
	// globals
	gb := appendU32(nil, uint32(len(m.globals)))
	for i, g := range m.globals {
		gb = append(gb, g.valType, boolByte(g.mutable))
		v := globals[i]
		switch g.valType {
		case valI32:
			gb = append(gb, opI32Const)
			gb = appendSLEB(gb, int64(int32(uint32(v))))
		case valI64:
			gb = append(gb, opI64Const)
			gb = appendSLEB(gb, int64(v))
		case valF32:
			gb = append(gb, opF32Const)
			gb = binary.LittleEndian.AppendUint32(gb, uint32(v))
		case valF64:
			gb = append(gb, opF64Const)
			gb = binary.LittleEndian.AppendUint64(gb, v)
		default:
			return nil, fmt.Errorf("global %d: value type 0x%02x not supported", i, g.valType)
		}
		gb = append(gb, opEnd)
	}
	secs = replaceSection(secs, secGlobal, gb)
	// data: the findfunctab is written, and the pclntab copied in from a
	// passive segment, when runtime.findfunc first runs (functab.go)
	var table *funcTable
	var pclntab []byte
	pclntabOff := 0
	if t, ok := findFuncTable(mem); ok {
		table = &t
		orig := mem
		mem = bytes.Clone(mem)
		if off, end, ok := findPclntab(orig, t); ok {
			pclntab, pclntabOff = orig[off:end], off
			clear(mem[off:end])
		}
		t.clear(mem)
	}
	segs := segments(mem)
	count := len(segs)
	if pclntab != nil {
		count++
	}
	db := appendU32(nil, uint32(count))
	for _, s := range segs {
		db = append(db, 0, opI32Const)
		db = appendSLEB(db, int64(int32(uint32(s.off))))
		db = append(db, opEnd)
		db = appendU32(db, uint32(len(s.data)))
		db = append(db, s.data...)
	}
	var then []byte
	if pclntab != nil {
		db = append(db, 1) // passive
		db = appendU32(db, uint32(len(pclntab)))
		db = append(db, pclntab...)
		then = copyCode(uint32(len(segs)), pclntabOff, len(pclntab))
	}
	secs = replaceSection(secs, secData, db)
	if m.names != nil {
		var err error
		if secs, err = m.stubInitFuncs(secs); err != nil {
			return nil, err
		}
	}
	if _, ok := m.section(secDataCount); ok || pclntab != nil {
		// memory.init needs the section; a module that has one keeps it right.
		secs = replaceSection(secs, secDataCount, appendU32(nil, uint32(count)))
	}
	return m.addInit(secs, initIdx, keys, table, then)
}

func boolByte(b bool) byte {
	if b {
		return 1
	}
	return 0
}

// appendVecItem appends one encoded item to a vector (count, items).
func appendVecItem(vec []byte, item []byte) []byte {
	r := &reader{b: vec}
	n := uint32(0)
	if len(vec) > 0 {
		n = r.u32()
	}
	out := appendU32(nil, n+1)
	out = append(out, vec[r.off:]...)
	return append(out, item...)
}

// segment is one active data segment.
type segment struct {
	off  int
	data []byte
}

// maxSegments is below every engine's limit (V8's is 100,000).
const maxSegments = 50000

// segments covers the non-zero bytes of mem with data segments; a run of
// fewer zeros than a segment's header costs (about 8 bytes) stays inside
// a segment. Engines limit the number of segments: wider gaps, if needed.
func segments(mem []byte) []segment {
	for gap := 8; ; gap *= 2 {
		if segs := segmentsGap(mem, gap); len(segs) <= maxSegments {
			return segs
		}
	}
}

// segmentsGap is segments with gap: a run of at least gap zeros ends a
// segment.
func segmentsGap(mem []byte, gap int) []segment {
	var segs []segment
	i := 0
	for i < len(mem) {
		for i < len(mem) && mem[i] == 0 {
			i++
		}
		if i == len(mem) {
			break
		}
		start, end := i, i
		for i < len(mem) {
			if mem[i] != 0 {
				i++
				end = i
				continue
			}
			z := i
			for i < len(mem) && mem[i] == 0 && i-z < gap {
				i++
			}
			if i == len(mem) || i-z >= gap {
				break
			}
		}
		segs = append(segs, segment{start, mem[start:end]})
	}
	return segs
}

// Reactor snapshots a WASI reactor's _initialize with the fixed entropy
// of a reproducible build (see the package documentation for why a fixed
// seed is safe here). rebuilt names the packages whose init-time maps the module
// rebuilds at its first call (Config.RebuiltInitMaps).
func Reactor(ctx context.Context, wasm []byte, rebuilt ...string) ([]byte, error) {
	return Snapshot(ctx, wasm, Config{Init: "_initialize", Entropy: fixedEntropy(), RebuiltInitMaps: rebuilt})
}

// Engine snapshots the skilldex engine module (./wasm) as `make build`
// does: Reactor, with unicode's init-time maps (FoldCategory, FoldScript)
// allowed because the engine rebuilds them at its first call
// (wasm/main.go rehashInitMaps).
func Engine(ctx context.Context, wasm []byte) ([]byte, error) {
	return Reactor(ctx, wasm, "unicode")
}

// Frontmatter snapshots the frontmatter module (./wasm/frontmatter) as
// `make build` does. Its first parse rebuilds the maps the packages below
// fill at init and the complete path reads (wasm/frontmatter rehashInitMaps):
// unicode's tables and the two YAML libraries' resolve tables. Two packages'
// maps stay stale and unread: regexp/syntax's class tables, read only when a
// regular expression is compiled, which the linked packages do only in their
// initialisers; and time's unit table, read only by time.ParseDuration,
// which the YAML libraries call only to decode into a time.Duration, a type
// the complete path never decodes into.
func Frontmatter(ctx context.Context, wasm []byte) ([]byte, error) {
	return Snapshot(ctx, wasm, Config{Init: "_initialize", Entropy: fixedEntropy(),
		RebuiltInitMaps: []string{"unicode", "go.yaml.in_yaml_v3", "gopkg.in_yaml_2ev2"},
		UnreadInitMaps:  []string{"regexp_syntax", "time"}})
}

// packageInit matches the name Go's wasm linker gives a package
// initialiser: the package path (its slashes made underscores), then
// ".init", ".init.N" or ".map.init.N". A method named init has a type
// between the two ("pkg.T.init", "pkg.__T_.init" for a pointer receiver),
// which the check on the path part excludes (at the cost of never stubbing
// the initialiser of a package whose last path element has a dot).
var packageInit = regexp.MustCompile(`^(?:[^_]+_)*[^._]+\.(?:init(?:\.[0-9]+)?|map\.init\.[0-9]+)$`)

// goStartup are the Go runtime's start-up functions, which rt0 and
// runtime.main call once, before _initialize returns, and nothing calls
// again on wasm (one M; plugins, which call a few of them again, do not
// exist there): the runtime's entry and self-checks, the initialisation of
// the scheduler, the allocator, the GC, the module data, the environment,
// the random generator, and the running of the package initialisers. The
// goroutines start-up leaves parked (forcegchelper, bgsweep, ...) are not
// here: they resume in their own functions.
var goStartup = map[string]bool{
	"_rt0_wasm_wasip1_lib": true, "runtime.rt0_go": true, "runtime.check": true, "runtime.testAtomic64": true,
	"runtime.schedinit": true, "runtime.mallocinit": true, "runtime.cpuinit": true, "runtime.randinit": true,
	"runtime.alginit": true, "runtime.modulesinit": true, "runtime.typelinksinit": true,
	"runtime.moduledataverify1": true, "runtime.itabsinit": true, "runtime.stkobjinit": true,
	"runtime.goargs": true, "runtime.goenvs": true, "runtime.gcinit": true, "runtime.gcenable": true,
	"runtime.main": true, "runtime.doInit": true, "runtime.doInit1": true,
}

// stubInitFuncs replaces the body of every package initialiser with
// unreachable, and of every goStartup function, and drops the name
// section. Go runs each once, in _initialize, and never again, and the
// snapshot does not run _initialize's Go code at all: their code is dead
// weight (about 55 KB of the engine module; were one called after all,
// the call would trap at once, and every host's corpus run would show it). The name section comes only from the unstripped
// build; the snapshot ships without it, as a -s -w build would.
func (m *module) stubInitFuncs(secs []section) ([]section, error) {
	cs, _ := findSection(secs, secCode)
	r := &reader{b: cs.body}
	n := r.u32()
	out := appendU32(nil, n)
	imported := uint32(len(m.funcImports))
	for i := uint32(0); i < n && r.err == nil; i++ {
		body := r.bytes(int(r.u32()))
		if name, ok := m.names[imported+i]; ok && (packageInit.MatchString(name) || goStartup[name]) {
			body = []byte{0, opUnreachable, opEnd}
		}
		out = appendU32(out, uint32(len(body)))
		out = append(out, body...)
	}
	if r.err != nil {
		return nil, fmt.Errorf("code section: %w", r.err)
	}
	return withoutNames(replaceSection(secs, secCode, out)), nil
}

// withoutNames is secs without the name section.
func withoutNames(secs []section) []section {
	var kept []section
	for _, s := range secs {
		if s.id == secCustom && (&reader{b: s.body}).name() == "name" {
			continue
		}
		kept = append(kept, s)
	}
	return kept
}
