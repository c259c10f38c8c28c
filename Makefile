# afcli: build, demo, test, docs and benchmarks. `make demo` and `make test` install what they
# need (Debian and PyPI packages) when it is missing.

SWIFT ?= swift
# SwiftPM and the Swift compiler driver leave TemporaryDirectory.* folders in TMPDIR on every
# command and compile job (about 90 for a `make test`): their commands here get a temporary
# directory of their own inside .build, which `make test` removes at the end.
# SWIFTPM_ENV goes first on a recipe line: `$(SWIFTPM_ENV) [VAR=value...] $(SWIFT) build`.
SWIFTPM_TMP = $(CURDIR)/.build/tmp
SWIFTPM_ENV = mkdir -p $(SWIFTPM_TMP) && TMPDIR=$(SWIFTPM_TMP)
SWIFTPM_TMP_CLEANUP = rm -rf $(SWIFTPM_TMP)
PREFIX ?= /usr/local
# The Swift runtime is linked statically (DESIGN §3). libstdc++ too: the dynamic loader's symbol
# lookups for libstdc++.so cost about 15% of a small request's instructions. A directory holding
# only libstdc++.a makes the toolchain's own -lstdc++ pick the archive.
STATIC_CXX_DIR = .build/static-cxx
STATIC_CXX = $(firstword $(filter /%,$(shell clang -print-file-name=libstdc++.a 2>/dev/null) \
	$(shell gcc -print-file-name=libstdc++.a 2>/dev/null)))
# The executable is linked as non-PIE, as Go links its binaries on linux/amd64: a PIE image of this
# size carries about 19,000 relocations whose copy-on-write page faults cost close to a
# millisecond per run. Shared libraries (libcurl, OpenSSL) are still loaded at random addresses.
# libgcc's unwinder is linked in too (one shared object fewer to map and relocate), and the
# executable exports no symbols: an export table of ~3,500 Swift symbols slows every symbol lookup
# the dynamic loader and dladdr make (~0.3 ms a run together).
# The toolchain's default linker (gold) and the compiler's default sections: lld with
# -function-sections only paid with a linker order file; without one, a single GET was ~4 % slower
# (paired beside curl) and its peak RSS 0.35 MiB higher.
# No $ORIGIN run path: every library afcli loads is a system one, and the dynamic loader would
# otherwise look for each (and libm's hardware-capability variants) beside the executable first,
# about 30 failed opens and stats at every start.
# Type metadata is reached through the compiler's accessors, not by mangled name: a name is
# demangled at run time, and the first use of a generic type by name (a dictionary of strings,
# a Result of an exchange) scans all ~7,000 protocol conformances to check its requirements,
# about 550,000 instructions (3.5 %) of a single request.
RELEASE_FLAGS = -c release --static-swift-stdlib --disable-local-rpath $(if $(STATIC_CXX),-Xlinker -L$(STATIC_CXX_DIR)) \
	-Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors \
	-Xswiftc -Xclang-linker -Xswiftc -no-pie -Xswiftc -Xclang-linker -Xswiftc -static-libgcc \
	-Xlinker --no-export-dynamic
DEBUG_BIN = .build/debug/afcli
RELEASE_BIN = .build/release/afcli

.PHONY: all deps build release debug demo test unit-test cli-test docs bench install clean check-layers fuzz sanitize

all: release

deps:
	@sh scripts/ensure-deps

release: deps
	@$(if $(STATIC_CXX),mkdir -p $(STATIC_CXX_DIR) && ln -sf $(STATIC_CXX) $(STATIC_CXX_DIR)/libstdc++.a)
	$(SWIFTPM_ENV) $(SWIFT) build $(RELEASE_FLAGS) --product afcli

debug: deps
	$(SWIFTPM_ENV) $(SWIFT) build --product afcli

build: release

demo: release
	@sh scripts/demo $(RELEASE_BIN)

# Unit tests (swift test) first, then black-box tests against loopback servers, twice: against
# the debug build, and against the release executable users get (static runtime, its own argv
# hand-off and link flags), which only it exercises.
# The layering check comes first: it takes a fraction of a second and fails before any build.
test: check-layers deps
	$(SWIFTPM_ENV) $(SWIFT) build --build-tests
	$(SWIFTPM_ENV) $(SWIFT) test --skip-build
	AFCLI_BIN=$(DEBUG_BIN) python3 -m pytest -q -p no:cacheprovider Tests/cli
	$(MAKE) --no-print-directory release
	AFCLI_BIN=$(RELEASE_BIN) python3 -m pytest -q -p no:cacheprovider Tests/cli
	@$(SWIFTPM_TMP_CLEANUP)

# Fails when a Swift file imports a module of this package that its target does not declare in
# Package.swift (DESIGN §3: AFCLI sees AFKit only, AFKit sees AFCurl and the C shims).
check-layers:
	@python3 scripts/check-layers

# libFuzzer harnesses (Tests/Fuzz) built with AddressSanitizer into .build-fuzz, each run for
# FUZZ_SECONDS (default 60) on its seed corpus; prints executions and findings. Not part of test.
FUZZ_SECONDS ?= 60
fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) SWIFT=$(SWIFT) sh scripts/fuzz

