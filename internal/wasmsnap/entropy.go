package wasmsnap

import (
	"io"
	"math/rand/v2"
)

// fixedEntropy is the random_get stream of a build: ChaCha8 from a fixed
// seed, so that the same module gives the same snapshot.
func fixedEntropy() io.Reader {
	var seed [32]byte
	copy(seed[:], "skilldex wasmsnap build entropy")
	return rand.NewChaCha8(seed)
}
