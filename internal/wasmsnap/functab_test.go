package wasmsnap

import (
	"bytes"
	"context"
	"encoding/binary"
	"testing"
)

// table writes a findfunctab-shaped run of n records at off in mem:
// record i holds first + (i+phase)/16 and no sub-bucket offsets.
func table(mem []byte, off, n, phase int, first uint32) {
	for i := 0; i < n; i++ {
		r := mem[off+i*bucketSize : off+(i+1)*bucketSize]
		binary.LittleEndian.PutUint32(r, first+uint32((i+phase)/bucketsPerFunc))
		clear(r[4:])
	}
}

func TestFindFuncTable(t *testing.T) {
	const size = 64 << 10
	for _, tc := range []struct {
		name  string
		build func(mem []byte)
		want  funcTable
		found bool
	}{
		{"none", func(mem []byte) {}, funcTable{}, false},
		{"a table", func(mem []byte) { table(mem, 1000, 2048, 0, 0) }, funcTable{1000, 2048, 0}, true},
		{"from a later function", func(mem []byte) { table(mem, 400, 1500, 0, 700) }, funcTable{400, 1500, 700}, true},
		// A run out of phase at its start is found from its first whole
		// function: the records before stay in the data.
		{"out of phase", func(mem []byte) { table(mem, 400, 1500, 5, 9) }, funcTable{400 + 11*bucketSize, 1489, 10}, true},
		{"too short", func(mem []byte) { table(mem, 1000, minTableBuckets-1, 0, 1) }, funcTable{}, false},
		// A non-zero sub-bucket ends a run: the longer part is taken.
		{"broken", func(mem []byte) {
			table(mem, 0, 3000, 0, 1)
			mem[1200*bucketSize+7] = 1
		}, funcTable{1216 * bucketSize, 3000 - 1216, 1 + 1216/bucketsPerFunc}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Zeros with a non-zero byte every 3: no record of the
			// table's shape but the ones a case writes.
			mem := make([]byte, size)
			for i := 0; i < size; i += 3 {
				mem[i] = 0xa5
			}
			tc.build(mem)
			got, ok := findFuncTable(mem)
			if ok != tc.found || (ok && got != tc.want) {
				t.Fatalf("findFuncTable = %+v, %v; want %+v, %v", got, ok, tc.want, tc.found)
			}
			if !ok {
				return
			}
			// clear, then write, gives the same memory back.
			back := bytes.Clone(mem)
			got.clear(back)
			got.write(back)
			if !bytes.Equal(back, mem) {
				t.Error("clear and write do not give the memory back")
			}
		})
	}
}

// An instance of the snapshot starts, once _initialize has run, in the
// memory the module's own _initialize left, byte for byte, but for the
// hash key drawn afresh, the findfunctab and the pclntab, which no active
// data segment holds and which are written (functab.go) when
// runtime.findfunc first runs: after a runtime.Caller, both are the raw
// module's.
func TestSnapshot_memoryAfterInit(t *testing.T) {
	raw, snap := build(t)
	want, keys, tab, pclnOff, pclnEnd := rawState(t, raw)
	s, err := decodeModule(snap)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := s.section(secData)
	if img := dataImage(t, data.body, len(want)); !bytes.Equal(img[tab.off:tab.off+tab.n*bucketSize], make([]byte, tab.n*bucketSize)) {
		t.Errorf("data segments write into the findfunctab at %d (%d records)", tab.off, tab.n)
	}

	mod := instance(t, snap)
	mustCall(t, mod, "_initialize")
	memory := func() []byte {
		got, ok := mod.Memory().Read(0, uint32(len(want)))
		if !ok {
			t.Fatal("reading the memory failed")
		}
		got = bytes.Clone(got)
		for _, k := range keys {
			copy(got[k:k+hashKeySize], want[k:k+hashKeySize])
		}
		return got
	}
	if img := dataImage(t, data.body, len(want)); !bytes.Equal(img[pclnOff:pclnEnd], make([]byte, pclnEnd-pclnOff)) {
		t.Errorf("active data segments write into the pclntab at %d..%d", pclnOff, pclnEnd)
	}
	unwritten := bytes.Clone(want)
	tab.clear(unwritten)
	clear(unwritten[pclnOff:pclnEnd])
	if i := firstDiff(memory(), unwritten); i >= 0 {
		t.Fatalf("memory after _initialize differs at %d (findfunctab %d..%d, pclntab %d..%d: unwritten)", i, tab.off, tab.off+tab.n*bucketSize, pclnOff, pclnEnd)
	}
	if line := mustCall(t, mod, "caller"); int32(line) <= 0 {
		t.Fatalf("caller: the runtime did not find its own function (%d)", int32(line))
	}
	after := memory()
	for _, r := range [][2]int{{tab.off, tab.off + tab.n*bucketSize}, {pclnOff, pclnEnd}} {
		if i := firstDiff(after[r[0]:r[1]], want[r[0]:r[1]]); i >= 0 {
			t.Fatalf("after runtime.Caller, memory differs at %d (in %d..%d)", r[0]+i, r[0], r[1])
		}
	}
}

