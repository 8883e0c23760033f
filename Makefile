# skilldex — the two commands a newcomer needs are `make demo` and `make test`.
GO ?= go
GOFILES = $(shell git ls-files '*.go' 2>/dev/null; git ls-files -o --exclude-standard '*.go' 2>/dev/null)

# Every go command runs the Go that go.mod names: the modules under embed/
# are what that Go builds from this source, byte for byte (embed-check), and
# another Go builds other bytes. The go command fetches that toolchain
# through the module proxy when the machine's go is another version
# (docs/RATIONALE.md, "Why are the built modules committed?").
GO_VERSION := $(shell sed -n 's/^go \([0-9][0-9.]*\)$$/\1/p' go.mod)
export GOTOOLCHAIN := go$(GO_VERSION)

.PHONY: test demo demo-go fmt vet purity provenance embed-check test-go test-race test-wasmtime test-browser build wasm test-js test-node test-deno test-bun test-types tools setup check-setup fuzz bench bench-go bench-js bench-peers profile-js profile-cli profile-go bench-worker

## test: everything CI runs (format, vet, purity, all test suites): Go
## native and wazero (test-go), the concurrent Go tests under the race
## detector (test-race), Node, Deno and Bun (test-js), Wasmtime
## (test-wasmtime), headless Chromium (test-browser). It builds the modules
## once (wasm), and the Go hosts' tests run those (SKILLDEX_MODULES).
test: check-setup fmt vet purity provenance embed-check test-go test-race test-js test-wasmtime test-browser

## setup: install what make test needs on a fresh Debian machine (as root):
## node and npm, a C compiler (cgo: Wasmtime, the race detector), Chromium
## (Debian's), the Go modules, the JS dev dependencies, Deno and Bun
setup:
	@apt_updated=; apt_install() { \
		if [ -z "$$apt_updated" ]; then apt-get update; apt_updated=1; fi; \
		DEBIAN_FRONTEND=noninteractive apt-get install -y "$$@"; }; \
	{ command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; } || apt_install nodejs npm; \
	command -v gcc >/dev/null 2>&1 || apt_install gcc libc6-dev; \
	command -v chromium >/dev/null 2>&1 || [ -n "$$SKILLDEX_CHROMIUM" ] || apt_install chromium
	$(GO) mod download
	cd runtime-test/wasmtime && $(GO) mod download
	cd js && npm ci --no-audit --no-fund
	$(MAKE) --no-print-directory tools

# check-setup: what make test needs of the system (node, npm, a C compiler,
# Chromium). Missing on a machine where it can install them (root, apt-get),
# make test runs make setup first, so that `make test` alone works on a fresh
# Debian machine; elsewhere it stops at once, naming the command, rather
# than failing minutes in. (The JS dev dependencies, Deno and Bun install
# themselves from the npm registry when missing.)
check-setup:
	@missing=; for c in node npm gcc; do command -v $$c >/dev/null 2>&1 || missing="$$missing $$c"; done; \
	command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || [ -n "$$SKILLDEX_CHROMIUM" ] || missing="$$missing chromium"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		echo "make test needs:$$missing; installing it: make setup"; $(MAKE) --no-print-directory setup; \
	else echo "make test needs:$$missing. Run: make setup (as root on Debian; it installs everything make test needs)"; exit 1; fi

## demo: the skilldex CLI on the bundled example workspace: list the skills,
## explain a collision, read a skill:// resource, render the prompt
DEMO_WS = examples/workspace
DEMO = node js/bin/skilldex.mjs --cwd $(DEMO_WS)/projects/webapp --home $(DEMO_WS)/home
demo: wasm
	@echo '$$ skilldex list'; $(DEMO) list; echo
	@echo '$$ skilldex explain pdf'; $(DEMO) explain pdf; echo
	@echo '$$ skilldex read skill://pdf/forms.md'; $(DEMO) read skill://pdf/forms.md; echo
	@echo '$$ skilldex read skill://pdf/../../.ssh/id_rsa'; $(DEMO) read skill://pdf/../../.ssh/id_rsa || true; echo
	@echo '$$ skilldex prompt'; $(DEMO) prompt

