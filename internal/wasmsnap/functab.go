package wasmsnap

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// The Go runtime's findfunctab, the table runtime.findfunc reads to map a
// PC to its function (GC stack scans, stack growth, tracebacks), has one
// record per 4,096 bytes of PC space (runtime.pcbucketsize): a
// findfuncbucket, a uint32 index into the function table and 16 bytes of
// sub-bucket offsets. On wasm a function's PCs are its index shifted left
// by 16, so every function owns exactly 16 records, each holding the
// function's own index and zero offsets: record i holds first + i/16.
//
// In the snapshot's memory that is two non-zero bytes every 20, which
// made 39,000 of the engine module's 43,000 data segments, about 390 KB of
// the file, and as many segment records that V8 decodes and keeps (about
// 940 KB), for 786 KB of memory that one loop writes. So the snapshot
// leaves the table out of the data and writes it with a loop (fillCode)
// the first time runtime.findfunc runs, the table's only reader: a call is
// added at the top of its body (addInit). An instance that never collects
// garbage, grows a stack or prints a traceback (a one-shot discovery) never
// writes the table nor touches its 192 pages. Without the name section
// that finds runtime.findfunc, _initialize writes it.
//
// The table only speeds findfunc up: from a record's index it walks the
// function table forward to the PC's function, so a record that is
// behind (zero) still gives the right function, later.
const (
	bucketSize     = 20               // runtime.findfuncbucket: idx uint32, subbuckets [16]byte
	bucketShift    = 4                // log2(bucketsPerFunc)
	bucketsPerFunc = 1 << bucketShift // 1<<16 PCs a function / runtime.pcbucketsize
	// minTableBuckets is the shortest run taken for the table: a run that
	// short already saves more than the loop costs, and the Go runtime's
	// own table is thousands of records long.
	minTableBuckets = 1024
)

// funcTable is a run of n findfuncbucket records at off in memory whose
// record i holds first + i/bucketsPerFunc and no sub-bucket offsets.
type funcTable struct {
	off, n int
	first  uint32
}

// findFuncTable finds the longest run of records of the table's shape in
// mem (at a 4-byte boundary, as the Go linker aligns it), if it has at
// least minTableBuckets records.
func findFuncTable(mem []byte) (funcTable, bool) {
	var best funcTable
	for off := 0; off+bucketSize <= len(mem); off += 4 {
		first := binary.LittleEndian.Uint32(mem[off:])
		n := 0
		for p := off; p+bucketSize <= len(mem) && isBucket(mem[p:p+bucketSize], first+uint32(n/bucketsPerFunc)); p += bucketSize {
			n++
		}
		if n > best.n {
			best = funcTable{off: off, n: n, first: first}
		}
		if n > bucketsPerFunc {
			// Every later start inside the run is either the same table
			// cut short or out of phase: go on after it.
			off += n*bucketSize - 4
		}
	}
	return best, best.n >= minTableBuckets
}

// isBucket reports whether b (one record) holds idx and no sub-bucket
// offsets.
func isBucket(b []byte, idx uint32) bool {
	if binary.LittleEndian.Uint32(b) != idx {
		return false
	}
	for _, x := range b[4:] {
		if x != 0 {
			return false
		}
	}
	return true
}

// write writes the table into mem, as the loop fillCode emits does.
func (t funcTable) write(mem []byte) {
	for i := 0; i < t.n; i++ {
		binary.LittleEndian.PutUint32(mem[t.off+i*bucketSize:], t.first+uint32(i/bucketsPerFunc))
	}
}

// clear zeroes the table's records in mem.
func (t funcTable) clear(mem []byte) {
	clear(mem[t.off : t.off+t.n*bucketSize])
}

// The opcodes of fillCode's loop.
const (
	opLoop     = 0x03
	opReturn   = 0x0f
	opBrIf     = 0x0d
	opLocalTee = 0x22
	opI32Store = 0x36
	opI32LtU   = 0x49
	opI32Add   = 0x6a
	opI32Mul   = 0x6c
	opI32ShrU  = 0x76
)

// fillCode is the body (its locals, then its code) of a function that
// writes the table once, the first time it is called (written is the index
// of an i32 global, 0 until then): for i := 0; i < n; i++ { mem[off+i*20] =
// first + i/16 } (n is at least 1: a do-while), then runs then.
func (t funcTable) fillCode(written uint32, then []byte) []byte {
	c := []byte{1, 1, valI32} // locals: one group of one i32, i
	c = append(c, opGlobalGet)
	c = appendU32(c, written)
	c = append(c, opIf, opBlockEmpty, opReturn, opEnd, opI32Const, 1, opGlobalSet)
	c = appendU32(c, written)
	c = append(c, opLoop, opBlockEmpty)
	// address: i*20 (the store's offset adds off)
	c = append(c, opLocalGet, 0, opI32Const)
	c = appendSLEB(c, bucketSize)
	c = append(c, opI32Mul)
	// value: first + i>>4
	c = append(c, opLocalGet, 0, opI32Const, bucketShift, opI32ShrU, opI32Const)
	c = appendSLEB(c, int64(int32(t.first)))
	c = append(c, opI32Add)
	c = append(c, opI32Store, 2) // align 2^2
	c = appendU32(c, uint32(t.off))
	// i++; loop while i < n
	c = append(c, opLocalGet, 0, opI32Const, 1, opI32Add, opLocalTee, 0, opI32Const)
	c = appendSLEB(c, int64(t.n))
	c = append(c, opI32LtU, opBrIf, 0, opEnd)
	c = append(c, then...)
	return append(c, opEnd)
}

