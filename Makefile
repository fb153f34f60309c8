# metube — make targets. `make run` and `make test` work from a clean clone on Debian with Swift.
SWIFT ?= swift
APT_PACKAGES := libncursesw5-dev libsqlite3-dev tmux pkg-config
RELEASE_BIN := .build/release

.PHONY: deps build test run bench clean

## deps: install the Debian packages the build and the tests need, only those missing.
deps:
	@scripts/install-deps $(APT_PACKAGES)

## build: debug build of every product.
build: deps
	$(SWIFT) build

## test: every test (unit, server, sync, CLI processes, TUI in tmux).
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## run: build, start a local metube-server with demo data, open the TUI against it.
run: deps
	$(SWIFT) build -c release --product metube
	$(SWIFT) build -c release --product metube-server
	@scripts/run-demo $(RELEASE_BIN)

## bench: release build of the benchmark executable, then every figure.
bench: deps
	$(SWIFT) build -c release
	$(RELEASE_BIN)/metube-bench

clean:
	rm -rf .build