// rawState runs the raw module's own _initialize (as the snapshot does)
// and returns the memory it leaves, where its hash key is, and where its
// findfunctab and pclntab are.
func rawState(t *testing.T, raw []byte) (mem []byte, keys []uint32, tab funcTable, pclnOff, pclnEnd int) {
	t.Helper()
	m, err := decodeModule(raw)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recordingReader{r: fixedEntropy()}
	mem, _, err = run(context.Background(), m, Config{Init: "_initialize", Entropy: rec, RebuiltInitMaps: rebuilt})
	if err != nil {
		t.Fatal(err)
	}
	if keys, err = locateHashKey(rec.reads, mem); err != nil {
		t.Fatal(err)
	}
	tab, ok := findFuncTable(mem)
	if !ok {
		t.Fatal("the test reactor's memory holds no findfunctab")
	}
	if pclnOff, pclnEnd, ok = findPclntab(mem, tab); !ok {
		t.Fatal("the test reactor's memory holds no pclntab")
	}
	return mem, keys, tab, pclnOff, pclnEnd
}

// dataImage is the memory the active segments of a data section write.
func dataImage(t *testing.T, body []byte, size int) []byte {
	t.Helper()
	mem := make([]byte, size)
	r := &reader{b: body}
	for n := r.u32(); n > 0 && r.err == nil; n-- {
		switch flag := r.u32(); flag {
		case 0:
		case 1: // passive: written by no instantiation
			r.bytes(int(r.u32()))
			continue
		default:
			t.Fatalf("segment flag %d", flag)
		}
		if op := r.byte(); op != opI32Const {
			t.Fatalf("segment offset opcode 0x%02x", op)
		}
		off := int(uint32(r.sleb(32)))
		r.byte() // end
		copy(mem[off:], r.bytes(int(r.u32())))
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	return mem
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	if len(a) != len(b) {
		return min(len(a), len(b))
	}
	return -1
}

// Without a name section to find runtime.findfunc, the snapshot's
// _initialize writes the findfunctab and copies the pclntab in itself.
func TestSnapshot_tableWithoutNames(t *testing.T) {
	raw, _ := build(t)
	secs, err := parseModule(raw)
	if err != nil {
		t.Fatal(err)
	}
	stripped := withoutNames(secs)
	if len(stripped) == len(secs) {
		t.Fatal("the test reactor has no name section")
	}
	snap, err := Reactor(context.Background(), encodeModule(stripped), rebuilt...)
	if err != nil {
		t.Fatal(err)
	}
	want, _, tab, pclnOff, pclnEnd := rawState(t, raw)
	mod := instance(t, snap)
	mustCall(t, mod, "_initialize")
	end := tab.off + tab.n*bucketSize
	got, ok := mod.Memory().Read(uint32(tab.off), uint32(end-tab.off))
	if !ok {
		t.Fatal("reading the memory failed")
	}
	if i := firstDiff(got, want[tab.off:end]); i >= 0 {
		t.Fatalf("the findfunctab after _initialize differs at %d (findfunctab %d..%d)", tab.off+i, tab.off, end)
	}
	got, _ = mod.Memory().Read(uint32(pclnOff), uint32(pclnEnd-pclnOff))
	if i := firstDiff(got, want[pclnOff:pclnEnd]); i >= 0 {
		t.Fatalf("the pclntab after _initialize differs at %d (pclntab %d..%d)", pclnOff+i, pclnOff, pclnEnd)
	}
}
