package wasmhost

import (
	"context"
	"crypto/rand"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/skilldex/skilldex/wasm/abi"
)

// The frontmatter module (wasm/ABI.md#the-frontmatter-module): the
// complete frontmatter path, which the engine module asks for through the
// parse_frontmatter import. It is compiled the first time any engine of a
// Module needs it, and instantiated the first time each engine instance
// does: a workspace whose frontmatter the engine's own scanner reads never
// loads it.

// WithFrontmatterModule gives the bytes of skilldex-frontmatter.wasm, the
// module of the complete frontmatter path (built from wasm/frontmatter).
// Default (or nil): the registered frontmatter module ([RegisterModules]:
// package embed's when a program imports it).
func WithFrontmatterModule(wasm []byte) Option { return func(c *config) { c.frontmatter = wasm } }

// frontmatterModule compiles the frontmatter module once per Module.
func (m *Module) frontmatterModule(ctx context.Context) (wazero.CompiledModule, error) {
	m.fmOnce.Do(func() {
		wasm := m.cfg.frontmatter
		if wasm == nil {
			m.fmErr = fmt.Errorf("%w (the frontmatter module)", ErrNoModule)
			return
		}
		c, err := m.rt.CompileModule(ctx, wasm)
		if err != nil {
			m.fmErr = fmt.Errorf("%w: the frontmatter module: %v", ErrBadBinary, err)
			return
		}
		for _, f := range c.ImportedFunctions() {
			if mod, name, _ := f.Import(); mod != abi.WASIModule {
				m.fmErr = fmt.Errorf("%w: the frontmatter module imports %s.%s", ErrBadBinary, mod, name)
				return
			}
		}
		m.fmCompiled = c
	})
	return m.fmCompiled, m.fmErr
}

// FrontmatterLoaded reports whether any engine of m has needed the
// frontmatter module (and so compiled it).
func (m *Module) FrontmatterLoaded() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.fmCompiled != nil || m.fmErr != nil
}

// frontmatterInstance is an instance of the frontmatter module.
type frontmatterInstance struct {
	mod          api.Module
	alloc, parse api.Function
	stack        [3]uint64
}

// frontmatter returns inst's frontmatter instance, making it on first use.
func (inst *instance) frontmatter(ctx context.Context) (*frontmatterInstance, error) {
	if inst.fm != nil {
		return inst.fm, nil
	}
	m := inst.e.m
	m.mu.Lock()
	c, err := m.frontmatterModule(ctx)
	m.mu.Unlock()
	if err != nil {
		return nil, err
	}
	mc := wazero.NewModuleConfig().WithName("").WithStartFunctions().
		WithStdout(&inst.stderr).WithStderr(&inst.stderr).
		WithRandSource(rand.Reader).WithSysWalltime().WithSysNanotime().WithSysNanosleep()
	mod, err := m.rt.InstantiateModule(ctx, c, mc)
	if err != nil {
		return nil, fmt.Errorf("the frontmatter module: %v", err)
	}
	fm := &frontmatterInstance{mod: mod, alloc: mod.ExportedFunction(abi.ExportAlloc), parse: mod.ExportedFunction(abi.ExportFrontmatterParse)}
	init, version := mod.ExportedFunction(abi.ExportInitialize), mod.ExportedFunction(abi.ExportVersion)
	if init == nil || version == nil || fm.alloc == nil || fm.parse == nil {
		mod.Close(ctx)
		return nil, fmt.Errorf("%w: the frontmatter module lacks an export", ErrBadBinary)
	}
	if err := init.CallWithStack(ctx, fm.stack[:]); err != nil {
		mod.Close(ctx)
		return nil, fmt.Errorf("the frontmatter module's %s: %v", abi.ExportInitialize, err)
	}
	if err := version.CallWithStack(ctx, fm.stack[:]); err != nil || uint32(fm.stack[0]) != abi.Version {
		mod.Close(ctx)
		return nil, fmt.Errorf("%w: the frontmatter module is not of ABI %d", ErrBadBinary, abi.Version)
	}
	inst.fm = fm
	return fm, nil
}

// closeFrontmatter discards inst's frontmatter instance, if any.
func (inst *instance) closeFrontmatter(ctx context.Context) {
	if inst.fm != nil {
		inst.fm.mod.Close(ctx)
		inst.fm = nil
	}
}

// parseFrontmatter runs skilldex_frontmatter_parse on path and text and
// returns a copy of the encoded result. After a trap the frontmatter
// instance is discarded (the next file gets a new one).
func (inst *instance) parseFrontmatter(ctx context.Context, path, text []byte) ([]byte, error) {
	fm, err := inst.frontmatter(ctx)
	if err != nil {
		return nil, err
	}
	result, err := fm.run(ctx, path, text)
	if err != nil {
		inst.closeFrontmatter(ctx)
		return nil, fmt.Errorf("the frontmatter module trapped: %v%s", err, inst.stderr.quote())
	}
	return result, nil
}

func (fm *frontmatterInstance) run(ctx context.Context, path, text []byte) ([]byte, error) {
	n := len(path) + len(text)
	if n > abi.MaxRequest {
		return nil, fmt.Errorf("%d bytes is over the request limit", n)
	}
	fm.stack[0] = uint64(n)
	if err := fm.alloc.CallWithStack(ctx, fm.stack[:]); err != nil {
		return nil, err
	}
	ptr := uint32(fm.stack[0])
	mem := fm.mod.Memory()
	if ptr == 0 || !mem.Write(ptr, path) || !mem.Write(ptr+uint32(len(path)), text) {
		return nil, fmt.Errorf("%s returned %#x, no room for %d bytes", abi.ExportAlloc, ptr, n)
	}
	fm.stack[0], fm.stack[1], fm.stack[2] = uint64(ptr), uint64(len(path)), uint64(len(text))
	if err := fm.parse.CallWithStack(ctx, fm.stack[:]); err != nil {
		return nil, err
	}
	rp, rn := uint32(fm.stack[0]>>32), uint32(fm.stack[0])
	b, ok := mem.Read(rp, rn)
	if !ok {
		return nil, fmt.Errorf("result [%#x, +%d) is outside memory", rp, rn)
	}
	return append([]byte(nil), b...), nil
}

// parseFrontmatterImport is parse_frontmatter (ABI.md#parse_frontmatter).
func (inst *instance) parseFrontmatterImport(ctx context.Context, mem api.Memory, stack []uint64) abi.Errno {
	const op = abi.ImportParseFrontmatter
	path := buffer(mem, op, uint32(stack[0]), uint32(stack[1]))
	text := buffer(mem, op, uint32(stack[2]), uint32(stack[3]))
	key := string(path) + "\x00" + string(text)
	result, ok := inst.takePending(op, key)
	if !ok {
		var err error
		if result, err = inst.parseFrontmatter(ctx, path, text); err != nil {
			if inst.e.m.cfg.stderr != nil {
				fmt.Fprintf(inst.e.m.cfg.stderr, "wasmhost: %s: %v\n", op, err)
			}
			return abi.EIO
		}
	}
	return inst.put(mem, op, key, result, uint32(stack[4]), uint32(stack[5]), uint32(stack[6]))
}
