//go:build skilldex_splityaml

package core

// linkedParser fails: this build (the wasm engine module) links no complete
// frontmatter parser; its host provides one (see UseFrontmatterParser).
func linkedParser([]byte, string, string) ([]byte, error) {
	return nil, errNoCompleteParser
}
