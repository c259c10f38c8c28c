# afcli: build, demo, test, docs and benchmarks. `make demo` and `make test` install what they
# need (Debian and PyPI packages) when it is missing.

SWIFT ?= swift
PREFIX ?= /usr/local
# The Swift runtime is linked statically (DESIGN §3). libstdc++ too: the dynamic loader's symbol
# lookups for libstdc++.so cost about 15% of a small request's instructions. A directory holding
# only libstdc++.a makes the toolchain's own -lstdc++ pick the archive.
STATIC_CXX_DIR = .build/static-cxx
STATIC_CXX = $(firstword $(filter /%,$(shell clang -print-file-name=libstdc++.a 2>/dev/null) \
	$(shell gcc -print-file-name=libstdc++.a 2>/dev/null)))
RELEASE_FLAGS = -c release --static-swift-stdlib $(if $(STATIC_CXX),-Xlinker -L$(STATIC_CXX_DIR))
DEBUG_BIN = .build/debug/afcli
RELEASE_BIN = .build/release/afcli

.PHONY: all deps build release debug demo test unit-test cli-test docs bench install clean

all: release

deps:
	@sh scripts/ensure-deps

release: deps
	@$(if $(STATIC_CXX),mkdir -p $(STATIC_CXX_DIR) && ln -sf $(STATIC_CXX) $(STATIC_CXX_DIR)/libstdc++.a)
	$(SWIFT) build $(RELEASE_FLAGS) --product afcli

debug: deps
	$(SWIFT) build --product afcli

build: release

demo: release
	@sh scripts/demo $(RELEASE_BIN)

# Unit tests (swift test) first, then black-box tests of the built binary against loopback servers.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	AFCLI_BIN=$(DEBUG_BIN) python3 -m pytest -q -p no:cacheprovider Tests/cli

# Regenerates the committed man page and completions from the option table.
docs: debug
	$(DEBUG_BIN) man > man/afcli.1
	$(DEBUG_BIN) completions bash > completions/afcli.bash
	$(DEBUG_BIN) completions zsh > completions/_afcli
	$(DEBUG_BIN) completions fish > completions/afcli.fish

bench: release
	@sh scripts/ensure-deps --bench
	@sh bench/latency $(RELEASE_BIN)

install: release
	install -D -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/afcli
	install -D -m 644 man/afcli.1 $(DESTDIR)$(PREFIX)/share/man/man1/afcli.1
	install -D -m 644 completions/afcli.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/afcli
	install -D -m 644 completions/_afcli $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_afcli
	install -D -m 644 completions/afcli.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/afcli.fish

clean:
	rm -rf .build
