package memfs_test

import (
	"fmt"
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

// TestMemFS_concurrentBuild: builders and readers may run at once (make
// test runs this package with -race): a reader sees each write whole and
// in order, never a torn or older file, and the last write at the end.
func TestMemFS_concurrentBuild(t *testing.T) {
	t.Parallel()
	const writes = 200
	m := memfs.New()
	must := func(err error) {
		if err != nil {
			t.Error(err)
		}
	}
	must(m.WriteFile("/d/f", []byte{0, 0}))
	done := make(chan bool)
	go func() {
		for i := range writes {
			must(m.WriteFile("/d/f", []byte{byte(i), byte(i)}))
			must(m.WriteFile(fmt.Sprintf("/d/g%03d", i), nil))
		}
		done <- true
	}()
	last, entries := 0, 0
	for range writes {
		data, err := m.ReadFile("/d/f")
		if err != nil || len(data) != 2 || data[0] != data[1] {
			t.Fatalf("ReadFile(/d/f) = %v, %v during writes: want two equal bytes", data, err)
		}
		if int(data[0]) < last {
			t.Fatalf("ReadFile(/d/f) went back from write %d to %d", last, data[0])
		}
		last = int(data[0])
		list, err := m.ReadDir("/d")
		if err != nil || len(list) < entries || list[0].Name != "f" {
			t.Fatalf("ReadDir(/d) = %d entries, %v, after %d: want f first and none lost", len(list), err, entries)
		}
		entries = len(list)
		if real, err := m.Realpath("/d/f"); real != "/d/f" || err != nil {
			t.Fatalf("Realpath(/d/f) = %q, %v", real, err)
		}
	}
	<-done
	if data, _ := m.ReadFile("/d/f"); len(data) != 2 || data[0] != writes-1 {
		t.Errorf("after the writes ReadFile(/d/f) = %v, want the last write", data)
	}
	if list, _ := m.ReadDir("/d"); len(list) != writes+1 {
		t.Errorf("after the writes ReadDir(/d) has %d entries, want %d", len(list), writes+1)
	}
}
