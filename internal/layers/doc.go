// Package layers holds no code. Its test enforces ARCHITECTURE.md's rule of
// what may import what: core at the bottom; fsadapter and wire on core;
// wasm on both; the hosts on top. A new package must be given its place in
// the test's table.
package layers
