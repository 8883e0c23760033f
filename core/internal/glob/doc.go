// Package glob is github.com/gobwas/glob v1.1.0 (MIT, see LICENSE), copied
// with its debug hooks and its use of fmt removed: that kept fmt, reflect
// and os, about 0.6 MB, in the wasm module (issue 6). Its own tests run
// unchanged, and FuzzFork checks it against the upstream module.
package glob
