package core

// scanFrontmatter is the fast path for the common YAML subset (issue 6). It
// reports false when it declines src, which then goes to yaml.v3.
func scanFrontmatter(src string) (*Map, bool) {
	return nil, false
}