## demo-go: the same workspace through the Go API (examples/demo)
demo-go:
	$(GO) run ./examples/demo

fmt:
	@bad=$$(gofmt -l $(GOFILES)); if [ -n "$$bad" ]; then echo "gofmt needed:"; echo "$$bad"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./fsadapter/hostfs ./wasm/...
	GOOS=wasip1 GOARCH=wasm $(GO) vet $(WASM_TAGS) ./wasm
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_TAGS) ./core/...
	GOOS=wasip1 GOARCH=wasm $(GO) build $(PURE_PKGS)

# core/ must reach files only through core.FS (docs/STYLE.md habit 2), and
# the wire layer only through core: no package below may import these
# directly (tests may). The packages are core, wire and every package of
# this module they depend on, so that an internal package they come to
# share is covered without a list to update.
PURE_PKGS = $(shell $(GO) list -deps ./core/... ./wire/... | grep '^github.com/skilldex/skilldex/')
PURITY_BANNED = ^(os|os/.*|syscall|path/filepath|net|net/.*|unsafe|github.com/tetratelabs/wazero.*)$$
purity:
	@bad=$$($(GO) list -f '{{range .Imports}}{{$$.ImportPath}} imports {{.}}{{"\n"}}{{end}}' $(PURE_PKGS) | awk '{print}' | while read -r pkg _ imp; do echo "$$imp" | grep -Eq '$(PURITY_BANNED)' && echo "$$pkg imports $$imp"; done; true); \
	if [ -n "$$bad" ]; then echo "purity: $$bad; read files through core.FS instead"; exit 1; fi; \
	echo "purity: ok, no package of core/, wire/ or the internal packages they share imports os, syscall, path/filepath, net, unsafe or wazero"

# Only code written for skilldex in the tree: no licence or
# notice file but the root LICENSE, no foreign copyright or licence header
# in source; and js/THIRD_PARTY_NOTICES matches go.mod. -count=1: the
# check reads files the test cache does not track.
provenance:
	$(GO) test -count=1 ./internal/provenance ./internal/notices

# The Go hosts' tests (runtime-test, runtime-test/wasmtime) run the modules
# make wasm built (SKILLDEX_MODULES) instead of building them again.
MODULES_ENV = SKILLDEX_MODULES=$(abspath build)

test-go: wasm
	$(MODULES_ENV) $(GO) test ./...

# test-race: the packages whose tests run goroutines against each other
# (the adapters, wasmhost's engines), wire's Session tests and runtime-test's
# concurrency tests, under the race detector (cgo). About two minutes on
# two cores, once the modules are built.
RACE_PKGS = ./fsadapter/... ./wasmhost
RACE_RUNTIME_TESTS = ^(TestEngine_concurrent|TestEngine_doneContextDoesNotWait|TestReuseUnderAttack)$$
test-race: wasm
	$(GO) test -race $(RACE_PKGS)
	$(GO) test -race -run '^TestSession' ./wire
	$(MODULES_ENV) $(GO) test -race -run '$(RACE_RUNTIME_TESTS)' ./runtime-test

## fuzz: every fuzzer of the module (go test -list Fuzz), FUZZTIME each (30s)
FUZZTIME ?= 30s
fuzz: wasm
	@for pkg in $$($(GO) list ./...); do \
		for f in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
			echo "== $$pkg $$f"; \
			$(MODULES_ENV) $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
		done; \
	done

# Wasmtime (wasmtime-go, cgo) in its own Go module, runtime-test/wasmtime,
# so the main module stays free of cgo: the corpus and the boundary tests
# against the native engine. The compiled modules are cached in
# build/wasmtime-cache.
test-wasmtime: wasm
	cd runtime-test/wasmtime && $(GO) vet . && $(MODULES_ENV) $(GO) test .

