package memfs_test

import (
	"testing"

	"github.com/skilldex/skilldex/core"
	"github.com/skilldex/skilldex/fsadapter/fsadaptertest"
	"github.com/skilldex/skilldex/fsadapter/memfs"
)

// TestMemFS_conformance runs the fsadaptertest checks (S2) with the fixture
// at the root and in a subdirectory.
func TestMemFS_conformance(t *testing.T) {
	t.Parallel()
	for _, root := range []string{"/", "/some/where"} {
		t.Run(root, func(t *testing.T) {
			t.Parallel()
			m := memfs.New()
			if err := fsadaptertest.Build(m, root); err != nil {
				t.Fatal(err)
			}
			if err := fsadaptertest.Check(m, root); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestMemFS_builders(t *testing.T) {
	t.Parallel()
	m := memfs.New()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(m.WriteFile("/d/f", []byte("one")))
	must(m.WriteFile("/d/f", []byte("two"))) // replacing a file is allowed
	must(m.Mkdir("/d"))                      // mkdir -p of an existing dir
	must(m.Symlink("d", "/l"))
	must(m.WriteFile("/l/g", []byte("via link"))) // parents are resolved through links
	must(m.Symlink("nowhere", "/dangling"))
	data := []byte("mine")
	must(m.WriteFile("/copy", data))
	data[0] = 'X'
	if got, _ := m.ReadFile("/copy"); string(got) != "mine" {
		t.Errorf("WriteFile kept the caller's slice: ReadFile = %q", got)
	}
	if got, err := m.ReadFile("/d/g"); err != nil || string(got) != "via link" {
		t.Errorf("ReadFile(/d/g) = %q, %v", got, err)
	}
	if got, _ := m.ReadFile("/d/f"); string(got) != "two" {
		t.Errorf("ReadFile(/d/f) = %q, want the replaced contents", got)
	}
	tests := []struct {
		name string
		err  error
		code string
	}{
		{"file over dir", m.WriteFile("/d", nil), core.EISDIR},
		{"link over file", m.Symlink("x", "/d/f"), "EEXIST"},
		{"file over link", m.WriteFile("/l", nil), "EEXIST"},
		{"dir under file", m.Mkdir("/d/f/x"), core.ENOTDIR},
		{"dir over file", m.Mkdir("/d/f"), core.ENOTDIR},
		{"file under file", m.WriteFile("/d/f/x", nil), core.ENOTDIR},
		{"mkdir over dangling link", m.Mkdir("/dangling"), "EEXIST"},
		{"relative", m.WriteFile("rel", nil), core.EINVAL},
		{"root", m.WriteFile("/", nil), core.EINVAL},
		{"relative mkdir", m.Mkdir("rel"), core.EINVAL},
	}
	for _, tc := range tests {
		// The builders' own codes (EEXIST) are not engine codes, so read
		// the PathError directly rather than through core.POSIXCode.
		pe, _ := tc.err.(*core.PathError)
		if pe == nil || pe.Code != tc.code {
			t.Errorf("%s: %v, want %s", tc.name, tc.err, tc.code)
		}
	}
}

// TestMemFS_concurrentBuild: builders and readers may run at once (run
// with -race).
func TestMemFS_concurrentBuild(t *testing.T) {
	t.Parallel()
	m := memfs.New()
	done := make(chan bool)
	go func() {
		for i := range 200 {
			_ = m.WriteFile("/d/f", []byte{byte(i)})
		}
		done <- true
	}()
	for range 200 {
		_, _ = m.ReadDir("/d")
		_, _ = m.ReadFile("/d/f")
		_, _ = m.Realpath("/d/f")
	}
	<-done
}
