// Package wasmsnap writes a build-time snapshot of a Go wasip1 reactor
// module: it runs the module's _initialize once under wazero's interpreter
// and emits a module whose memory (data segments) and globals start in the
// state _initialize left, so that an instance skips Go's start-up (the
// runtime and every package initialiser). `make build` ships the engine
// module this way (wasm/ABI.md#the-module); the command is cmd/wasmsnap.
//
// The rules it implements:
//
//   - Reproducible: _initialize runs with a fixed entropy stream (ChaCha8
//     from a fixed seed), no arguments, no environment, a monotonic clock
//     that starts at 1 ns and advances 1 ns a read and a wall clock at the
//     epoch; the same module gives the same bytes. Any host import other
//     than WASI fails the snapshot, as does output on stdout or stderr.
//   - No shared hash key: the Go runtime's hash key is in the snapshot, so
//     it is public, and with a known key anyone can write map keys that
//     collide whatever a map's seed (wyhash zeroes its state when 8 bytes
//     of the key equal a key word): a malicious workspace could make one
//     map's directory grow until the module runs out of memory. The new
//     _initialize draws the key afresh with random_get (locateHashKey finds
//     it: the runtime's first generator draws, recomputed from the entropy
//     it read), and traps on an errno. The generator's own state is not
//     renewed: per-map seeds follow the snapshot's sequence in every
//     instance, which a secret key makes harmless.
//   - Maps built at init are stale after that (their keys were hashed
//     under the old key): the module must build none, or rebuild them at
//     its first call (wasm/main.go does both). The snapshot enforces it: a
//     map built by a package initialiser fails it, unless the caller lists
//     the package as rebuilt (initmaps.go).
//   - The init contract of Go's reactors stays: _initialize twice traps, and
//     so does any other export before _initialize (a new global records
//     that it ran; every exported function gets a wrapper that checks it),
//     so that no instance runs on the published key. Go's messages on fd 2
//     are gone with Go's start-up.
//   - Zero runs of 8 bytes or more split data segments (a segment's header
//     costs about that much), within the engines' limit on their number.
//   - The Go runtime's findfunctab (two non-zero bytes every 20, which would
//     be one segment each: 39,000 of the engine's) is left out of the data
//     and written with one loop the first time runtime.findfunc, its only
//     reader, runs; the pclntab, read only through what findfunc returns,
//     moves to a passive segment that the same first call copies in
//     (functab.go). A one-shot call that never collects garbage touches
//     neither (1.3 MB). Otherwise an instance's memory after _initialize is
//     the snapshot's, byte for byte, but for the hash key.
//
// The build's last step adds V8's compilation hints to the snapshot:
// internal/wasmhints chooses the functions, and AddHints and Hints
// (hints.go) write and read the section with this package's binary reader.
package wasmsnap
