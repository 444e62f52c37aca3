# Build Station. `make check` is the one gate CI runs.
GO        ?= go
BIN       ?= bin/buildstation
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2
export LANG ?= C.UTF-8

.PHONY: build build-station run demo demo-headless test check fmt vet lint cross fuzz fuzz-long bench deps screenshots package

## build: the full binary (station, CLI and, with cgo, the tray)
build:
	$(GO) build -o $(BIN) .

## build-station: the headless station and CLI, no cgo (any box)
build-station:
	CGO_ENABLED=0 $(GO) build -o $(BIN) .

## run: a station in the foreground on the default home
run:
	$(GO) run . daemon

## demo: the scripted demo with the tray; demo-headless: station only
demo:
	$(GO) run . demo

demo-headless:
	CGO_ENABLED=0 $(GO) run . demo --headless

## test: every test, with the race detector
test:
	GORACE=atexit_sleep_ms=0 $(GO) test -race -timeout 15m ./...

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet ./...

lint:
	$(GO) run $(STATICCHECK) ./...

## cross: the station for Windows and macOS without cgo
cross:
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -o /dev/null .
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build -o /dev/null .
	GOOS=darwin GOARCH=amd64 CGO_ENABLED=0 $(GO) build ./...

## fuzz: each fuzz target briefly (CI); fuzz-long: a few minutes each
FUZZTIME ?= 8s
FUZZ_TARGETS = ./supervisor/config:FuzzParse ./supervisor/config:FuzzLocate ./supervisor:FuzzConsole \
	./supervisor/api:FuzzRequestBodies ./cli:FuzzParseHook
fuzz:
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
	  $(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg >/tmp/fuzz.$$$$.log 2>&1 || { cat /tmp/fuzz.$$$$.log; exit 1; }; done

fuzz-long:
	$(MAKE) fuzz FUZZTIME=3m

## check: formatting, vet, staticcheck, tests with -race, cross-builds, fuzzing
check: fmt vet lint test cross fuzz

## deps: what the tests need on Debian (run as root); CI runs this first
deps:
	bash .ci/deps

## bench: station cost and limits against baselines, as one table (Linux, ~6 min)
bench:
	bash bench/bench.sh
