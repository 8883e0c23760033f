//go:build wasip1

package main

// The module's garbage-collection policy. In a reactor the Go runtime runs
// only while an export runs: a collection cycle it starts inside one call
// does not finish there, and linear memory, which never shrinks, keeps
// whatever the heap grew to. So the module decides itself when to collect:
// after a call that allocated more than gcAfter (at the start of the next
// call, collectBefore), every collectEvery within a large call
// (collectInCall), and with the runtime's paced collector off for the rest
// of a call once it has moved largeGate of data (largeCall). skilldex_call
// in main.go drives it; the measurements behind each constant are in its
// comment and in docs/PERF-NOTES.md.

import (
	"runtime"
	"runtime/debug"
)

// gcAfter is how much a call may allocate before the module collects
// garbage after it, at the start of the next call (collectPending). In a reactor the Go runtime runs only inside calls,
// so a GC cycle started during one call may not finish before the host
// makes the next, and the heap (hence linear memory, which never shrinks)
// grows far beyond what is live: 1000-skill discoveries grew memory to
// 90-300 MiB. A collection after a call that allocated a lot keeps
// it at the live size; small calls skip it, since a collection costs more
// than they do. The threshold is low enough that a discovery of a few
// hundred skills is followed by one: the next call then starts from the live
// heap, and a 1,000-skill discovery runs without a cycle of the collector
// going on (its write barriers and assists) and ends 10% sooner, the
// collection included (js/bench/abreplay.mjs; at 4 MiB only
// the discoveries of a few thousand skills had it).
const gcAfter = 1 << 20

// memStats is allocated's scratch. runtime.ReadMemStats rather than
// runtime/metrics, whose metric table costs the module about 21 KB:
// in a single-threaded reactor the stop-the-world it takes is
// a few microseconds.
var memStats runtime.MemStats

// allocated is the bytes allocated on the heap since the module started.
func allocated() uint64 {
	runtime.ReadMemStats(&memStats)
	return memStats.TotalAlloc
}

// readGate is how much traffic (traffic) a call must have seen since the
// last reading of allocated before the module reads it again. Reading it
// stops the world and flushes every allocation cache: on a fresh instance
// in V8 that is about 40 KB of runtime code to compile (and then to
// optimise, as the loops of readmemstats_m and procresize soon ask for)
// for a first call on a small workspace. Below the gate a call
// cannot have allocated anything near gcAfter: a discovery allocates about
// 0.8 bytes per byte of traffic.
const readGate = 1 << 20

var (
	// lastAlloc and lastTraffic are allocated and traffic at the last
	// reading (zero before the first: the heap then holds only what
	// package initialisation allocated).
	lastAlloc, lastTraffic uint64
	// exchanged is the bytes of every request and reply so far.
	exchanged uint64
)

// traffic is a measure of the work the module has done, which grows
// roughly as it allocates and costs nothing to read: the bytes of every
// request and reply and what the host handed it (hostfs.FS.Traffic).
func traffic() uint64 { return exchanged + fsys.Traffic() }

// reading reads allocated and remembers it.
func reading() uint64 {
	lastAlloc, lastTraffic = allocated(), traffic()
	return lastAlloc
}

// collectPending is set by a call that saw readGate of traffic or turned
// the paced collector off (largeCall): the next call begins by reading how
// much it allocated (since pendingBefore) and collects the garbage if that
// is over gcAfter (collectBefore). Deferred to the next call rather than
// done at the end of this one: the heap a call starts from is the same
// either way, but a process that makes one call and exits (a script, the
// CLI) then never runs the collector, whose code (the runtime's sweep,
// scheduler and stop-the-world, 50-60 KB) V8 would compile, and soon
// optimise, for nothing.
var (
	collectPending bool
	pendingBefore  uint64
)

// collectBefore runs the collection a previous call left pending.
func collectBefore() {
	collectPending = false
	if reading()-pendingBefore > gcAfter {
		runtime.GC()
		reading()
	}
}

// collectAt is allocated() when the running call began or last collected.
var collectAt uint64

// collectEvery is how much a large call may allocate between collections
// of its own (collectInCall). 10,000 skills, with the frontmatter cache
// (core.FrontmatterCache) and the last reply live through the call, took
// 34.5 MiB of linear memory at 10 MiB, 33.5 at 5, 32.0 at 2.5 and at 1.5
// (a call reads its allocation only every readGate of traffic), and were
// no slower at 1.5 than at 10 (js/bench/ab.mjs, interleaved).
const collectEvery = 3 << 19

// pacingOff is set while the Go runtime's paced collector is off: from
// the moment a call has moved largeGate of data (largeCall) until the next
// call begins.
var pacingOff bool

// largeCall runs once a call has moved largeGate of data through the host
// filesystem (hostfs.FS.OnTraffic), and again after each readGate more.
// The first time, it turns the runtime's paced collector off for the rest
// of the call: in a reactor a cycle the runtime starts inside a call does
// not finish there (its background workers never get scheduled) but turns
// on write barriers and mark assists for the rest of it. The first
// 1,000-skill discovery of a fresh instance started one: V8 compiled the
// collector and the scheduler for it (141 functions, 146 KB of code, a
// fifth of what that call compiles), and warm discoveries ran about 11%
// slower with one (js/bench/abreplay.mjs). From then on the
// call's garbage is the module's own business: collectInCall within it,
// collectBefore at the start of the next, which also turns the paced
// collector back on for the small calls, whose garbage only it collects.
func largeCall() {
	if pacingOff {
		collectInCall()
		armLargeCall(readGate)
		return
	}
	debug.SetGCPercent(-1)
	pacingOff = true
	armLargeCall(firstReadGate)
}

// armLargeCall makes largeCall run after gate more of traffic.
func armLargeCall(gate uint64) { fsys.OnTraffic(fsys.Traffic()+gate, largeCall) }

// firstReadGate is the traffic, after largeGate, before a large call
// first reads allocated (collectInCall). Until then it cannot have
// allocated collectEvery: a discovery allocates about 0.8 bytes per byte of
// traffic (1,000 skills: 3.7 MB for 4.7 MB read). Each reading stops the
// world, and on a fresh instance V8 compiles the runtime code for that
// (about 40 KB: procresize, readmemstats_m, stopTheWorldWithSema) for the
// first time: at readGate, a one-shot discovery of 1,000 skills read it
// four times, to learn each time that no collection was due.
const firstReadGate = 8 << 20

// largeGate is the traffic after which a call is a large one (largeCall):
// early enough that the first discovery of a fresh instance, whose heap
// starts near the paced collector's first goal (4 MiB), turns it off
// before that starts a cycle; a 200-skill discovery moves about this much.
const largeGate = 256 << 10

// collectInCall runs a collection once the call has allocated collectEvery
// since the last. In a reactor the Go runtime completes no collection
// within a call, so a large discovery's garbage (the text of every
// frontmatter it decoded, directory listings, per-root lists) stayed
// beside the reply buffer: 10,000 skills took 36-38 MiB of linear memory.
func collectInCall() {
	if a := reading(); a-collectAt > collectEvery {
		runtime.GC()
		collectAt = reading()
	}
}
