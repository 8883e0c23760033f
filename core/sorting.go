package core

import "sort"

// Every sort in core goes through package sort's interface-based sorts:
// sortFunc and sortStableFunc are slices.SortFunc and
// slices.SortStableFunc, but with one copy of the sorting algorithms in
// the wasm engine module for all element types. slices' generic sorts are
// instantiated once per element shape, about 15 KB of wasm each; the seven
// shapes core sorted pushed the engine module over its 4 MB budget
//. The interface calls cost about 20% of a sort's own time
// (10000 skills: 4.8 ms against 3.9 ms natively), well under 1% of a
// discovery.

// sortable sorts x by cmp through sort.Interface.
type sortable[T any] struct {
	x   []T
	cmp func(a, b T) int
}

func (s sortable[T]) Len() int           { return len(s.x) }
func (s sortable[T]) Less(i, j int) bool { return s.cmp(s.x[i], s.x[j]) < 0 }
func (s sortable[T]) Swap(i, j int)      { s.x[i], s.x[j] = s.x[j], s.x[i] }

// sortFunc sorts x in ascending order of cmp, not stably: callers whose
// cmp can report equal elements that differ use sortStableFunc.
func sortFunc[T any](x []T, cmp func(a, b T) int) { sort.Sort(sortable[T]{x, cmp}) }

// sortStableFunc sorts x in ascending order of cmp, keeping equal elements
// in their order.
func sortStableFunc[T any](x []T, cmp func(a, b T) int) { sort.Stable(sortable[T]{x, cmp}) }
