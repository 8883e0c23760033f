package core

import "sync"

// FrontmatterCache keeps the direct path's results (scanjson.go: a
// frontmatter's JSON and the skill fields read from it) from one discovery
// to the next, keyed by the frontmatter's bytes as read. An editor
// discovers again and again, and between two calls nearly every SKILL.md is
// unchanged: the file is still read (a cache never answers for the
// filesystem), but its frontmatter is not scanned again. The result is a
// function of those bytes alone, and a hit compares them whole, so a
// discovery gives the same bytes with or without a cache (S42); the scan's
// cost is all it saves (issue 13: a fifth of a warm 1,000-skill discovery
// in the wasm module).
//
// It holds at most maxCachedBytes of frontmatter and JSON. When a result
// does not fit, the entries neither this discovery nor the one before it
// used make room (edited files leave theirs behind), and every
// sweepEvery discoveries they go anyway, so a long session of edits does
// not keep the old versions; while every entry is in use (a workspace
// larger than the cache), new results are not kept, so the cached part of
// a large workspace keeps hitting rather than being replaced at every
// call.
//
// A discovery that uses a cache returns skills whose strings and lists
// (Globs, Contexts) are shared with it: read them, never write into them.
// The zero value is an empty cache; it is safe for concurrent use.
type FrontmatterCache struct {
	mu      sync.Mutex
	entries map[string]*cachedScan
	bytes   int    // what entries hold: keys, JSON and cachedOverhead each
	gen     uint32 // discoveries begun
	swept   uint32 // the gen of the last sweep (at most one a discovery)
	hits    int    // lookups served, for tests
}

// cachedScan is one frontmatter's direct-path result.
type cachedScan struct {
	raw    string // the frontmatter's JSON
	fields skillFields
	size   int
	used   uint32 // the gen of the discovery that last used it
}

// A FrontmatterCache serves discoveries of at most maxCachedSkills SKILL.md
// files and holds at most maxCachedBytes: 1,000 typical skills take about
// 1 MiB (a frontmatter of ~450 bytes and its JSON). Not more: a cache of
// 10,000 skills made their warm discovery 10% faster but took the wasm
// module's linear memory from 28.5 to 36.5 MiB (the cache and the reply
// buffer both live through the next call, and Go's collector lets the heap
// reach twice what is live), over issue 13's bound of 32.
const (
	maxCachedSkills = 4000
	maxCachedBytes  = 8 << 20
)

// cachedOverhead is what an entry costs besides its bytes: the map's slot,
// the entry and the fields' headers.
const cachedOverhead = 160

// use begins a discovery of candidates SKILL.md files and returns the cache
// it is to use: c, or nil when the discovery is larger than maxCachedSkills,
// whose entries then go (a cache holding part of a large workspace paid
// more in lookups that missed than it saved: 10,000 skills 0.81x -> 0.90x
// the loop).
func (c *FrontmatterCache) use(candidates int) *FrontmatterCache {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if candidates > maxCachedSkills {
		c.entries, c.bytes = nil, 0
		return nil
	}
	c.gen++
	if c.gen%sweepEvery == 0 {
		c.sweep()
	}
	return c
}

// sweepEvery is how many discoveries may pass between two sweeps.
const sweepEvery = 64

// lookup returns the result kept for the frontmatter bytes src, or nil.
func (c *FrontmatterCache) lookup(src []byte) *cachedScan {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[string(src)]
	if e != nil {
		e.used = c.gen
		c.hits++
	}
	return e
}

// add keeps raw, the JSON the direct path wrote for the frontmatter bytes
// key, and fields, read from raw: strings of their own (never slices of a
// read buffer or an arena, which an entry would keep alive).
func (c *FrontmatterCache) add(key, raw string, fields skillFields) {
	if c == nil {
		return
	}
	size := len(key) + len(raw) + cachedOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes+size > maxCachedBytes {
		c.sweep()
		if c.bytes+size > maxCachedBytes {
			return
		}
	}
	if c.entries == nil {
		c.entries = make(map[string]*cachedScan)
	}
	if _, ok := c.entries[key]; ok {
		return // another discovery kept it meanwhile
	}
	c.entries[key] = &cachedScan{raw: raw, fields: fields, size: size, used: c.gen}
	c.bytes += size
}

// sweep drops the entries neither this discovery nor the last used (one
// not yet reached in this one was used in the last), at most once a
// discovery: a later miss in the same discovery would find nothing more.
func (c *FrontmatterCache) sweep() {
	if c.swept == c.gen {
		return
	}
	c.swept = c.gen
	for k, e := range c.entries {
		if c.gen-e.used >= 2 {
			delete(c.entries, k)
			c.bytes -= e.size
		}
	}
}
