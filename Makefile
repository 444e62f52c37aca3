# Build Station. `make check` is the one gate CI runs.
GO        ?= go
BIN       ?= bin/buildstation
STATICCHECK = honnef.co/go/tools/cmd/staticcheck@v0.8.2
ACTIONLINT  = github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
export LANG ?= C.UTF-8
# The gate and every build the Makefile makes use a patched Go: 1.26.8 (the
# go.mod floor, what `go run .` takes on a fresh machine) has standard-library
# advisories fixed later, and go1.27.3 is the newer toolchain the module proxy
# serves. The go command fetches it through the proxy on first use (~76 MB).
export GOTOOLCHAIN := go1.27.3

.PHONY: package-check msi-smoke release-check manifests actionlint build build-station install docs run demo demo-headless test test-pg pg check fmt vet lint cross windows fuzz fuzz-long bench deps screenshots screenshots-evening package vulncheck

## build: the full binary (station, CLI and, with cgo, the tray)
build:
	@echo "make build: $(BIN) with the tray (cgo, Fyne); the first build compiles the C parts and takes several minutes"
	$(GO) build -o $(BIN) .

## build-station: the headless station and CLI, no cgo (any box)
build-station:
	@echo "make build-station: $(BIN), the station and CLI without cgo"
	CGO_ENABLED=0 $(GO) build -o $(BIN) .

## run: a station in the foreground on the default home
run:
	$(GO) run . daemon

## demo: the scripted demo with the tray; demo-headless: station only
demo:
	@echo "make demo: building the tray (cgo; the first build takes several minutes), then the demo"
	$(GO) run . demo

demo-headless:
	@echo "make demo-headless: building the station (no cgo), then the demo; it ends by itself in about two minutes"
	CGO_ENABLED=0 $(GO) run . demo --headless

## install: both programs side by side, as the packages ship them, into
## $(PREFIX)/bin when PREFIX is set, else GOBIN (default: $(go env GOPATH)/bin):
## buildstation, the command line (no cgo: it starts in milliseconds), and
## buildstation-app, the station and (with cgo) the tray, which the command
## line hands their verbs (internal/faces)
PREFIX ?=
install:
	@bin="$(if $(PREFIX),$(PREFIX)/bin,$$($(GO) env GOBIN))"; [ -n "$$bin" ] || bin=$$($(GO) env GOPATH)/bin; \
	  app="the station and the tray"; [ "$$($(GO) env CGO_ENABLED)" = 1 ] || app="the station, no tray: CGO_ENABLED=0"; \
	  echo "make install: $$bin/buildstation (the command line, no cgo), then $$bin/buildstation-app ($$app; with cgo the first build compiles Fyne's C parts and takes several minutes)"; \
	  mkdir -p "$$bin" && \
	  CGO_ENABLED=0 $(GO) build -o "$$bin/buildstation" ./cmd/buildstation && \
	  $(GO) build -o "$$bin/buildstation-app" . && \
	  echo "installed $$bin/buildstation and $$bin/buildstation-app" && \
	  case ":$$PATH:" in *":$$bin:"*) ;; *) echo "add $$bin to your PATH: export PATH=\"$$bin:\$$PATH\"";; esac

## docs: a man page for every command in docs/man (man -l docs/man/buildstation.1)
docs:
	$(GO) run ./scripts/gendocs docs/man

## test: every test, with the race detector (the PostgreSQL ones skip
## without BUILDSTATION_TEST_PG; test-pg starts a throwaway server for them)
test:
	@echo "make test: every package with -race (about 10 minutes on 2 cores)"
	@[ -n "$$BUILDSTATION_TEST_PG" ] || echo "SKIP: set BUILDSTATION_TEST_PG (make pg): the PostgreSQL tests skip (make test-pg runs them)"
	GORACE=atexit_sleep_ms=0 $(GO) test -race -timeout 15m ./...

test-pg:
	bash .ci/with-postgres.sh $(MAKE) test

## pg: start a throwaway PostgreSQL and print the line that points the tests at it:
##   eval "$$(make -s pg)"
pg:
	@bash .ci/postgres.sh

fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# Fyne's widgets need cgo on darwin, so darwin's vet leaves app/ out; the
# tray itself is built for darwin only on a Mac.
vet:
	$(GO) vet ./...
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet $$($(GO) list ./... | grep -v -e '/app$$' -e '/app/')

