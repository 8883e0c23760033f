# skilldex — the two commands a newcomer needs are `make demo` and `make test`.
GO ?= go
GOFILES = $(shell git ls-files '*.go' 2>/dev/null; git ls-files -o --exclude-standard '*.go' 2>/dev/null)

.PHONY: test demo fmt vet purity test-go build wasm

## test: everything CI runs (format, vet, purity, all test suites)
test: fmt vet purity test-go

## demo: discover the skills of the bundled example workspace and print them
demo:
	$(GO) run ./examples/demo

fmt:
	@bad=$$(gofmt -l $(GOFILES)); if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi

vet:
	$(GO) vet ./...

# core/ must reach files only through core.FS (STYLE habit 2): no package
# under core/ may import these directly (tests may).
PURITY_BANNED = ^(os|os/.*|syscall|path/filepath|net|net/.*|unsafe|github.com/tetratelabs/wazero.*)$$
purity:
	@bad=$$($(GO) list -f '{{range .Imports}}{{$$.ImportPath}} imports {{.}}{{"\n"}}{{end}}' ./core/... | awk '{print}' | while read -r pkg _ imp; do echo "$$imp" | grep -Eq '$(PURITY_BANNED)' && echo "$$pkg imports $$imp"; done; true); \
	if [ -n "$$bad" ]; then echo "purity: $$bad; read files through core.FS instead"; exit 1; fi; \
	echo "purity: ok, no package under core/ imports os, syscall, path/filepath, net, unsafe or wazero"

test-go:
	$(GO) test ./...

# The wasm module (wasm/ABI.md#the-module): a GOOS=wasip1 reactor, built
# reproducibly, copied where the JS package loads it.
WASM_FLAGS = -buildmode=c-shared -trimpath -buildvcs=false -ldflags="-s -w -buildid="

## build: build/skilldex.wasm and js/skilldex.wasm (what the npm package ships)
build: wasm
wasm:
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -o build/skilldex.wasm ./wasm
	@cp build/skilldex.wasm js/skilldex.wasm
	@echo "build/skilldex.wasm: $$(wc -c < build/skilldex.wasm) bytes, sha256 $$(sha256sum build/skilldex.wasm | cut -d' ' -f1)"
