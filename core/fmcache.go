package core

import (
	"hash/maphash"
	"sync"

	"github.com/skilldex/skilldex/internal/siphash"
)

// FrontmatterCache keeps the direct path's results (scanjson.go: a
// frontmatter's JSON and the skill fields read from it) from one discovery
// to the next, keyed by the frontmatter's bytes as read. An editor
// discovers again and again, and between two calls nearly every SKILL.md is
// unchanged: the file is still read (a cache never answers for the
// filesystem), but its frontmatter is not scanned again. The result is a
// function of those bytes alone, so a discovery gives the same bytes with
// or without a cache (S42); the scan's cost is all it saves (a
// fifth of a warm 1,000-skill discovery in the wasm module).
//
// An entry is named by SipHash-2-4-128 of the bytes (internal/siphash)
// under a key each cache draws at its first discovery, not by the bytes
// themselves: keeping them, to compare whole, took 450 bytes a skill, and
// at 10,000 skills put the wasm module over the 32 MiB target of linear
// memory. Two frontmatters share a name only by a collision of a keyed
// 128-bit function that a SKILL.md's author cannot compute (the key and
// the sums never leave the process), so a result is never another
// frontmatter's.
//
// It holds at most maxCachedBytes of JSON. When a result does not fit, the
// entries neither this discovery nor the one before it used make room
// (edited files leave theirs behind), and every sweepEvery discoveries
// they go anyway, so a long session of edits does not keep the old
// versions; while every entry is in use (a workspace larger than the
// cache), new results are not kept, so the cached part of a large
// workspace keeps hitting rather than being replaced at every call.
//
// A discovery that uses a cache returns skills whose strings and lists
// (Globs, Contexts) are shared with it: read them, never write into them.
// The zero value is an empty cache; it is safe for concurrent use.
type FrontmatterCache struct {
	mu      sync.Mutex
	entries map[cacheKey]*cachedScan
	k0, k1  uint64 // the SipHash key, drawn by the first discovery (use)
	keyed   bool
	bytes   int    // what entries hold: JSON and cachedOverhead each
	gen     uint32 // discoveries begun
	swept   uint32 // the gen of the last sweep (at most one a discovery)
	hits    int    // lookups served, for tests
}

// cacheKey names a frontmatter in a cache: SipHash-2-4-128 of its bytes.
type cacheKey [2]uint64

// cachedScan is one frontmatter's direct-path result.
type cachedScan struct {
	raw    string // the frontmatter's JSON
	fields skillFields
	used   uint32 // the gen of the discovery that last used it
}

// entryCost is what the entry of JSON raw counts for against maxCachedBytes.
func entryCost(raw string) int { return len(raw) + cachedOverhead }

// A FrontmatterCache serves discoveries of at most maxCachedSkills SKILL.md
// files and holds at most maxCachedBytes: 10,000 typical skills take about
// 5.6 MB (a frontmatter's JSON of ~400 bytes and an entry's overhead).
// Keyed by the bytes themselves, 10,000 skills had taken the wasm module's
// linear memory from 28.5 to 36.5 MiB, over the 32 MiB target.
const (
	maxCachedSkills = 12000
	maxCachedBytes  = 8 << 20
)

// cachedOverhead is what an entry costs besides its JSON: the map's slot
// (key included), the entry and the fields' headers.
const cachedOverhead = 176

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
	if !c.keyed {
		c.k0, c.k1 = drawKey()
		c.keyed = true
	}
	c.gen++
	if c.gen%sweepEvery == 0 {
		c.sweep()
	}
	return c
}

// sweepEvery is how many discoveries may pass between two sweeps.
const sweepEvery = 64

// drawKey draws a SipHash key. hash/maphash hashes with the Go runtime's
// hash key, which is random in every process and, in the wasm module,
// drawn afresh by every instance (internal/wasmsnap); its seeds alone
// follow the build-time snapshot's sequence there, and a secret key makes
// that harmless.
func drawKey() (uint64, uint64) {
	seed := maphash.MakeSeed()
	return maphash.String(seed, "skilldex frontmatter cache k0"), maphash.String(seed, "skilldex frontmatter cache k1")
}

// sum names the frontmatter bytes src in c. Only after use: the key is
// drawn there, under the lock, and never changes.
func (c *FrontmatterCache) sum(src []byte) cacheKey {
	lo, hi := siphash.Sum128(c.k0, c.k1, src)
	return cacheKey{lo, hi}
}

// lookup returns the result kept for the frontmatter named k, or nil.
func (c *FrontmatterCache) lookup(k cacheKey) *cachedScan {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[k]
	if e != nil {
		e.used = c.gen
		c.hits++
	}
	return e
}

// add keeps raw, the JSON the direct path wrote for the frontmatter named
// k, and fields, read from raw: strings of their own (never slices of a
// read buffer or an arena, which an entry would keep alive).
func (c *FrontmatterCache) add(k cacheKey, raw string, fields skillFields) {
	size := entryCost(raw)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.bytes+size > maxCachedBytes {
		c.sweep()
		if c.bytes+size > maxCachedBytes {
			return
		}
	}
	if c.entries == nil {
		c.entries = make(map[cacheKey]*cachedScan)
	}
	if _, ok := c.entries[k]; ok {
		return // another discovery kept it meanwhile
	}
	c.entries[k] = &cachedScan{raw: raw, fields: fields, used: c.gen}
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
			c.bytes -= entryCost(e.raw)
		}
	}
}
