// Command benchratio summarises `go test -bench` output for `make bench`:
// the median ns/op of each benchmark over every run it finds on stdin, and
// its ratio to a floor benchmark of the same output.
//
//	go test ./core -run '^$' -bench 'Discover|SyscallFloor' -count 5 | go run ./internal/benchratio -floor SyscallFloor
//
// Run the benchmarks interleaved (a loop around a test binary with
// -test.count 1) rather than with -count N: on a noisy machine, the runs of
// the floor and of the engine then see the same load.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	floor := flag.String("floor", "SyscallFloor", "the benchmark (name without Benchmark and -N) the others are divided by")
	flag.Parse()
	if err := run(os.Stdin, os.Stdout, *floor); err != nil {
		fmt.Fprintln(os.Stderr, "benchratio:", err)
		os.Exit(1)
	}
}

// sample is one benchmark result line; complete is its complete-path-%
// metric (core's BenchmarkDiscover: the share of SKILL.md files a first
// discovery sent to the complete frontmatter path), -1 without one.
type sample struct {
	ns, bytes, allocs, complete float64
}

func run(in io.Reader, out io.Writer, floor string) error {
	runs := map[string][]sample{}
	var order []string
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		name, s, ok := parseLine(sc.Text())
		if !ok {
			continue
		}
		if _, seen := runs[name]; !seen {
			order = append(order, name)
		}
		runs[name] = append(runs[name], s)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	if len(order) == 0 {
		return fmt.Errorf("no benchmark results on stdin")
	}
	floorNs := 0.0
	if f, ok := runs[floor]; ok {
		floorNs = median(f, func(s sample) float64 { return s.ns })
	}
	withComplete := false
	for _, ss := range runs {
		withComplete = withComplete || slices.ContainsFunc(ss, func(s sample) bool { return s.complete >= 0 })
	}
	head, rule := "", ""
	if withComplete {
		head, rule = " complete path |", "---:|"
	}
	fmt.Fprintf(out, "| benchmark | runs | median | allocs/op | B/op | × %s |%s\n|---|---:|---:|---:|---:|---:|%s\n", floor, head, rule)
	for _, name := range order {
		ss := runs[name]
		ns := median(ss, func(s sample) float64 { return s.ns })
		ratio := "-"
		if floorNs > 0 {
			ratio = fmt.Sprintf("%.2f×", ns/floorNs)
			if name != floor {
				ratio = "**" + ratio + "**"
			}
		}
		complete := ""
		if withComplete {
			complete = " - |"
			if c := median(ss, func(s sample) float64 { return s.complete }); c >= 0 {
				complete = fmt.Sprintf(" %.1f%% |", c)
			}
		}
		fmt.Fprintf(out, "| %s | %d | %.2f ms | %.0f | %.0f | %s |%s\n", name, len(ss), ns/1e6,
			median(ss, func(s sample) float64 { return s.allocs }), median(ss, func(s sample) float64 { return s.bytes }), ratio, complete)
	}
	return nil
}

// parseLine reads `BenchmarkX/y-2  20  123 ns/op  45 B/op  6 allocs/op`.
func parseLine(line string) (string, sample, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", sample{}, false
	}
	name := strings.TrimPrefix(f[0], "Benchmark")
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	s := sample{complete: -1}
	found := false
	for i := 2; i+1 < len(f); i++ {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			continue
		}
		switch f[i+1] {
		case "ns/op":
			s.ns, found = v, true
		case "B/op":
			s.bytes = v
		case "allocs/op":
			s.allocs = v
		case "complete-path-%":
			s.complete = v
		}
	}
	return name, s, found
}

func median(ss []sample, f func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	slices.Sort(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}
