package core

// HeadFirstRead is headFirstRead, for the external tests (prefetch_test.go):
// the buffer size of discovery's first read of a SKILL.md, which its hint
// names.
const HeadFirstRead = headFirstRead

// Hits is how many lookups the cache has served, for the external tests
// (fmcache_discover_test.go).
func (c *FrontmatterCache) Hits() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits
}

// MaxCachedSkills is the most SKILL.md files a discovery may have and use a
// FrontmatterCache.
const MaxCachedSkills = maxCachedSkills