// The bulk memory instructions copyCode uses (0xfc-prefixed).
const (
	opPrefixFC  = 0xfc
	subMemInit  = 8
	subDataDrop = 9
)

// copyCode is code that copies passive data segment seg, n bytes, to off
// in memory (memory.init), then drops the segment (data.drop).
func copyCode(seg uint32, off, n int) []byte {
	c := []byte{opI32Const}
	c = appendSLEB(c, int64(int32(off)))
	c = append(c, opI32Const, 0, opI32Const)
	c = appendSLEB(c, int64(int32(n)))
	c = append(c, opPrefixFC, subMemInit)
	c = appendU32(c, seg)
	c = append(c, 0) // memory 0
	c = append(c, opPrefixFC, subDataDrop)
	return appendU32(c, seg)
}

// findfuncName is the name section's name of the table's reader.
const findfuncName = "runtime.findfunc"

// prependCall returns a code section (its vector of bodies) whose body of
// the defined function fn starts with a call of callee, before its code.
func prependCall(code []byte, fn, callee uint32) ([]byte, error) {
	r := &reader{b: code}
	n := r.u32()
	out := appendU32(nil, n)
	for i := uint32(0); i < n && r.err == nil; i++ {
		body := r.bytes(int(r.u32()))
		if i == fn {
			b := &reader{b: body}
			for groups := b.u32(); groups > 0 && b.err == nil; groups-- {
				b.u32()  // count
				b.byte() // type
			}
			if b.err != nil {
				return nil, fmt.Errorf("function %d: locals: %w", fn, b.err)
			}
			patched := append([]byte(nil), body[:b.off]...)
			patched = append(patched, opCall)
			patched = appendU32(patched, callee)
			body = append(patched, body[b.off:]...)
		}
		out = appendU32(out, uint32(len(body)))
		out = append(out, body...)
	}
	if r.err != nil {
		return nil, fmt.Errorf("code section: %w", r.err)
	}
	return out, nil
}

// The pclntab (the runtime's pcHeader and the tables after it: function
// names, compilation units, file names, PC-value tables, and the function
// table with its _func records) is read only through what runtime.findfunc
// returns too: a one-shot call reads none of it. So the snapshot moves it
// to a passive data segment that the same first findfunc copies in
// (memory.init): 563 KB of the engine module, 138 pages an instantiation
// no longer writes. It is found through the runtime's moduledata, the
// one whose findfunctab field is the table's address.
const (
	moduledataFindfunctab = 152 // runtime.moduledata: pcHeader, six slices, findfunctab
	moduledataPclntable   = 104 // the pclntable slice: ptr, len, cap
)

// pcHeaderMagic is the first 8 bytes of a wasm module's pcHeader: the magic
// 0xfffffff1, two zero pads, minLC 1 and ptrSize 8 (runtime.pcHeader).
var pcHeaderMagic = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}

// findPclntab returns the bounds of the pclntab in mem: from the pcHeader
// to the end of the pclntable, which the moduledata pointing at both it
// and the findfunctab at tab.off gives, with every table between.
func findPclntab(mem []byte, tab funcTable) (off, end int, ok bool) {
	hdr := bytes.Index(mem, pcHeaderMagic)
	if hdr < 0 {
		return 0, 0, false
	}
	u64 := func(p int) int { return int(binary.LittleEndian.Uint64(mem[p:])) }
	ref := binary.LittleEndian.AppendUint64(nil, uint64(hdr))
	for p := 0; p < len(mem); {
		i := bytes.Index(mem[p:], ref)
		if i < 0 {
			return 0, 0, false
		}
		md := p + i
		p = md + 1
		if md%8 != 0 || md+moduledataFindfunctab+8 > len(mem) || u64(md+moduledataFindfunctab) != tab.off {
			continue
		}
		end := u64(md+moduledataPclntable) + u64(md+moduledataPclntable+8)
		tableEnd := tab.off + tab.n*bucketSize
		if end <= hdr || end > len(mem) || (end > tab.off && hdr < tableEnd) {
			continue
		}
		// funcnametab, cutab, filetab and pctab start inside.
		inside := true
		for s := 8; s < moduledataPclntable; s += 24 {
			if q := u64(md + s); q <= hdr || q >= end {
				inside = false
			}
		}
		if inside {
			return hdr, end, true
		}
	}
	return 0, 0, false
}
