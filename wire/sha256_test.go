package wire

import (
	"crypto/sha256"
	"testing"
)

// TestSum256 checks the module's SHA-256 against crypto/sha256 at every
// length around the padding boundaries and on larger inputs.
func TestSum256(t *testing.T) {
	data := make([]byte, 5000)
	for i := range data {
		data[i] = byte(i*131 + i>>3)
	}
	for n := 0; n <= 300; n++ {
		if got, want := sum256(data[:n]), sha256.Sum256(data[:n]); got != want {
			t.Fatalf("length %d: %x, want %x", n, got, want)
		}
	}
	for _, n := range []int{1000, 4095, 4096, 4097, 5000} {
		if got, want := sum256(data[:n]), sha256.Sum256(data[:n]); got != want {
			t.Fatalf("length %d: %x, want %x", n, got, want)
		}
	}
}

func FuzzSum256(f *testing.F) {
	f.Add([]byte("abc"))
	f.Add(make([]byte, 55))
	f.Add(make([]byte, 64))
	f.Fuzz(func(t *testing.T, b []byte) {
		if got, want := sum256(b), sha256.Sum256(b); got != want {
			t.Fatalf("%x: %x, want %x", b, got, want)
		}
	})
}
