// Package wire is the engine as data: a JSON request in, a JSON reply out
// (SPEC section 12). It is the one entry point of the wasm module, the JS
// package and the conformance corpus, so every runtime runs exactly the
// same decoding and encoding (SPEC S42); package core is the Go API it
// calls.
//
//   - [Request] is the request schema, defined once: its fields (json tags)
//     and the op table in call.go are what js/index.d.ts must agree with
//     (schema_test.go checks it).
//   - [Call] and [AppendCall] decode a request (decode.go: exactly RFC 8259
//     JSON, unknown keys are an error, encoding/json's messages), run the
//     op (ops.go) and write the reply (encode.go: byte-identical to
//     JavaScript's JSON.stringify, through package internal/jsontext).
//   - A failure is {"error":{"code","message"}} with a [core.Error] code; a
//     request that cannot be decoded is BAD_REQUEST; a panic inside the
//     engine is recovered and becomes INTERNAL, so a Go panic never crosses
//     the wasm boundary.
//   - A request with "asciiReply":true gets its reply in the ASCII
//     transport (ascii.go): every non-ASCII character escaped, the same
//     JSON value, S54's digest still that of the canonical bytes.
//   - A [Session] runs a host's calls one after another and answers a
//     discover request whose every input is unchanged since the last one
//     (what each listing, stat, realpath and read answered, a read asked
//     again as its file's version: record.New) with the last reply,
//     byte for byte what the discovery would give.
//   - [AppendJSON] writes any engine result as its reply, for hosts and
//     tests that call core directly; [ParseJSON] reads a reply's
//     frontmatter back into a [core.Value].
//
// Like core, this package is pure: it never imports os, syscall or unsafe
// (make purity).
package wire