# The wasm modules (wasm/ABI.md#the-module): GOOS=wasip1 reactors, built
# reproducibly, copied where the JS package loads them. The engine module is
# built with the skilldex_splityaml tag, which keeps yaml.v3 and
# adrg/frontmatter out of it; the frontmatter module (wasm/frontmatter)
# holds the complete frontmatter path, loaded only when the engine's scanner
# declines a file or validate runs. Both modules ship as snapshots of
# themselves after _initialize (internal/wasmsnap, ABI.md#the-module): Go's
# initialisation ran at build time, and each instance only draws its hash key.
# Last, internal/wasmhints marks the functions a first discovery calls (found
# by replaying two under wazero) for V8's eager compilation, which only the
# CLI asks for.
# The raw builds keep their name section (no -s -w): wasmsnap reads it to
# drop the package initialisers' code, then strips it.
ENGINE_FLAGS = -buildmode=c-shared -trimpath -buildvcs=false -ldflags="-buildid="
WASM_TAGS = -tags skilldex_splityaml

## build: build/skilldex.wasm and build/skilldex-frontmatter.wasm, copied to js/ (what the npm package
## ships) and to embed/ (committed: Go programs get them without building; commit them with the change)
build: wasm
	@cp build/skilldex.wasm build/skilldex-frontmatter.wasm embed/
	@echo "embed/: updated; commit embed/*.wasm with your change"

# embed-check: the committed embed/*.wasm are exactly what make build
# produces from this source (the build is reproducible).
embed-check: wasm
	@for f in skilldex.wasm skilldex-frontmatter.wasm; do cmp -s build/$$f embed/$$f || { \
		echo "embed/$$f differs from what make build produces: run make build and commit embed/"; exit 1; }; done
	@echo "embed-check: ok, embed/*.wasm are what make build produces"

wasm:
	@mkdir -p build
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_TAGS) $(ENGINE_FLAGS) -o build/skilldex.raw.wasm ./wasm
	$(GO) run ./internal/wasmsnap/cmd/wasmsnap -in build/skilldex.raw.wasm -out build/skilldex.wasm
	GOOS=wasip1 GOARCH=wasm $(GO) build $(ENGINE_FLAGS) -o build/skilldex-frontmatter.raw.wasm ./wasm/frontmatter
	$(GO) run ./internal/wasmsnap/cmd/wasmsnap -frontmatter -in build/skilldex-frontmatter.raw.wasm -out build/skilldex-frontmatter.wasm
	$(GO) run ./internal/wasmhints/cmd/wasmhints -in build/skilldex.wasm -out build/skilldex.wasm \
		-frontmatter build/skilldex-frontmatter.wasm -example $(DEMO_WS)
	@cp build/skilldex.wasm build/skilldex-frontmatter.wasm js/
	@cp LICENSE js/LICENSE
	@for f in build/skilldex.wasm build/skilldex-frontmatter.wasm; do echo "$$f: $$(wc -c < $$f) bytes, sha256 $$(sha256sum $$f | cut -d' ' -f1)"; done

# The JS package (js/): node --test, then the same files under Deno and
# Bun, then the type tests. Deno and Bun come from the npm registry into
# build/tools; see `make tools`.
DENO_VERSION = 2.9.6
BUN_VERSION = 1.4.5
TOOLS = build/tools/node_modules
DENO ?= $(shell command -v deno 2>/dev/null || echo $(TOOLS)/@deno/linux-x64-glibc/deno)
BUN ?= $(shell command -v bun 2>/dev/null || echo $(TOOLS)/@oven/bun-linux-x64/bin/bun)

## tools: install Deno and Bun from the npm registry into build/tools
## (one npm install for both: a second would prune the first)
tools: $(TOOLS)/@deno/linux-x64-glibc/deno $(TOOLS)/@oven/bun-linux-x64/bin/bun

$(TOOLS)/@deno/linux-x64-glibc/deno $(TOOLS)/@oven/bun-linux-x64/bin/bun:
	npm install --no-save --no-package-lock --no-audit --no-fund --prefix build/tools @deno/linux-x64-glibc@$(DENO_VERSION) @oven/bun-linux-x64@$(BUN_VERSION)

