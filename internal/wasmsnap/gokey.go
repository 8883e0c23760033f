package wasmsnap

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
)

// recordingReader keeps a copy of everything read through it.
type recordingReader struct {
	r     io.Reader
	reads [][]byte
}

func (r *recordingReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.reads = append(r.reads, append([]byte(nil), b[:n]...))
	return n, err
}

// hashKeySize is the size of the Go runtime's hashkey: four 64-bit words.
const hashKeySize = 32

// locateHashKey finds the Go runtime's hash key in the memory of an
// initialised module. The runtime reads 32 bytes of entropy once, in
// randinit, seeds its ChaCha8 generator with them (the generator
// math/rand/v2's ChaCha8 implements: same seed, same stream), and alginit
// sets the four words of the key to four consecutive values it draws (Go
// 1.26 on wasm, which has no AES hash). Those 32 bytes occur where the key
// is and, as the generator keeps its current block of output, in the
// generator's buffer: locateHashKey returns every occurrence (a new random
// value is as good as the old in the buffer too). 256 bits do not occur
// by chance.
func locateHashKey(reads [][]byte, mem []byte) ([]uint32, error) {
	if len(reads) != 1 || len(reads[0]) != 32 {
		sizes := make([]int, len(reads))
		for i, r := range reads {
			sizes[i] = len(r)
		}
		return nil, fmt.Errorf("the module read entropy %d times (sizes %v) while it initialised; the Go runtime's randinit reads 32 bytes once: "+
			"is this a Go wasip1 module, and does the Go version still seed its generator that way?", len(reads), sizes)
	}
	g := rand.NewChaCha8([32]byte(reads[0]))
	const draws = 64
	var d [draws]uint64
	for i := range d {
		d[i] = g.Uint64()
	}
	for k := 0; k+4 <= draws; k++ {
		var pat [hashKeySize]byte
		for w := range 4 {
			binary.LittleEndian.PutUint64(pat[8*w:], d[k+w])
		}
		var at []uint32
		for i := 0; ; {
			j := bytes.Index(mem[i:], pat[:])
			if j < 0 {
				break
			}
			at = append(at, uint32(i+j))
			i += j + hashKeySize
		}
		// The key stands alone; a run of draws that continues on either
		// side is the generator's buffer. Insist on the key.
		alone := false
		for _, a := range at {
			before := a < 8 || (k > 0 && binary.LittleEndian.Uint64(mem[a-8:]) == d[k-1])
			after := int(a)+hashKeySize+8 <= len(mem) && k+4 < draws && binary.LittleEndian.Uint64(mem[int(a)+hashKeySize:]) == d[k+4]
			if !before && !after {
				alone = true
			}
		}
		if alone {
			if len(at) > 2 {
				return nil, fmt.Errorf("the Go runtime's hash key occurs %d times in memory; expected the key and at most the generator's buffer", len(at))
			}
			return at, nil
		}
	}
	return nil, fmt.Errorf("the Go runtime's hash key was not found among the first %d values of its generator: "+
		"has the Go runtime changed how alginit draws it?", draws)
}
