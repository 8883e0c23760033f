package wasmhost

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// TestCompile_noModule: without a registered module (no import of package
// embed) Compile(nil) and New(nil) fail at once with ErrNoModule, whose
// message names the import that fixes it.
func TestCompile_noModule(t *testing.T) {
	engine, frontmatter := registered()
	RegisterModules(nil, nil)
	t.Cleanup(func() { RegisterModules(engine, frontmatter) })
	ctx := context.Background()
	if _, err := Compile(ctx, nil); !errors.Is(err, ErrNoModule) {
		t.Errorf("Compile(nil) = %v, want ErrNoModule", err)
	}
	if _, err := New(ctx, nil, memfs.New()); !errors.Is(err, ErrNoModule) {
		t.Errorf("New(nil) = %v, want ErrNoModule", err)
	}
	if want := `import _ "github.com/skilldex/skilldex/embed"`; !strings.Contains(ErrNoModule.Error(), want) {
		t.Errorf("ErrNoModule = %q, does not name %s", ErrNoModule, want)
	}
}