# The unit tests under AddressSanitizer (with LeakSanitizer; scripts/lsan.supp lists what lives
# until exit on purpose) and then ThreadSanitizer, each in its own build directory (the CLI's
# release link flags do not apply there). Not part of test.
sanitize: deps
	$(SWIFTPM_ENV) $(SWIFT) build --build-tests --sanitize=address --build-path .build-asan
	$(SWIFTPM_ENV) LSAN_OPTIONS=suppressions=$(CURDIR)/scripts/lsan.supp \
		$(SWIFT) test --skip-build --sanitize=address --build-path .build-asan
	$(SWIFTPM_ENV) $(SWIFT) build --build-tests --sanitize=thread --build-path .build-tsan
	$(SWIFTPM_ENV) $(SWIFT) test --skip-build --sanitize=thread --build-path .build-tsan
	@$(SWIFTPM_TMP_CLEANUP)

# Regenerates the committed man page, the Markdown reference in docs/ and the completions from
# the option table and the manual's text (Sources/AFCLI/Docs).
docs: debug
	$(DEBUG_BIN) man > man/afcli.1
	@mkdir -p docs
	$(DEBUG_BIN) man markdown > docs/reference.md
	$(DEBUG_BIN) completions bash > completions/afcli.bash
	$(DEBUG_BIN) completions zsh > completions/_afcli
	$(DEBUG_BIN) completions fish > completions/afcli.fish

bench: release
	@sh scripts/ensure-deps --bench
	@sh bench/latency $(RELEASE_BIN)

# A 1 GiB multipart upload to a local nginx sink: afcli beside curl -F, xh and HTTPie.
.PHONY: bench-upload
bench-upload: release
	@sh scripts/ensure-deps --bench
	@sh bench/upload $(RELEASE_BIN)

# 1 GiB from a local nginx to a file and to /dev/null: afcli download beside curl, wget, xh, HTTPie.
.PHONY: bench-download
bench-download: release
	@sh scripts/ensure-deps --bench
	@python3 bench/download $(RELEASE_BIN)

# A small GET over TLS to a local nginx (certificates made on the fly): afcli --verify=CA beside
# curl --cacert, xh and HTTPie, and afcli with a key pin.
.PHONY: bench-tls
bench-tls: release
	@sh scripts/ensure-deps --bench
	@sh bench/tls $(RELEASE_BIN)

# A small GET over TLS with HTTP/2 to a local nginx (listen ... ssl http2): afcli beside
# curl --http2, xh and HTTPie.
.PHONY: bench-h2
bench-h2: release
	@sh scripts/ensure-deps --bench
	@sh bench/h2 $(RELEASE_BIN)

# A 50 MB JSON array and a 26 MB XML document formatted into a file (--pretty=format and =all):
# afcli beside xh, HTTPie, curl | jq . and curl | xmllint --format -.
.PHONY: bench-format
bench-format: release
	@python3 bench/format $(RELEASE_BIN)

# 100,000 small server-sent events to a pipe: afcli as received, --pretty=all and --events=json
# beside curl -N | cat (time and peak RSS), then 200 MB of events and one endless line at flat memory.
.PHONY: bench-events
bench-events: release
	@python3 bench/events $(RELEASE_BIN)

# The response cache: a hit of a small and of a 50 MB JSON beside a plain GET from nginx and curl,
# and the peak RSS of storing and serving a 1 GiB body (needs 2 GiB free in bench/out).
.PHONY: bench-cache
bench-cache: release
	@sh bench/cache $(RELEASE_BIN)

# A small GET with --env from a config of 20 common parameters beside the same GET written out
# in full, and curl (the config must not slow start-up).
.PHONY: bench-config
bench-config: release
	@sh bench/config $(RELEASE_BIN)

# An encrypted 100 MiB POST (--encrypt-cmd openssl): time and peak RSS beside curl posting the
# encrypted file.
.PHONY: bench-crypto
bench-crypto: release
	@sh bench/crypto $(RELEASE_BIN)

# afcli run as a test runner: 2,000 GETs from a .http file, each with a value from an earlier
# response and two assertions, beside the same requests without them (and Hurl when installed).
.PHONY: bench-run-tests
bench-run-tests: release
	@sh bench/run-tests $(RELEASE_BIN)

# 2,000 small GETs from one afcli run, --parallel 50 and one after the other, beside curl -Z and
# curl with 2,000 URLs; xh and HTTPie loops for scale.
.PHONY: bench-batch
bench-batch: release
	@sh scripts/ensure-deps --bench
	@sh bench/batch $(RELEASE_BIN)

install: release
	install -D -m 755 $(RELEASE_BIN) $(DESTDIR)$(PREFIX)/bin/afcli
	install -D -m 644 man/afcli.1 $(DESTDIR)$(PREFIX)/share/man/man1/afcli.1
	install -D -m 644 completions/afcli.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/afcli
	install -D -m 644 completions/_afcli $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_afcli
	install -D -m 644 completions/afcli.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/afcli.fish

clean:
	rm -rf .build .build-fuzz .build-asan .build-tsan
