package wasmsnap

import "testing"

// Which function names are package initialisers: the methods named init
// and the closures inside initialisers are not.
func TestPackageInit(t *testing.T) {
	for _, c := range []struct {
		s    string
		want bool
	}{
		{"runtime.init", true}, {"runtime.init.0", true}, {"github.com_skilldex_skilldex_wire.init", true},
		{"internal_godebug.init.0", true}, {"io_fs.init", true}, {"unicode.map.init.0", true},
		{"runtime.__mheap_.init", false}, {"unicode.T.init", false}, {"pkg.init.func1", false}, {"pkg.init.0.func1", false},
		{"github.com_gobwas_glob.init.0", true}, {"gopkg.in_yaml.v3.init", false}, {"main.init", true}, {"github.com_x_y.T.init", false},
	} {
		if got := packageInit.MatchString(c.s); got != c.want {
			t.Errorf("%s: %v", c.s, got)
		}
	}
}
