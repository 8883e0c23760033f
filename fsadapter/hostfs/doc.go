// Package hostfs is the [core.FS] of the skilldex wasm module: every call
// goes to the host through the filesystem imports of the ABI (abi.HostModule; see
// wasm/ABI.md and package [github.com/skilldex/skilldex/wasm/abi]).
//
// It exists only for GOOS=wasip1; on other platforms the package is empty
// (this file), so `go vet ./...` and `go build ./...` still work there.
//
// # Round trips
//
// One import call per FS call in the common case. Results land straight in
// guest memory: read_dir and realpath write into a reusable scratch buffer,
// read_file writes into the slice that is returned. A result that does not
// fit comes back as BufferTooSmall with the size needed, and the call is
// repeated once with a buffer of that size (again if the file grew).
//
// [FS.ReadFilePrefix] reads at most n bytes in one round trip, which is how
// discovery reads only the frontmatter of a SKILL.md.
//
// # Errors
//
// A failed import returns an errno; the FS turns it into a
// [*core.PathError] whose Code is the errno's POSIX name ("EIO" for one the
// table does not know). A host that breaks the ABI (reports more bytes than
// the buffer holds, a malformed read_dir listing) makes the FS panic, which
// the wasm export turns into an INTERNAL error reply.
//
// # Concurrency
//
// An FS serialises its calls with a mutex; the module is single-threaded
// anyway.
package hostfs
