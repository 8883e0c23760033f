package wasmsnap

import (
	"errors"
	"fmt"
)

// HintsSection is the custom section V8 reads compilation hints from under
// --experimental-wasm-compilation-hints. V8 takes it only between the
// function and code sections (module-decoder-impl.h,
// DecodeCompilationHintsSection): a LEB128 count equal to the number of
// functions the module defines, then one byte each, bits 0-1 the strategy
// (0 default, 2 eager), bits 2-3 the baseline tier and 4-5 the top tier
// (1 the baseline compiler).
const HintsSection = "compilationHints"

// EagerHint compiles a function eagerly (strategy 2) with the baseline
// compiler (tier 1), which is also its top tier (1).
const EagerHint = 2 | 1<<2 | 1<<4

// Functions returns how many functions wasm imports and how many it
// defines (the function indices are the imports', then the module's own).
func Functions(wasm []byte) (imported, defined int, err error) {
	m, err := decodeModule(wasm)
	if err != nil {
		return 0, 0, err
	}
	return len(m.funcImports), m.funcs, nil
}

// AddHints returns wasm with a hints section holding hints, one byte per
// function it defines, placed just before the code section; a hints
// section wasm already has is replaced.
func AddHints(wasm, hints []byte) ([]byte, error) {
	m, err := decodeModule(wasm)
	if err != nil {
		return nil, err
	}
	if len(hints) != m.funcs {
		return nil, fmt.Errorf("%d hints for the %d functions the module defines", len(hints), m.funcs)
	}
	body := appendName(nil, HintsSection)
	body = appendU32(body, uint32(len(hints)))
	body = append(body, hints...)
	secs := make([]section, 0, len(m.secs)+1)
	code := false
	for _, s := range m.secs {
		if isHints(s) {
			continue // replaced
		}
		if s.id == secCode {
			secs = append(secs, section{id: secCustom, body: body})
			code = true
		}
		secs = append(secs, s)
	}
	if !code {
		return nil, errors.New("the module has no code section")
	}
	return encodeModule(secs), nil
}

// Hints returns the bytes of wasm's hints section, one per function it
// defines, or nil when it has none.
func Hints(wasm []byte) ([]byte, error) {
	secs, err := parseModule(wasm)
	if err != nil {
		return nil, err
	}
	for _, s := range secs {
		if isHints(s) {
			r := &reader{b: s.body}
			r.name()
			hints := r.bytes(int(r.u32()))
			if r.err != nil || !r.done() {
				return nil, errors.New("a malformed hints section")
			}
			return hints, nil
		}
	}
	return nil, nil
}

func isHints(s section) bool {
	return s.id == secCustom && (&reader{b: s.body}).name() == HintsSection
}
