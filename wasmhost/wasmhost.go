package wasmhost

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/experimental/logging"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/wasm/abi"
)

// ErrBadBinary is returned (wrapped) by [Compile] and [Module.Instantiate]
// for a module that is not a skilldex module of ABI version [abi.Version]:
// not wasm, importing from an unknown module, missing an export, or
// answering another version.
var ErrBadBinary = errors.New("wasmhost: not a skilldex module for ABI version " + fmt.Sprint(abi.Version))

// ErrClosed is returned by calls on a closed [Engine] or [Module].
var ErrClosed = errors.New("wasmhost: closed")

// An Option configures [Compile] or [New].
type Option func(*config)

type config struct {
	frontmatter []byte
	cacheDir    string
	stderr      io.Writer
	trace       io.Writer
	memoryLimit uint64 // bytes; 0 is wasm32's 4 GiB
}

// WithCompilationCache keeps compiled code in dir (created if missing), so
// that later processes compile the module in a fraction of the time. dir
// may be shared by processes running at the same time.
func WithCompilationCache(dir string) Option { return func(c *config) { c.cacheDir = dir } }

// WithStderr sends what the module writes to its stdout and stderr to w
// (the Go runtime prints fatal errors there). Without it the output is
// dropped, except the first 2 KiB of each call's, which a trap's error
// quotes. w must be safe for concurrent use when several engines run at
// once.
func WithStderr(w io.Writer) Option { return func(c *config) { c.stderr = w } }

// WithTrace writes one line per filesystem import call (the operation, the
// decoded path and the errno) to w, plus wazero's log of every WASI call and
// export call. It is for debugging; it slows calls down.
func WithTrace(w io.Writer) Option { return func(c *config) { c.trace = w } }

// WithMemoryLimit bounds each instance's linear memory to n bytes (rounded
// down to 64 KiB pages). A call that needs more fails like a trap, with the
// instance replaced. The default is the wasm32 limit, 4 GiB.
func WithMemoryLimit(n uint64) Option { return func(c *config) { c.memoryLimit = n } }

// Module is a compiled skilldex module and the runtime that holds it. It
// is safe for concurrent use; [Module.Instantiate] makes engines from it.
type Module struct {
	cfg      config
	rt       wazero.Runtime
	cache    wazero.CompilationCache
	compiled wazero.CompiledModule
	ctx      context.Context // carries the trace listener, when tracing

	mu     sync.Mutex
	closed bool

	fmOnce     sync.Once // compiles the frontmatter module (frontmatter.go)
	fmCompiled wazero.CompiledModule
	fmErr      error
}

// Compile compiles wasm (the bytes of skilldex.wasm; nil for the registered
// module, see [RegisterModules]: package embed's when a program imports it),
// checks that it is a skilldex module for this ABI (its imports and
// exports) and prepares the host imports. The returned Module owns a wazero
// runtime: Close it. Given nil with no module registered, it fails with
// [ErrNoModule].
func Compile(ctx context.Context, wasm []byte, opts ...Option) (*Module, error) {
	engine, frontmatter := registered()
	if wasm == nil {
		if engine == nil {
			return nil, ErrNoModule
		}
		wasm = engine
	}
	m := &Module{}
	m.cfg.frontmatter = frontmatter
	for _, o := range opts {
		o(&m.cfg)
	}
	rc := wazero.NewRuntimeConfig().WithCloseOnContextDone(true)
	if m.cfg.cacheDir != "" {
		cache, err := wazero.NewCompilationCacheWithDir(m.cfg.cacheDir)
		if err != nil {
			return nil, fmt.Errorf("wasmhost: compilation cache: %w", err)
		}
		m.cache = cache
		rc = rc.WithCompilationCache(cache)
	}
	if m.cfg.memoryLimit != 0 {
		pages := m.cfg.memoryLimit / 65536
		if pages == 0 {
			pages = 1
		}
		if pages < 65536 {
			rc = rc.WithMemoryLimitPages(uint32(pages))
		}
	}
	if m.cfg.trace != nil {
		ctx = experimental.WithFunctionListenerFactory(ctx,
			logging.NewHostLoggingListenerFactory(stringWriter{m.cfg.trace}, logging.LogScopeAll))
	}
	m.ctx = ctx
	m.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	if err := m.setup(ctx, wasm); err != nil {
		m.Close(ctx)
		return nil, err
	}
	return m, nil
}