## actionlint: the GitHub workflows (.github/workflows: the real Windows and
## macOS jobs), which cannot run here
actionlint:
	@echo "make actionlint: the workflows (actionlint built on first use)"
	$(GO) run $(ACTIONLINT) .github/workflows/*.yml

lint:
	@echo "make lint: staticcheck (built on first use)"
	$(GO) run $(STATICCHECK) ./...

## vulncheck: govulncheck on every package; says SKIPPED (exit 0) when its
## database cannot be reached, fails when the code calls a vulnerable function
vulncheck:
	GO=$(GO) bash scripts/vulncheck.sh

## cross: the station for Windows and macOS without cgo
cross:
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) build -o /dev/null .
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build -o /dev/null .
	GOOS=darwin GOARCH=amd64 CGO_ENABLED=0 $(GO) build $$($(GO) list ./... | grep -v -e '/app$$' -e '/app/')

## fuzz: each fuzz target briefly (CI); fuzz-long: a few minutes each
FUZZTIME ?= 8s
FUZZ_TARGETS = ./supervisor/config:FuzzParse ./supervisor/config:FuzzLocate ./supervisor/station:FuzzConsole \
	./supervisor/api:FuzzRequestBodies ./cli:FuzzParseHook
fuzz:
	@for t in $(FUZZ_TARGETS); do pkg=$${t%%:*}; fn=$${t##*:}; \
	  echo "fuzz $$pkg $$fn ($(FUZZTIME))"; \
	  $(GO) test -run '^$$' -fuzz "^$$fn$$" -fuzztime $(FUZZTIME) $$pkg >/tmp/fuzz.$$$$.log 2>&1 || { cat /tmp/fuzz.$$$$.log; exit 1; }; done

fuzz-long:
	$(MAKE) fuzz FUZZTIME=3m

## windows: the three Windows .exe (the command line; the whole program with
## cgo (mingw) as console and GUI programs), smoke-tested under Wine
windows:
	@echo "make windows: the command line, and the whole program's two .exe faces with cgo (mingw; the first build takes several minutes), then the Wine smoke test"
	bash .ci/windows-smoke.sh

## screenshots: the real tray app under Xvfb on the demo, as PNGs in
## screenshots/, then a desktop user's first evening a step a shot
## (evening-NN-*.png): about 7 min on 2 loaded cores with the build cache
## warm, more with the Claude Code shots (.cache/claude);
## screenshots-evening: the evening alone (about 2 min)
screenshots:
	@echo "make screenshots: the tray (cgo build, slow the first time) under Xvfb, into screenshots/"
	bash scripts/screenshots.sh screenshots

screenshots-evening:
	@echo "make screenshots-evening: e2e/tray TestFirstEvening (cgo build, then about a minute) into screenshots/"
	mkdir -p screenshots
	SCREENSHOTS="$$PWD/screenshots" $(GO) test ./e2e/tray -run '^TestFirstEvening$$' -count=1 -v

## check: formatting, vet, staticcheck, tests with -race (a throwaway PostgreSQL
## started for them when BUILDSTATION_TEST_PG is unset), the cgo (tray) build,
## cross-builds and the Windows smoke test, the release configuration, the
## packages as a user meets them (the MSI installed and uninstalled under
## Wine, the .deb and .tar.gz unpacked and run), fuzzing
check: fmt vet lint actionlint release-check test-pg build cross windows package-check fuzz

## deps: what the tests need on Debian (run as root); CI runs this first
deps:
	bash .ci/deps

## bench: station cost and limits against baselines, as one table (Linux, under 10 min on a quiet 2-core machine with the build cache warm, up to 20 loaded)
bench:
	@echo "make bench: station cost and limits against baselines (under 10 minutes on a quiet 2-core machine once built, up to 20 when loaded; a first cgo build of the tray adds minutes; each figure says how long it took)"
	bash bench/bench.sh

## package: what a release ships, into $(DIST): on Linux the .tar.gz and .deb
## (nfpm), and from any OS with mingw both Windows exes and a per-user MSI
## (msitools' wixl); on a Mac the universal app in a .dmg and a .zip
## (scripts/package.sh says what signs it). It says what a Mac must build.
FYNE_TOOLS ?= fyne.io/tools/cmd/fyne@v1.7.4
DIST       ?= bin/dist
package:
	@echo "make package: cgo builds for Linux and Windows (the first ones take several minutes), then the .tar.gz, .deb and .msi"
	GO=$(GO) DIST=$(DIST) FYNE_TOOLS=$(FYNE_TOOLS) bash scripts/package.sh

## msi-smoke: the MSI's round trip under Wine (install per-user, the three
## exes' --version, the command line handing a verb to the app, service
## install --dry-run, uninstall, nothing left), then an upgrade from an
## older MSI built in the same run (OLD_VERSION, from OLD_REF: the last
## commit whose MSI shipped the two whole-program faces): one product, the
## new exes and no other file, the Run value and the link handler kept,
## the station paused and started again; uninstall, nothing left
OLD_VERSION ?= 0.0.1-rc1
OLD_REF     ?= cc8eb8e19542302222dff2edbf73b92412b747d8
msi-smoke: package
	@echo "make msi-smoke: an older MSI ($(OLD_VERSION), from $(OLD_REF)) for the upgrade (relinks its exes)"
	GO=$(GO) FYNE_TOOLS=$(FYNE_TOOLS) bash scripts/old-msi.sh $(OLD_REF) $(OLD_VERSION) $(DIST)/old
	@echo "make msi-smoke: installing the MSI in a fresh Wine prefix, then the upgrade in another (several minutes)"
	bash scripts/msi-smoke.sh $(DIST)/buildstation-$$(bash scripts/version.sh)-windows-amd64.msi $(DIST)/old/buildstation-$(OLD_VERSION)-windows-amd64.msi

## package-check: make package, then the .deb and .tar.gz as a user meets
## them (scripts/linux-pkg-check.sh) and the MSI's Wine round trip
package-check: msi-smoke
	@echo "make package-check: the .deb and .tar.gz unpacked and run"
	DIST=$(DIST) bash scripts/linux-pkg-check.sh

## manifests: the Homebrew cask and winget manifests from the artifacts in $(DIST)
manifests:
	DIST=$(DIST) bash scripts/manifests.sh

## release-check: the release configuration (goreleaser check); the
## workflows themselves go through actionlint
GORELEASER = github.com/goreleaser/goreleaser/v2@v2.15.1
release-check:
	@echo "make release-check: goreleaser check (built on first use: a few minutes)"
	$(GO) run $(GORELEASER) check
