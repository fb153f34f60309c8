# metube — make targets. `make run` and `make test` work from a clean clone on Debian with Swift.
SWIFT ?= swift
SHELL := /bin/bash
# What building and running need (ncurses for the TUI, libchafa and libjpeg-turbo for thumbnails,
# SQLite for the server, zlib for HTTP compression, pkg-config to find them), and what only the tests and the benchmarks need
# on top (tmux drives the TUI, mpv plays, man renders the pages, PostgreSQL, wrk and nginx serve the
# server tests and figures, yt-dlp downloads a video ffmpeg makes).
BUILD_PACKAGES := libncursesw5-dev libchafa-dev libglib2.0-dev libturbojpeg0-dev libsqlite3-dev zlib1g-dev pkg-config
TEST_PACKAGES := tmux man-db groff-base mpv python3 postgresql wrk nginx-light yt-dlp ffmpeg
APT_PACKAGES := $(BUILD_PACKAGES) $(TEST_PACKAGES)
RELEASE_BIN := .build/release
# Release builds link the Swift runtime and Foundation statically: a process starts in a few ms
# instead of 20–30 ms of dynamic linking, which is most of `metube list --limit 100`'s time.
RELEASE := -c release --static-swift-stdlib
PREFIX ?= /usr/local
DESTDIR ?=
PROGRAMS := metube metube-server
MAN_OUT := .build/man
COMPLETIONS_OUT := .build/completions
MANUAL_PLUGIN_OUT := .build/plugins/GenerateManual/outputs

.PHONY: deps build-deps build release test run bench man completions install uninstall clean

## deps: install the Debian packages the build, the tests and the benchmarks need, only those missing.
deps:
	@scripts/install-deps $(APT_PACKAGES)

## build-deps: install only the Debian packages building and running need.
build-deps:
	@scripts/install-deps $(BUILD_PACKAGES)

## build: debug build of every product.
build: build-deps
	$(SWIFT) build

## release: release build of the two programs.
release: build-deps
	$(SWIFT) build $(RELEASE) --product metube
	$(SWIFT) build $(RELEASE) --product metube-server

## test: every test (unit, server, sync, CLI processes, TUI in tmux, install into a DESTDIR).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) build --product generate-manual
	@scripts/run-tests $(SWIFT)

## run: build, start a local metube-server with demo data, open the TUI against it.
run: release
	@scripts/run-demo $(RELEASE_BIN)

## bench: release build of the benchmark executables and the programs they run, then every figure
## (a table, then one JSON line per figure); docs/performance.md is written from that output.
## `make bench SUITES="store tui"` runs some suites and leaves docs/performance.md alone.
bench: deps
	$(SWIFT) build $(RELEASE) --product metube
	$(SWIFT) build $(RELEASE) --product metube-server
	$(SWIFT) build $(RELEASE) --product metube-bench
	$(SWIFT) build $(RELEASE) --product metube-bench-probe
	@mkdir -p .build/bench
	set -o pipefail; $(RELEASE_BIN)/metube-bench $(SUITES) | tee .build/bench/latest.txt
	@if [ -z "$(SUITES)" ]; then scripts/performance-table .build/bench/latest.txt docs/performance.md && echo "bench: docs/performance.md written"; fi

## man: man pages from the ArgumentParser definitions (one per command and subcommand), plus
## the hand-written metube-config(5), in .build/man.
man: release
	$(SWIFT) build $(RELEASE) --product generate-manual
	scripts/generate-docs man $(RELEASE_BIN) $(MAN_OUT)

## completions: bash, zsh and fish completion scripts in .build/completions.
completions: release
	scripts/generate-docs completions $(RELEASE_BIN) $(COMPLETIONS_OUT)

## install: stripped binaries, man pages, completions, the example config and the systemd units
## under $(DESTDIR)$(PREFIX); the list of installed files goes to share/doc/metube/MANIFEST.
install: man completions
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install $(RELEASE_BIN) $(MAN_OUT) $(COMPLETIONS_OUT)

## uninstall: removes exactly what install listed in its MANIFEST.
uninstall:
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" scripts/install uninstall

clean:
	rm -rf .build
