package core

import (
	"reflect"
	"strings"
	"testing"
)

// A FrontmatterCache changes no result (S42): what the direct path gives
// from the cache is what it gives by scanning.

// checkCached runs skillFrontmatterInto on each SKILL.md in docs twice:
// through a frontmatterJSON with the shared cache c, and through one
// without a cache, and fails when the two differ in anything the caller
// reads. It returns how many of the cached runs were hits.
func checkCached(t testing.TB, c *FrontmatterCache, docs ...[]byte) int {
	t.Helper()
	hits := 0
	for _, doc := range docs {
		var plain frontmatterJSON
		var plainKeep stringArena
		fm, warnings, reject := skillFrontmatterInto("/s/SKILL.md", doc, &plain)
		cached := frontmatterJSON{cache: c}
		var cachedKeep stringArena
		cfm, cwarnings, creject := skillFrontmatterInto("/s/SKILL.md", doc, &cached)
		if (fm == nil) != (cfm == nil) || reject != creject || !reflect.DeepEqual(warnings, cwarnings) {
			t.Fatalf("%q: with the cache (map %v, %q, %q), without (map %v, %q, %q)",
				doc, cfm != nil, cwarnings, creject, fm != nil, warnings, reject)
		}
		if fm != nil {
			if cached.hit != nil {
				t.Fatalf("%q: a hit for a document the direct path declines", doc)
			}
			continue
		}
		if cached.hit != nil {
			hits++
		}
		raw, fields := plain.result(&plainKeep)
		craw, cfields := cached.result(&cachedKeep)
		if raw != craw || !reflect.DeepEqual(fields, cfields) {
			t.Fatalf("%q:\nwith the cache %s %+v\nwithout        %s %+v", doc, craw, cfields, raw, fields)
		}
	}
	return hits
}

func skillDoc(frontmatter string) []byte {
	return []byte("---\n" + frontmatter + "---\n\n# Body\n")
}

// TestFrontmatterCache_hits: a frontmatter seen before is a hit and gives
// the scan's result; one byte of difference is a miss; a document the
// direct path declines is never kept.
func TestFrontmatterCache_hits(t *testing.T) {
	var docs [][]byte
	for _, fm := range realisticFrontmatters {
		docs = append(docs, skillDoc(fm))
	}
	docs = append(docs,
		skillDoc("name: café\ndescription: Ünïcödé — with \"quotes\" and \\ backslashes\nglobs: [\"**/*.md\", 'src/**']\n"),
		[]byte("\xEF\xBB\xBF---\nname: bom\ndescription: a BOM before the fence\n---\n"),
		skillDoc("name: repeated\nname: twice\ndescription: a repeated key takes the Map path\n"),
		skillDoc("name: [unclosed\n"), // invalid YAML: the complete path
		[]byte("no frontmatter at all\n"),
	)
	c := &FrontmatterCache{}
	c.use(len(docs))
	if hits := checkCached(t, c, docs...); hits != 0 {
		t.Fatalf("first pass: %d hits in an empty cache", hits)
	}
	direct := len(c.entries)
	if direct < len(realisticFrontmatters) {
		t.Fatalf("kept %d results, want at least the %d realistic ones", direct, len(realisticFrontmatters))
	}
	c.use(len(docs))
	if hits := checkCached(t, c, docs...); hits != direct {
		t.Fatalf("second pass: %d hits, want %d (every kept result)", hits, direct)
	}
	// One byte more in a value: a new entry, not the old one's result.
	changed := skillDoc(strings.Replace(realisticFrontmatters[0], "pdf-tools", "pdf-toolz", 1))
	if hits := checkCached(t, c, changed); hits != 0 {
		t.Fatal("an edited frontmatter hit the cache")
	}
	if hits := checkCached(t, c, changed); hits != 1 {
		t.Fatal("the edited frontmatter was not kept")
	}
}

