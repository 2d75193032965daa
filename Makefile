GO ?= go

.PHONY: build test race purego bench gobench fuzz vet

build:
	$(GO) build -o bin/tsr ./cmd/tsr

test:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# The kernels and the tensor runtime under the race detector (every
# registered kernel variant runs in these tests, and the parallel paths are
# forced on small shapes). Needs cgo (a C compiler).
race:
	$(GO) test -race -count=1 ./backends/... ./tensor/...

# The pure-Go kernels alone (build tag purego removes the assembly).
purego:
	$(GO) test -tags purego -count=1 ./backends/... ./tensor/...

# tsr against NumPy and PyTorch, one table (bench/run_all.sh; QUICK=1 for a
# short run). Needs /usr/bin/python3 with NumPy and PyTorch for the
# comparison columns: apt-get install python3-numpy python3-torch libopenblas0-pthread
bench:
	QUICK=$(QUICK) bench/run_all.sh

# Every Go benchmark in the module, plain `go test -bench` output.
gobench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Each fuzz target for FUZZTIME (default 60s). Targets are found by name in
# the test files, so listing them compiles nothing.
FUZZTIME ?= 60s
fuzz:
	@grep -rn --include='*_test.go' '^func Fuzz' . | \
	sed -E 's#^\./(([^:]*)/)?[^/:]*_test\.go:[0-9]+:func (Fuzz[A-Za-z0-9_]*).*#\3 ./\2#' | \
	while read -r name dir; do \
	  echo "== $$dir $$name"; \
	  corpus="$$dir/testdata/fuzz/$$name"; \
	  before=$$(ls "$$corpus" 2>/dev/null | wc -l); \
	  ok=0; \
	  for try in 1 2 3; do \
	    if $(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) "$$dir"; then ok=1; break; fi; \
	    after=$$(ls "$$corpus" 2>/dev/null | wc -l); \
	    if [ "$$after" -gt "$$before" ]; then echo "fuzz: $$name found a failing input in $$corpus"; exit 1; fi; \
	    echo "fuzz: $$name stopped without a failing input (Go's fuzzer can report its own deadline as a failure); running it again"; \
	  done; \
	  [ "$$ok" = 1 ] || exit 1; \
	done