js/node_modules/.package-lock.json: js/package.json js/package-lock.json
	cd js && npm ci --no-audit --no-fund

## test-js: the JS suite under Node, Deno and Bun, and the type tests
## (prerequisites, not a second make: one make builds the modules once)
test-js: test-node test-deno test-bun test-types

test-node: wasm js/node_modules/.package-lock.json
	cd js && node --test test/*.test.js

test-types: js/node_modules/.package-lock.json
	cd js && node_modules/.bin/tsc -p . && node_modules/.bin/tsc -p test/types

## test-browser: the corpus and examples/browser in headless Chromium (Debian's
## chromium, driven by puppeteer-core); the example's screenshot goes to
## build/browser-example.png
test-browser: wasm js/node_modules/.package-lock.json
	cd js && node --test browser-test/*.test.js

# The Deno suite runs with the permissions it needs, not -A: read
# and write files (Deno lets only unscoped grants create the corpus's
# symlinks), run deno (the CLI tests, which run the CLI with --allow-read
# scoped to the package and the workspace, nothing else) and npm
# (pack.test.js), know the home directory (the default-context test) and
# read the environment (spawning a child copies it). No network, FFI or
# other sys access.
DENO_TMP = $(abspath build/deno-tmp)
DENO_PERMS = --allow-read --allow-write --allow-run=$(realpath $(DENO)),npm --allow-sys=homedir --allow-env
test-deno: wasm js/node_modules/.package-lock.json $(if $(filter $(TOOLS)/%,$(DENO)),$(DENO))
	@rm -rf $(DENO_TMP) && mkdir -p $(DENO_TMP)
	cd js && TMPDIR=$(DENO_TMP) $(abspath $(DENO)) test --no-check --no-lock --no-prompt $(DENO_PERMS) test/

test-bun: wasm js/node_modules/.package-lock.json $(if $(filter $(TOOLS)/%,$(BUN)),$(BUN))
	cd js && $(abspath $(BUN)) test --timeout 300000 test/*.test.js

# Benchmarks (not part of test). bench-go runs the core benchmarks
# (BenchmarkDiscover on memfs and osfs, BenchmarkSyscallFloor: the bare OS
# calls for the same 1000-skill tree) BENCH_ROUNDS times, interleaved, and
# prints medians and ratios to the floor, and the share of the files a first
# discovery sends to the complete frontmatter path. bench-js runs
# js/bench/bench.mjs: the JS facade against the JS syscall floor at 100, 1000
# and 10000 skills, the first and second discover() of fresh processes, the
# complete-path share, the cold CLI against bare node, module size and
# memory. Both measure workspaces with the frontmatter of published
# collections (docs/bench/WORKSPACE.md). On a noisy
# machine, compare ratios from one run, not times from different runs.
# The summaries go to docs/bench/go.md and docs/bench/js.md: commit them with
# the README's Performance table, whose figures must come from them
# (internal/references checks it).
BENCH_ROUNDS ?= 5
BENCH_TIME ?= 20x
BENCH_SIZES ?= 100,1000,10000
BENCH_COLD ?= 15

## bench: Go and JS benchmarks, with ratios to the syscall floors
bench: bench-go bench-js bench-worker

bench-go:
	@mkdir -p build
	$(GO) test -c -o build/core.bench ./core
	@rm -f build/bench-go.txt; for i in $$(seq $(BENCH_ROUNDS)); do \
		build/core.bench -test.run '^$$' -test.bench 'Discover|SyscallFloor' -test.benchtime $(BENCH_TIME) \
			-test.benchmem > build/bench-go.round 2>&1 || { cat build/bench-go.round; exit 1; }; \
		grep '^Benchmark' build/bench-go.round | tee -a build/bench-go.txt; \
	done
	@mkdir -p docs/bench
	@$(GO) run ./internal/benchratio -floor SyscallFloor < build/bench-go.txt > docs/bench/go.md
	@cat docs/bench/go.md

bench-js: wasm $(if $(filter $(TOOLS)/%,$(DENO)),$(DENO))
	@mkdir -p docs/bench
	bash -o pipefail -c 'node js/bench/bench.mjs --sizes $(BENCH_SIZES) --cold $(BENCH_COLD) --readme | tee docs/bench/js.md'

	bash -o pipefail -c '$(abspath $(DENO)) run -A js/bench/bench.mjs --sizes $(BENCH_SIZES) --cold 0 | tee docs/bench/js-deno.md'

## profile-js: V8's CPU profile of warm discovery in Node (js/bench/profile.mjs),
## the engine's build before its snapshot (build/skilldex.raw.wasm, which keeps its
## name section) so wasm frames carry Go's names; writes build/prof/discover.cpuprofile
## and its top entries to docs/bench/profile-js.md
PROFILE_SIZE ?= 1000
profile-js: wasm
	@mkdir -p docs/bench
	bash -o pipefail -c 'node js/bench/profile.mjs --wasm build/skilldex.raw.wasm --size $(PROFILE_SIZE) --top 15 | tee docs/bench/profile-js.md'

## profile-cli: V8's CPU profiles of six one-shot `skilldex list --json` runs on
## 1000 generated skills, the shipped module's frames named from
## build/skilldex.raw.wasm; their mean to docs/bench/profile-cli.md
profile-cli: wasm
	@mkdir -p docs/bench
	bash -o pipefail -c 'node js/bench/profile.mjs --oneshot 6 --size $(PROFILE_SIZE) --top 25 | tee docs/bench/profile-cli.md'

## profile-go: Go's pprof of native discovery (BenchmarkDiscover/osfs): the
## engine's functions by cumulative time and the top allocation sites, to
## docs/bench/profile-go.md
profile-go:
	@mkdir -p build/prof docs/bench
	$(GO) test -c -o build/core.bench ./core
	cd build/prof && ../core.bench -test.run '^$$' -test.bench 'Discover/osfs' -test.benchtime 100x -test.benchmem \
		-test.cpuprofile go.cpu -test.memprofile go.mem -test.memprofilerate 4096 | grep '^Benchmark' > go.txt
	@{ echo 'Go pprof of native discovery: `make profile-go`, BenchmarkDiscover/osfs (1000 skills, 100 calls):'; \
	  echo; echo '```'; cat build/prof/go.txt; echo '```'; echo; echo "By cumulative time, the engine's functions:"; echo; echo '```'; \
	  $(GO) tool pprof -top -cum -focus skilldex -nodecount 60 build/core.bench build/prof/go.cpu 2>/dev/null | grep -E 'flat%|skilldex|os\.|syscall\.|mallocgc' | head -24; \
	  echo '```'; echo; echo 'By allocated bytes:'; echo; echo '```'; \
	  $(GO) tool pprof -sample_index=alloc_space -top -nodecount 12 build/core.bench build/prof/go.mem 2>/dev/null | sed -n 5,18p | cut -c1-160; \
	  echo '```'; } | tee docs/bench/profile-go.md

## bench-peers: skilldex, oh-my-pi (Bun), pi-mono and the plain JS loop side by
## side on the same generated workspaces (js/bench/peers.mjs; the peers are
## installed on demand into build/peers at pinned versions; not part of test)
PEERS_SIZES ?= 1000,10000
bench-peers: wasm
	@mkdir -p docs/bench
	bash -o pipefail -c 'node js/bench/peers.mjs --sizes $(PEERS_SIZES) | tee docs/bench/peers.md'

# bench-worker: the main thread's event-loop delay (p99, max)
# during warm discoveries in worker mode against in-thread and an idle
# baseline, and worker mode's warm discovery against in-thread; the summary
# goes to docs/bench/worker.md.
BENCH_WORKER_SIZES ?= 1000,10000
bench-worker: wasm
	@mkdir -p docs/bench
	bash -o pipefail -c 'node js/bench/worker.mjs --sizes $(BENCH_WORKER_SIZES) | tee docs/bench/worker.md'