// TestFrontmatterCache_bounds: an entry unused by two discoveries makes
// room for a new one; while every entry is in use, nothing new is kept; a
// discovery larger than maxCachedSkills uses no cache and empties it.
func TestFrontmatterCache_bounds(t *testing.T) {
	big := strings.Repeat("x", maxCachedBytes/4)
	fields := skillFields{name: big}
	key := func(i int) cacheKey { return cacheKey{uint64(i), 0} }
	c := &FrontmatterCache{}
	c.use(1)
	for i := 0; i < 4; i++ {
		c.add(key(i), big, fields)
	}
	if len(c.entries) != 3 || c.bytes > maxCachedBytes {
		t.Fatalf("%d entries, %d bytes: want 3 within %d", len(c.entries), c.bytes, maxCachedBytes)
	}
	// The next discovery uses entry 0 only; the one after adds entry 3:
	// entries 1 and 2, unused by both, make room.
	c.use(1)
	if c.lookup(key(0)) == nil {
		t.Fatal("entry 0 missing")
	}
	c.use(1)
	c.add(key(3), big, fields)
	if c.lookup(key(3)) == nil {
		t.Fatal("entry 3 not kept after a sweep")
	}
	if c.lookup(key(0)) == nil {
		t.Fatal("entry 0, used by the last discovery, was swept")
	}
	if c.lookup(key(1)) != nil {
		t.Fatal("entry 1, unused by two discoveries, was kept")
	}
	if e := c.lookup(key(3)); e.raw != big || e.fields.name != big {
		t.Fatal("an entry's result is not what was added")
	}
	// Every entry in use by this discovery: a new one is not kept.
	c.use(1)
	c.lookup(key(0))
	c.lookup(key(3))
	c.add(key(5), big, fields)
	c.add(key(6), big, fields)
	if c.lookup(key(6)) != nil || c.bytes > maxCachedBytes {
		t.Fatalf("kept an entry over the bound: %d bytes", c.bytes)
	}
	// Every sweepEvery discoveries, what the last two did not use goes,
	// though there is room.
	c.use(1)
	c.add(key(7), "small", fields)
	for c.gen%sweepEvery != sweepEvery-1 {
		c.use(1)
		c.lookup(key(0))
	}
	if _, ok := c.entries[key(7)]; !ok {
		t.Fatal("an entry unused for a while was swept before its time")
	}
	c.use(1)
	if _, ok := c.entries[key(7)]; ok {
		t.Fatalf("an entry unused for %d discoveries is still there", sweepEvery)
	}
	if _, ok := c.entries[key(0)]; !ok {
		t.Fatal("the periodic sweep dropped an entry the last discovery used")
	}
	if got := c.use(maxCachedSkills + 1); got != nil || len(c.entries) != 0 || c.bytes != 0 {
		t.Fatalf("a discovery over %d skills: cache %v, %d entries left", maxCachedSkills, got, len(c.entries))
	}
	var none *FrontmatterCache
	if none.use(1) != nil {
		t.Fatal("a nil cache is used")
	}
}

// TestFrontmatterCache_key: each cache draws its own SipHash key at its
// first discovery, so that no one can know which frontmatters a cache
// would take for one another; the key names a frontmatter by all its bytes.
// A cache that took one frontmatter for another would break S42 (the same
// bytes with or without a cache).
func TestFrontmatterCache_key(t *testing.T) {
	a, b := &FrontmatterCache{}, &FrontmatterCache{}
	a.use(1)
	b.use(1)
	if !a.keyed || (a.k0 == 0 && a.k1 == 0) {
		t.Fatal("a cache in use has no key")
	}
	if a.k0 == b.k0 && a.k1 == b.k1 {
		t.Fatal("two caches drew the same key")
	}
	k0, k1 := a.k0, a.k1
	a.use(1)
	if a.k0 != k0 || a.k1 != k1 {
		t.Fatal("a cache's key changed between discoveries")
	}
	fm := []byte(realisticFrontmatters[0])
	if a.sum(fm) == b.sum(fm) {
		t.Fatal("two keys named a frontmatter alike")
	}
	longer := append(append([]byte(nil), fm...), ' ')
	if a.sum(fm) == a.sum(longer) || a.sum(fm) != a.sum(append([]byte(nil), fm...)) {
		t.Fatal("a cache's name for a frontmatter is not a function of its bytes")
	}
}

// FuzzFrontmatterCache runs pairs of SKILL.md files through a cache and
// without one, each twice, so that hits and misses on similar documents
// interleave.
func FuzzFrontmatterCache(f *testing.F) {
	for i, fm := range realisticFrontmatters {
		f.Add(skillDoc(fm), skillDoc(realisticFrontmatters[(i+1)%len(realisticFrontmatters)]))
	}
	f.Add(skillDoc("name: a\ndescription: b\n"), skillDoc("name: a\ndescription: b \n"))
	f.Add(skillDoc("description: \x01\x01\nname: x\n"), []byte("---\nname: x\n"))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		c := &FrontmatterCache{}
		c.use(2)
		checkCached(t, c, a, b, a, b)
	})
}