func (m *Module) setup(ctx context.Context, wasm []byte) error {
	compiled, err := m.rt.CompileModule(ctx, wasm)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBadBinary, err)
	}
	m.compiled = compiled
	for _, f := range compiled.ImportedFunctions() {
		mod, name, _ := f.Import()
		if mod != abi.HostModule && mod != abi.WASIModule {
			return fmt.Errorf("%w: it imports %s.%s (wasm/ABI.md#loading)", ErrBadBinary, mod, name)
		}
	}
	exports := compiled.ExportedFunctions()
	for _, e := range []struct {
		name            string
		params, results int
	}{
		{abi.ExportInitialize, 0, 0},
		{abi.ExportVersion, 0, 1},
		{abi.ExportAlloc, 1, 1},
		{abi.ExportCall, 2, 1},
	} {
		f, ok := exports[e.name]
		if !ok || len(f.ParamTypes()) != e.params || len(f.ResultTypes()) != e.results {
			return fmt.Errorf("%w: no export %s of the right signature", ErrBadBinary, e.name)
		}
	}
	if _, ok := compiled.ExportedMemories()[abi.ExportMemory]; !ok {
		return fmt.Errorf("%w: no exported memory", ErrBadBinary)
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, m.rt); err != nil {
		return fmt.Errorf("wasmhost: WASI: %w", err)
	}
	if _, err := hostModule(m.rt).Instantiate(ctx); err != nil {
		return fmt.Errorf("wasmhost: host imports: %w", err)
	}
	return nil
}

// Close releases the runtime, the compiled code and every engine made from
// m. It is safe to call more than once.
func (m *Module) Close(ctx context.Context) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	m.closed = true
	err := m.rt.Close(ctx)
	if m.cache != nil {
		m.cache.Close(ctx)
	}
	return err
}

// Instantiate makes an [Engine] that reads files through fsys: it
// instantiates the module, runs its _initialize and checks its ABI
// version. fsys must not call the Engine back.
func (m *Module) Instantiate(ctx context.Context, fsys core.FS) (*Engine, error) {
	e := &Engine{m: m, fsys: fsys, turn: make(chan struct{}, 1)}
	inst, err := m.instantiate(ctx, e)
	if err != nil {
		return nil, err
	}
	e.inst = inst
	return e, nil
}

// New compiles wasm (nil: the registered module, as for [Compile]) and
// instantiates one [Engine] over fsys. Closing the
// engine closes the module with it.
func New(ctx context.Context, wasm []byte, fsys core.FS, opts ...Option) (*Engine, error) {
	m, err := Compile(ctx, wasm, opts...)
	if err != nil {
		return nil, err
	}
	e, err := m.Instantiate(ctx, fsys)
	if err != nil {
		m.Close(ctx)
		return nil, err
	}
	e.ownsModule = true
	return e, nil
}

// instance is one instantiation of the module and the state its host
// imports need during a call.
type instance struct {
	e     *Engine
	mod   api.Module
	mem   api.Memory
	alloc api.Function
	call  api.Function
	stack [2]uint64

	stderr output // the start of what the module wrote during the current call

	// The result of the last import that returned BufferTooSmall, kept for
	// the guest's immediate retry (ABI.md#read_dir); reset at every call.
	pendingOp   string
	pendingPath string
	pending     []byte

	fm *frontmatterInstance // the frontmatter module's instance, once needed
}

// ctxKey is the context key under which a call passes its *instance to the
// host imports.
type ctxKey struct{}

