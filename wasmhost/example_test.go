package wasmhost_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	// Registers the modules built from this repository as the defaults.
	_ "github.com/skilldex/skilldex/embed"
	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wasmhost"
)

func Example() {
	ctx := context.Background()
	fsys := memfs.New()
	fsys.WriteFile("/home/u/.xcsh/agent/skills/hello/SKILL.md",
		[]byte("---\nname: hello\ndescription: Say hello\n---\nSay hello.\n"))

	// nil: the registered modules, package embed's.
	mod, err := wasmhost.Compile(ctx, nil, wasmhost.WithCompilationCache(filepath.Join(os.TempDir(), "skilldex-cache")))
	if err != nil {
		log.Fatal(err) // errors.Is(err, wasmhost.ErrBadBinary) for a module of another ABI
	}
	defer mod.Close(ctx)
	eng, err := mod.Instantiate(ctx, fsys)
	if err != nil {
		log.Fatal(err)
	}
	res, err := eng.Discover(ctx, wasmhost.Load{Cwd: "/home/u/proj", Home: "/home/u"})
	if err != nil {
		log.Fatal(err)
	}
	for _, s := range res.Skills {
		fmt.Println(s.Name, s.Source, s.Description)
	}
	// The JSON form: the same bytes wire.Call returns.
	reply, err := eng.Call(ctx, []byte(`{"op":"commands","cwd":"/home/u/proj","home":"/home/u"}`))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(string(reply))
	// Output:
	// hello native:user Say hello
	// {"commands":[{"name":"skill:hello","description":"Say hello","path":"/home/u/.xcsh/agent/skills/hello/SKILL.md"}]}
}
