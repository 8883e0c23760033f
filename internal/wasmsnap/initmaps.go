package wasmsnap

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/experimental"
)

// initMaps watches Init for maps built by package initialisers. A map
// built before the snapshot hashed its keys under the snapshot's hash key,
// which every instance replaces (see the package doc): its lookups then
// miss. So a package initialiser that builds a map fails the snapshot,
// unless the module rebuilds that package's maps itself at its first call
// (Config.RebuiltInitMaps). Two kinds of map are let through: those the
// Go runtime's own start-up builds (no package initialiser on the stack),
// and syscall's copy of the environment, which stays empty (Init runs with
// no environment; an empty map holds no key hashed under the old key, and
// Setenv would hash under the new one).
type initMaps struct {
	rebuilt []string // package import paths, as the name section spells them ("unicode")
	unread  []string // the same, for maps read only during Init (Config.UnreadInitMaps)
	found   map[string][]string
}

// NewFunctionListener watches Go's map constructors only (runtime.makemap,
// makemap_small, makemap64; a map literal's initialiser calls one of them).
func (w *initMaps) NewFunctionListener(def api.FunctionDefinition) experimental.FunctionListener {
	if !strings.HasPrefix(def.Name(), "runtime.makemap") {
		return nil
	}
	return experimental.FunctionListenerFunc(w.before)
}

func (w *initMaps) before(_ context.Context, _ api.Module, def api.FunctionDefinition, _ []uint64, stack experimental.StackIterator) {
	var chain []string
	for stack.Next() {
		name := stack.Function().Definition().Name()
		chain = append(chain, name)
		if !packageInit.MatchString(name) {
			continue
		}
		pkg := initPackage(name)
		if pkg == "syscall" || slices.Contains(w.rebuilt, pkg) || slices.Contains(w.unread, pkg) {
			return
		}
		if w.found == nil {
			w.found = map[string][]string{}
		}
		if _, ok := w.found[name]; !ok {
			slices.Reverse(chain)
			w.found[name] = chain
		}
		return
	}
}

// err names each package initialiser that built a map, and how.
func (w *initMaps) err() error {
	if len(w.found) == 0 {
		return nil
	}
	var names []string
	for n := range w.found {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "\n\t%s builds a map (%s)", n, strings.Join(w.found[n], " -> "))
	}
	return fmt.Errorf("package initialisers build maps, which go stale when each instance draws its hash key: build them at the first call instead, or rebuild them there and list the package in RebuiltInitMaps:%s", b.String())
}

// initPackage is the package of a package initialiser's name in the name
// section: "unicode" for unicode.map.init.0, "github.com_x_y" for
// github.com_x_y.init.
func initPackage(name string) string {
	if i := strings.Index(name, ".map.init."); i >= 0 {
		return name[:i]
	}
	return name[:strings.LastIndex(name, ".init")]
}