func (m *Module) instantiate(ctx context.Context, e *Engine) (*instance, error) {
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	inst := &instance{e: e}
	var out io.Writer = &inst.stderr
	if m.cfg.stderr != nil {
		out = io.MultiWriter(&inst.stderr, m.cfg.stderr)
	}
	mc := wazero.NewModuleConfig().
		WithName("").
		WithStartFunctions(). // _initialize is called below, to report its failure as such
		WithStdout(out).
		WithStderr(out).
		WithRandSource(rand.Reader).
		WithSysWalltime().
		WithSysNanotime().
		WithSysNanosleep()
	ctx = context.WithValue(ctx, ctxKey{}, inst)
	mod, err := m.rt.InstantiateModule(ctx, m.compiled, mc)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("wasmhost: instantiate: %w", ctx.Err())
		}
		return nil, fmt.Errorf("wasmhost: instantiate: %v", err)
	}
	inst.mod = mod
	inst.mem = mod.Memory()
	inst.alloc = mod.ExportedFunction(abi.ExportAlloc)
	inst.call = mod.ExportedFunction(abi.ExportCall)
	fail := func(what string, err error) (*instance, error) {
		mod.Close(ctx)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("wasmhost: %s: %w", what, ctx.Err())
		}
		return nil, fmt.Errorf("%w: %s: %v%s", ErrBadBinary, what, err, inst.stderr.quote())
	}
	if err := mod.ExportedFunction(abi.ExportInitialize).CallWithStack(ctx, inst.stack[:]); err != nil {
		return fail(abi.ExportInitialize, err)
	}
	if err := mod.ExportedFunction(abi.ExportVersion).CallWithStack(ctx, inst.stack[:]); err != nil {
		return fail(abi.ExportVersion, err)
	}
	if v := uint32(inst.stack[0]); v != abi.Version {
		return fail(abi.ExportVersion, fmt.Errorf("version %d", v))
	}
	return inst, nil
}

// Engine is one instance of the module over one [core.FS]. Its methods
// may be called from several goroutines; they run one at a time.
type Engine struct {
	m          *Module
	fsys       core.FS
	ownsModule bool

	mu     sync.Mutex    // guards the fields below; held only briefly
	turn   chan struct{} // a token: the call that holds it runs (one at a time)
	inst   *instance     // nil after a trap, until the next call
	closed bool
	traps  int
}

// Close releases the instance (and the module, for an engine made by
// [New]). It is safe to call more than once.
func (e *Engine) Close(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil
	}
	e.closed = true
	var err error
	if e.inst != nil {
		e.inst.closeFrontmatter(ctx)
		err = e.inst.mod.Close(ctx)
		e.inst = nil
	}
	if e.ownsModule {
		err = errors.Join(err, e.m.Close(ctx))
	}
	return err
}

// MemorySize returns the size in bytes of the instance's linear memory (0
// when there is no live instance). Wasm memory grows and never shrinks, so
// this is the high-water mark of the instance's heap.
func (e *Engine) MemorySize() uint64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.inst == nil {
		return 0
	}
	return uint64(e.inst.mem.Size())
}

// Traps returns how many instances of e have been discarded after a trap
// or a cancelled call.
func (e *Engine) Traps() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.traps
}

// Call runs one JSON request (wasm/ABI.md#requests-and-replies) and returns
// the module's JSON reply, which the caller owns. An error reply is a reply:
// the error is nil. See the package doc for when the error is not nil.
func (e *Engine) Call(ctx context.Context, request []byte) ([]byte, error) {
	if len(request) > abi.MaxRequest {
		return nil, &core.Error{Code: core.CodeBadRequest, Message: fmt.Sprintf("wasmhost: request of %d bytes exceeds the %d-byte limit", len(request), abi.MaxRequest)}
	}
	// Wait for the running call to end, but no longer than ctx allows: a
	// call stuck in a blocking filesystem must not hold a caller whose
	// deadline passes forever.
	select {
	case e.turn <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wasmhost: call not started: %w", ctx.Err())
	}
	defer func() { <-e.turn }()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed {
		return nil, ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("wasmhost: call not started: %w", err)
	}
	if e.inst == nil {
		inst, err := e.m.instantiate(ctx, e)
		if err != nil {
			return nil, err
		}
		e.inst = inst
	}
	reply, err := e.inst.run(context.WithValue(ctx, ctxKey{}, e.inst), request)
	if err != nil {
		// The instance is corrupt (ABI.md#concurrency-traps-and-re-entry).
		e.inst.closeFrontmatter(context.Background())
		e.inst.mod.Close(context.Background())
		e.inst = nil
		e.traps++
		if ctx.Err() != nil {
			return nil, fmt.Errorf("wasmhost: call interrupted: %w", ctx.Err())
		}
		return nil, err
	}
	return reply, nil
}

