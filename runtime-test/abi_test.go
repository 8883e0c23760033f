package runtimetest

import (
	"context"
	"errors"
	"testing"

	"github.com/skilldex/skilldex/fsadapter/memfs"
	"github.com/skilldex/skilldex/wasm/abi"
	"github.com/skilldex/skilldex/wasm/abi/abitest"
	"github.com/skilldex/skilldex/wasmhost"
)

// TestABI_lock compares the imports and exports of the module, with their
// signatures, as wazero compiled them, with wasm/testdata/abi.golden
// (docs/STYLE.md habit 10, wasm/ABI.md#versioning). go test ./wasm/abi checks the
// golden file against package abi, ABI.md and the binary's own sections;
// this is the check of what a runtime actually links. It also cross-checks
// abitest.Signatures (the binary reader the JS tests mirror) with wazero.
func TestABI_lock(t *testing.T) {
	got := module.Signatures()
	want, err := abitest.ReadGolden(root)
	if err != nil {
		t.Fatal(err)
	}
	if d := abitest.Diff(want, got); d != "" {
		t.Errorf("the module under wazero differs from %s (- golden, + module); if intended, bump the ABI (wasm/ABI.md#versioning) and run go test ./wasm/abi -run TestABI_golden -update:\n%s", abitest.GoldenPath, d)
	}
	parsed, err := abitest.Signatures(wasmBytes)
	if err != nil {
		t.Fatal(err)
	}
	if d := abitest.Diff(parsed, got); d != "" {
		t.Errorf("abitest.Signatures and wazero disagree (- abitest, + wazero):\n%s", d)
	}
}

// A module built for another ABI is refused with ErrBadBinary
// (wasm/ABI.md#loading): at Compile for its imports and exports, at
// Instantiate for the version it answers.
func TestABI_badBinary(t *testing.T) {
	ctx := context.Background()
	v2 := append([]wasmImport{}, hostImports...)
	v2[0].module = "skilldex_host_v2"
	ok := fakeGuest(abi.Version, i64Const(0))
	for _, tc := range []struct {
		name        string
		wasm        []byte
		instantiate bool // refused by Instantiate rather than Compile
	}{
		{"not wasm", []byte("not a wasm module"), false},
		{"truncated", ok[:len(ok)-3], false},
		{"host module v2", wasmModule(v2, []wasmFunc{{export: abi.ExportInitialize}}, 1), false},
		{"other import module", wasmModule([]wasmImport{{"env", "f", nil, nil}}, nil, 1), false},
		{"no skilldex_call", wasmModule(hostImports, []wasmFunc{
			{export: abi.ExportInitialize},
			{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(1)},
			{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
		}, 1), false},
		{"skilldex_call of another signature", wasmModule(hostImports, []wasmFunc{
			{export: abi.ExportInitialize},
			{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(1)},
			{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
			{export: abi.ExportCall, params: []byte{i32}, results: []byte{i64}, body: i64Const(0)},
		}, 1), false},
		{"no memory", wasmModule(hostImports, []wasmFunc{
			{export: abi.ExportInitialize},
			{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(1)},
			{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
			{export: abi.ExportCall, params: []byte{i32, i32}, results: []byte{i64}, body: i64Const(0)},
		}, 0), false},
		{"version 1", fakeGuest(1, i64Const(0)), true},
		{"version 2", fakeGuest(2, i64Const(0)), true},
		{"version 0", fakeGuest(0, i64Const(0)), true},
		{"_initialize traps", wasmModule(hostImports, []wasmFunc{
			{export: abi.ExportInitialize, body: []byte{opUnreachable}},
			{export: abi.ExportVersion, results: []byte{i32}, body: i32Const(1)},
			{export: abi.ExportAlloc, params: []byte{i32}, results: []byte{i32}, body: i32Const(1024)},
			{export: abi.ExportCall, params: []byte{i32, i32}, results: []byte{i64}, body: i64Const(0)},
		}, 1), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m, err := wasmhost.Compile(ctx, tc.wasm)
			if !tc.instantiate {
				if !errors.Is(err, wasmhost.ErrBadBinary) {
					t.Fatalf("Compile: err = %v, want ErrBadBinary", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Compile: %v", err)
			}
			defer m.Close(ctx)
			if _, err := m.Instantiate(ctx, memfs.New()); !errors.Is(err, wasmhost.ErrBadBinary) {
				t.Fatalf("Instantiate: err = %v, want ErrBadBinary", err)
			}
		})
	}
	// The fake guest with the right version is accepted, and answers.
	m, err := wasmhost.Compile(ctx, ok)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	e, err := m.Instantiate(ctx, memfs.New())
	if err != nil {
		t.Fatal(err)
	}
	if reply, err := e.Call(ctx, []byte(`{}`)); err != nil || len(reply) != 0 {
		t.Errorf("Call = %q, %v; want the empty reply at 0", reply, err)
	}
}
