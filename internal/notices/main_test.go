package main

import (
	"bytes"
	"os"
	"testing"
)

// TestCommittedNotices: js/THIRD_PARTY_NOTICES is what the generator writes
// for the current go.mod, and names every module the wasm builds link.
func TestCommittedNotices(t *testing.T) {
	want, err := notices("../..")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../../js/THIRD_PARTY_NOTICES")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatal("js/THIRD_PARTY_NOTICES is stale: run go run ./internal/notices -o js/THIRD_PARTY_NOTICES")
	}
	for _, m := range []string{"github.com/gobwas/glob", "The Go programming language"} {
		if !bytes.Contains(got, []byte(m)) {
			t.Errorf("the notices do not name %s", m)
		}
	}
}