// run writes the request into the module and runs skilldex_call. Any error
// means the instance must be discarded.
func (inst *instance) run(ctx context.Context, request []byte) ([]byte, error) {
	inst.pendingOp, inst.pendingPath, inst.pending = "", "", nil
	inst.stderr.reset()
	inst.stack[0] = uint64(len(request))
	if err := inst.alloc.CallWithStack(ctx, inst.stack[:]); err != nil {
		return nil, inst.trapped(abi.ExportAlloc, err)
	}
	ptr := uint32(inst.stack[0])
	if ptr == 0 || !inst.mem.Write(ptr, request) {
		return nil, inst.trapped(abi.ExportAlloc, fmt.Errorf("returned %#x, no room for %d bytes", ptr, len(request)))
	}
	inst.stack[0], inst.stack[1] = uint64(ptr), uint64(len(request))
	if err := inst.call.CallWithStack(ctx, inst.stack[:]); err != nil {
		return nil, inst.trapped(abi.ExportCall, err)
	}
	rp, rn := uint32(inst.stack[0]>>32), uint32(inst.stack[0])
	b, ok := inst.mem.Read(rp, rn)
	if !ok {
		return nil, inst.trapped(abi.ExportCall, fmt.Errorf("reply [%#x, +%d) is outside memory", rp, rn))
	}
	return append([]byte(nil), b...), nil
}

// trapped is the error of a call whose instance trapped: code INTERNAL, as
// ABI.md asks, with the cause and what the module printed.
func (inst *instance) trapped(export string, err error) error {
	msg := err.Error()
	if i := strings.Index(msg, "\nwasm stack trace:"); i >= 0 {
		msg = msg[:i]
	}
	return &core.Error{
		Code:    core.CodeInternal,
		Message: "wasmhost: the module trapped in " + export + ": " + msg + inst.stderr.quote() + " (the next call uses a new instance)",
	}
}

// stringWriter adds WriteString to an io.Writer, for wazero's logger.
type stringWriter struct{ io.Writer }

func (w stringWriter) WriteString(s string) (int, error) { return io.WriteString(w.Writer, s) }

// output keeps the start of what the module writes to stdout and stderr
// during one call: the Go runtime's "fatal error: ..." or "panic: ..."
// line comes first, then goroutine traces.
type output struct {
	mu      sync.Mutex
	buf     []byte
	dropped int
}

const outputSize = 2 << 10

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := min(len(p), outputSize-len(o.buf))
	o.buf = append(o.buf, p[:n]...)
	o.dropped += len(p) - n
	return len(p), nil
}

func (o *output) reset() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.buf, o.dropped = o.buf[:0], 0
}

// quote returns "; module output: ..." or "" when there was none.
func (o *output) quote() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := strings.TrimSpace(string(o.buf))
	if s == "" {
		return ""
	}
	if o.dropped > 0 {
		s += fmt.Sprintf(" [... %d more bytes]", o.dropped)
	}
	return "; module output: " + s
}

// Signatures returns the module's imports and exports as the runtime sees
// them, one line each, sorted, in the format of wasm/testdata/abi.golden
// (wasm/ABI.md#versioning):
//
//	export <name> func(<params>) -> (<results>)
//	export <name> memory
//	import <module> <name> func(<params>) -> (<results>)
//
// Tests compare it with that file to lock the ABI.
func (m *Module) Signatures() []string {
	sig := func(f api.FunctionDefinition) string {
		names := func(ts []api.ValueType) string {
			s := make([]string, len(ts))
			for i, t := range ts {
				s[i] = api.ValueTypeName(t)
			}
			return strings.Join(s, ", ")
		}
		return "func(" + names(f.ParamTypes()) + ") -> (" + names(f.ResultTypes()) + ")"
	}
	var lines []string
	for _, f := range m.compiled.ImportedFunctions() {
		mod, name, _ := f.Import()
		lines = append(lines, "import "+mod+" "+name+" "+sig(f))
	}
	for _, mem := range m.compiled.ImportedMemories() {
		mod, name, _ := mem.Import()
		lines = append(lines, "import "+mod+" "+name+" memory")
	}
	for name, f := range m.compiled.ExportedFunctions() {
		lines = append(lines, "export "+name+" "+sig(f))
	}
	for name := range m.compiled.ExportedMemories() {
		lines = append(lines, "export "+name+" memory")
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}
