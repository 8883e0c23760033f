package main

import (
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	in := `goos: linux
BenchmarkDiscover/memfs-2   20   30000000 ns/op   100 B/op   10 allocs/op
BenchmarkSyscallFloor-2     20   60000000 ns/op
BenchmarkDiscover/memfs-2   20   10000000 ns/op   100 B/op   10 allocs/op
BenchmarkSyscallFloor-2     20   40000000 ns/op
BenchmarkDiscover/memfs-2   20   20000000 ns/op   300 B/op   30 allocs/op
BenchmarkSyscallFloor-2     20   50000000 ns/op
PASS
`
	var out strings.Builder
	if err := run(strings.NewReader(in), &out, "SyscallFloor"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Discover/memfs | 3 | 20.00 ms | 10 | 100 | **0.40×** |",
		"| SyscallFloor | 3 | 50.00 ms | 0 | 0 | 1.00× |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
	if err := run(strings.NewReader("PASS\n"), &out, "SyscallFloor"); err == nil {
		t.Error("no results: want an error")
	}
}

// TestCompletePath: a benchmark reporting complete-path-% gets its median
// in a column of its own; one without, a dash.
func TestCompletePath(t *testing.T) {
	in := `BenchmarkDiscover/osfs-2   20   30000000 ns/op   3.100 complete-path-%   100 B/op   10 allocs/op
BenchmarkSyscallFloor-2     20   60000000 ns/op
BenchmarkDiscover/osfs-2   20   10000000 ns/op   3.100 complete-path-%   100 B/op   10 allocs/op
`
	var out strings.Builder
	if err := run(strings.NewReader(in), &out, "SyscallFloor"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| × SyscallFloor | complete path |",
		"| Discover/osfs | 2 | 20.00 ms | 10 | 100 | **0.33×** | 3.1% |",
		"| SyscallFloor | 1 | 60.00 ms | 0 | 0 | 1.00× | - |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("missing %q in\n%s", want, out.String())
		}
	}
}
