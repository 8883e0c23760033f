package wasmsnap

import (
	"bytes"
	"testing"
)

// withoutHints returns wasm without its hints section.
func withoutHints(t *testing.T, wasm []byte) []byte {
	t.Helper()
	secs, err := parseModule(wasm)
	if err != nil {
		t.Fatal(err)
	}
	var out []section
	for _, s := range secs {
		if !isHints(s) {
			out = append(out, s)
		}
	}
	return encodeModule(out)
}

// AddHints puts the section just before the code section, replaces one
// already there, and leaves every other byte of the module as it was.
func TestAddHints(t *testing.T) {
	_, snap := build(t)
	plain := withoutHints(t, snap)
	_, defined, err := Functions(plain)
	if err != nil {
		t.Fatal(err)
	}
	hints := make([]byte, defined)
	for i := range hints {
		if i%3 == 0 {
			hints[i] = EagerHint
		}
	}
	once, err := AddHints(plain, hints)
	if err != nil {
		t.Fatal(err)
	}
	hints[1] = EagerHint
	twice, err := AddHints(once, hints)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Hints(twice)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, hints) {
		t.Error("Hints does not give back the hints AddHints wrote")
	}
	secs, err := parseModule(twice)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i, s := range secs {
		if isHints(s) {
			n++
			if next := secs[i+1].id; next != secCode {
				t.Errorf("the hints section is followed by section %d, not the code section", next)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d hints sections", n)
	}
	if !bytes.Equal(withoutHints(t, twice), plain) {
		t.Error("the module without its hints section is not the module given")
	}
	if _, err := AddHints(plain, hints[1:]); err == nil {
		t.Error("AddHints took one hint fewer than the module's functions")
	}
	if h, err := Hints(plain); h != nil || err != nil {
		t.Errorf("Hints of a module without the section: %v, %v", h, err)
	}
}

// Reading and writing the section fail with an error, never a panic,
// whatever the bytes: the build reads its own output, but a truncated or
// foreign file must say so.
func FuzzHints(f *testing.F) {
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x03\x02\x01\x00\x05\x03\x01\x00\x01\x0a\x04\x01\x02\x00\x0b"))
	f.Add([]byte("\x00asm\x01\x00\x00\x00\x00\x13\x10compilationHints\x01\x16\x0a\x01\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = Hints(b)
		if _, defined, err := Functions(b); err == nil && defined < 1<<16 {
			out, err := AddHints(b, make([]byte, defined))
			if err != nil {
				return
			}
			if h, err := Hints(out); err != nil || len(h) != defined {
				t.Errorf("Hints of AddHints's output: %d bytes, %v", len(h), err)
			}
		}
	})
}
