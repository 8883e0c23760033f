// Package references holds no code. Its test checks that every file the
// code and the docs refer to is in the repository: a path from
// the repository root (core/..., wasm/ABI.md, js/index.d.ts, ...), a
// relative markdown link, or a bare file name (an upper-case document such
// as SPEC.md, or a Go test file). A reference that has gone stale fails with the file and
// line that holds it.
//
// Its second test holds the README's Performance table to the output of
// the last `make bench` (docs/bench/*.md: go.md, js.md, js-deno.md, and
// peers.md and profile-*.md from bench-peers and profile-*): every measured
// figure must be there, so the README cannot claim numbers no bench
// produced.
package references
