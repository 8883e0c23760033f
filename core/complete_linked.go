//go:build !skilldex_splityaml

package core

import "github.com/skilldex/skilldex/internal/frontmatter"

// linkedParser is internal/frontmatter, linked into this build.
func linkedParser(b []byte, path, text string) ([]byte, error) {
	return frontmatter.AppendParse(b, path, text), nil
}
