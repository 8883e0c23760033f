// Package wasmhost runs the skilldex WebAssembly module (skilldex.wasm, built
// from ./wasm) inside a Go program, with github.com/tetratelabs/wazero, over
// any [core.FS]. It is the Go twin of the JS package: the same module, the
// same ABI (wasm/ABI.md), the same bytes out for the same filesystem and
// request (SPEC S42).
//
// Most Go programs want package core directly. Use this package to run the
// exact engine binary the other hosts run, or to keep the engine in a
// sandbox (the module sees nothing but the [core.FS] it is given).
//
// # Getting the module
//
// Nothing to build: package [github.com/skilldex/skilldex/embed] holds both
// modules, built from this repository's source and committed (make test
// checks that `make build` reproduces them byte for byte). A blank import
// of it registers them, and this package runs them when given nil:
//
//	import _ "github.com/skilldex/skilldex/embed"
//
//	eng, err := wasmhost.New(ctx, nil, osfs.New())
//	if err != nil { ... } // a module for another ABI version is ErrBadBinary
//	defer eng.Close(ctx)
//	res, err := eng.Discover(ctx, wasmhost.Load{Cwd: "/home/me/proj", Home: "/home/me"})
//
// This package does not import embed itself, so a program may run modules
// of its own build instead and link neither of the embedded ones (about
// 9 MB): pass the bytes of skilldex.wasm to [Compile] or [New], and those
// of skilldex-frontmatter.wasm with [WithFrontmatterModule] (`make build`
// writes both to build/; the commands are in wasm/ABI.md#the-module).
// Given nil with nothing registered, [Compile] fails with [ErrNoModule].
//
// The second module is the complete frontmatter path (yaml.v3 behind
// adrg/frontmatter; wasm/ABI.md#the-frontmatter-module). It is compiled
// and instantiated only the first time the engine's own scanner declines a
// SKILL.md or validate runs ([Module.FrontmatterLoaded]).
//
// # Compile once, instantiate many
//
// [Compile] compiles the module once (about 5 s on a small machine without
// a cache; [WithCompilationCache] makes later processes take 0.1-0.2 s).
// [Module.Instantiate] then makes an [Engine] over one [core.FS] in a few
// tens of milliseconds: the Go runtime inside the module starts, and the ABI
// version is checked. [New] does both for one engine.
//
// # Calls
//
// [Engine.Call] takes a JSON request and returns the module's JSON reply,
// exactly what wire.Call returns for the same FS: an error reply
// ({"error":{"code","message"}}) is a reply, not a Go error. The typed
// methods ([Engine.Discover], [Engine.Resolve], ...) build the request and
// decode the reply into the core types; there an error reply is a
// [*core.Error].
//
// An Engine runs one call at a time (a mutex serialises them; the module is
// single-threaded). For parallelism, instantiate several engines from one
// [Module].
//
// # Failures
//
// Expected filesystem conditions (a missing file, EACCES, a loop) are
// errnos the module turns into warnings, exactly as natively. A call fails
// with a Go error only when the instance cannot answer:
//
//   - it trapped: the module exited (a fatal Go runtime error, such as out
//     of memory), the guest broke the ABI (a pointer outside its memory), or
//     the [core.FS] panicked. The error is a [*core.Error] with code
//     INTERNAL; the instance is discarded and the next call runs on a fresh
//     one (wasm/ABI.md#concurrency-traps-and-re-entry).
//   - ctx is done: before the call, the error wraps ctx.Err() and nothing
//     runs; during the call, the module stops at its next filesystem access
//     (or sooner, when wazero notices), the error wraps ctx.Err(), and the
//     instance is replaced as after a trap. A call that finishes before
//     either point returns its reply.
//   - the engine is closed ([ErrClosed]) or the request exceeds 64 MiB.
//
// # Notes
//
// No type of wazero appears in this package's API, so the engine under it
// can change without breaking callers. The module gets no arguments, no
// environment, no preopened directories: its only way to the outside is
// the [core.FS].
package wasmhost
