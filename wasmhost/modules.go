package wasmhost

import (
	"errors"
	"sync"
)

// The default modules: what [Compile] and [New] run when given nil, and
// the frontmatter module when no [WithFrontmatterModule] names one. This
// package links no module of its own. A program opts in to the modules
// built from this repository's source with a blank import, which registers
// them:
//
//	import _ "github.com/skilldex/skilldex/embed"
//
// A program that brings its own modules passes their bytes instead, and
// links neither (about 9 MB less in its binary).
var defaults struct {
	sync.RWMutex
	engine, frontmatter []byte
}

// ErrNoModule is returned (wrapped) by [Compile] and [New] given nil when no
// module is registered, and by a call that needs the frontmatter module when
// none was given or registered.
var ErrNoModule = errors.New(`wasmhost: no module: pass the bytes of skilldex.wasm (and WithFrontmatterModule), ` +
	`or import _ "github.com/skilldex/skilldex/embed"`)

// RegisterModules makes engine (skilldex.wasm) and frontmatter
// (skilldex-frontmatter.wasm) the modules [Compile] and [New] run when
// given nil. Package embed calls it when imported; a program that ships the
// modules some other way may call it itself, before compiling. A later call
// replaces the modules for later compilations.
func RegisterModules(engine, frontmatter []byte) {
	defaults.Lock()
	defer defaults.Unlock()
	defaults.engine, defaults.frontmatter = engine, frontmatter
}

// registered returns the registered modules.
func registered() (engine, frontmatter []byte) {
	defaults.RLock()
	defer defaults.RUnlock()
	return defaults.engine, defaults.frontmatter
}
