//go:build wasip1

package main

import (
	"unicode"
	_ "unsafe" // go:linkname

	"github.com/skilldex/skilldex/wasm/abi"
)

// The module's memory after _initialize is a build-time snapshot
// (internal/wasmsnap Frontmatter), and each instance draws a fresh hash key
// for the Go runtime: a map filled before that no longer finds its keys.
// The first parse rebuilds every map the complete path reads that a
// package initialiser filled (iterating a map does not hash, so the copy
// holds every entry). The snapshot fails if another package's initialiser
// builds a map that is neither listed here nor declared unread there.

// rehashed is false in the snapshot, so every instance rebuilds at its
// first parse.
var rehashed bool

// resolveEntry has the layout of the YAML libraries' resolveMapItem (the
// value and tag a plain scalar such as "true" or ".inf" resolves to); a
// map's runtime type depends only on that layout.
type resolveEntry struct {
	value any
	tag   string
}

// The two YAML libraries' resolve tables: yaml.v3's, which the complete
// path reads for every plain scalar, and yaml.v2's, which adrg/frontmatter
// links.
//
//go:linkname yamlV3Resolve go.yaml.in/yaml/v3.resolveMap
var yamlV3Resolve map[string]resolveEntry

//go:linkname yamlV2Resolve gopkg.in/yaml%2ev2.resolveMap
var yamlV2Resolve map[string]resolveEntry

func rehashInitMaps() {
	yamlV3Resolve = abi.Rehash(yamlV3Resolve)
	yamlV2Resolve = abi.Rehash(yamlV2Resolve)
	unicode.Categories = abi.Rehash(unicode.Categories)
	unicode.Scripts = abi.Rehash(unicode.Scripts)
	unicode.Properties = abi.Rehash(unicode.Properties)
	unicode.FoldCategory = abi.Rehash(unicode.FoldCategory)
	unicode.FoldScript = abi.Rehash(unicode.FoldScript)
	rehashed = true
}
