# cdstore — Core Data SQLite stores from the command line.
#
#   make setup     install the system libraries cdstore needs (libsqlite3-dev, libreadline-dev) when missing
#   make build     debug build (the programs linked as the release ones are)
#   make release   release build
#   make test      what CI runs: set up, build, fail on any compiler warning, run every test (the command line's on the
#                  debug programs, linked as the shipped ones), the browser and MCP tests of `serve` and `mcp`, an
#                  install into a temporary prefix, both example packages (the second with the plugins)
#   make release-check  what a release must pass besides: the release build and its warnings, every test with the
#                  command line's on the release programs, browser, MCP and install on them, the packages on a clean
#                  Debian (dist-check), each fuzz target over its saved corpus under AddressSanitizer (fuzz-ci)
#   make warnings  the compiler warnings the last debug build left in Sources/ and Tests/ (fails if there are any)
#   make browser-test  `cdstore serve` in headless Chromium (Tests/Browser/browse_test.py)
#   make mcp-test  `cdstore mcp` driven by the Python MCP SDK (Tests/MCP; installs `mcp` from PyPI when missing)
#   make bench-mcp  median and p99 latency of `count` and a 50-object `fetch` over `cdstore mcp` (release build)
#   make demo      set up, release build, then a real session on Schemas/ (the README shows its output)
#   make readme-demo  rewrite the README's demo block from `make demo` (a test fails while it is stale)
#   make install   install the release binary, bash/zsh/fish completions and the man page under $(PREFIX) (/usr/local)
#   make install-check  install the debug binary (TEST_CONFIGURATION=release: the release one) under a temporary prefix
#                  and run what was installed
#   make dist      the release archive, the Debian package and their SHA256SUMS in dist/ (Scripts/dist.sh)
#   make dist-check  install, run and remove both on a clean debootstrapped Debian bookworm (root; Scripts/dist-check.sh)
#   make bench     benchmarks against the sqlite3 shell and sqlite-utils (ROWS=1000000 RUNS=3; bench/RESULTS.md, the README)
#   make fidelity  check the debug build against every model and store in ../shared/corpus
#   make lint      source files that grew past 500 lines
#   make api       the library's public declarations per module (at most PUBLIC_API_LIMIT, each documented, equal to
#                  the frozen baseline docs/api/public-api.txt); `make api-baseline` rewrites the baseline
#   make docs      the library's documentation (Sources/CDStore/CDStore.docc) as .build-docs/CDStore.doccarchive; fails on any
#                  DocC warning (a link to no symbol, an undocumented parameter)
#   make example   build and run Examples/CompanyReport, a package that uses the library
#   make plugins-test  build Examples/SeededApp with the seed-store and code-generation plugins, verify its seed store
#   make fuzz      build the libFuzzer targets in Fuzz/ and run each for FUZZ_SECONDS (600), one after another
#   make fuzz-ci   run each fuzz target for FUZZ_RUNS (2000) inputs over its saved corpus only (Fuzz/README.md)
#   make clean     remove build products

PREFIX ?= /usr/local
SWIFT ?= swift
# time: the memory tests read peak RSS with /usr/bin/time. graphviz: `model diagram --format svg` runs its dot (the
# SVG test is skipped without it).
# chromium, chromium-driver, python3-selenium: the browser tests of `cdstore serve` (Tests/Browser).
SYSTEM_PACKAGES := libsqlite3-dev libreadline-dev zlib1g-dev time graphviz chromium chromium-driver python3-selenium
# wrk: the load figures of `cdstore serve` (Scripts/bench-serve.sh); hyperfine: start-up timed by another program.
BENCH_PACKAGES := sqlite3 wrk hyperfine
# The library's public declarations (Scripts/public-api.sh): the check fails past this many, on one without a doc
# comment, or when they differ from the frozen baseline docs/api/public-api.txt. The limit is the baseline's count,
# a ratchet: the 1.0 target is 300 (docs/decisions/0015-library-1.0.md says what stands in the way).
PUBLIC_API_LIMIT ?= 597
ROWS ?= 1000000
RUNS ?= 3

.PHONY: setup static-libraries build release warnings test release-check test-programs browser-test mcp-test bench-mcp demo readme-demo install install-check dist dist-check bench reliability fidelity api api-baseline lint docs example plugins-test fuzz-build fuzz fuzz-ci clean

setup:
	@missing=""; \
	for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -q && $$sudo apt-get install -y -q $$missing; \
	fi

# SQLite's and readline's static libraries alone in one folder, which cdstore-full links them from (Package.swift).
STATIC_LIBRARIES := /usr/lib/$(shell uname -m)-linux-gnu/libsqlite3.a /usr/lib/$(shell uname -m)-linux-gnu/libreadline.a
static-libraries:
	@if [ "$$(uname -s)" = Linux ]; then mkdir -p .build/static-libraries && ln -sf $(STATIC_LIBRARIES) .build/static-libraries/; fi

build: setup static-libraries
	$(SWIFT) build

# The Swift runtime and Foundation linked into the binary: start-up (`count` on a small store) took 16% fewer
# instructions and 3 ms less than with them as shared libraries (docs/decisions/0013-bulk-load-speed.md).
RELEASE_FLAGS ?= --static-swift-stdlib
# The two programs by name: a plain `swift build -c release` builds every target, the test support and the fuzzing
# entry points too.
release: setup static-libraries
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product cdstore
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product cdstore-full
	@python3 Scripts/compiler-warnings.py .build/release

# Reads the diagnostics files the compiler keeps per source file, so an incremental build that recompiled nothing
# still shows every warning; no second build. WARNINGS_DIRS picks the builds (default: the debug one).
WARNINGS_DIRS ?= .build/debug
warnings:
	@python3 Scripts/compiler-warnings.py $(WARNINGS_DIRS)

# The programs the command-line, browser, MCP and install tests run: the debug build by default, linked as the
# shipped programs are (Package.swift); `make release-check` runs them on the release build (TEST_CONFIGURATION=release).
TEST_CONFIGURATION ?= debug
TEST_BIN = .build/$(TEST_CONFIGURATION)/cdstore
test-programs: setup static-libraries
	@if [ "$(TEST_CONFIGURATION)" = release ]; then $(MAKE) release; \
	else $(SWIFT) build --product cdstore && $(SWIFT) build --product cdstore-full; fi

# One build, the debug one, to keep CI under its 30 minutes on two cores (18 measured, ADR 0017): every suite, the
# command line's on its programs, which are linked as the shipped ones are; then the example packages with both
# plugins and an install. The release build, the packages and the sanitized fuzzing build are `make release-check`.
test: setup static-libraries
	@Scripts/public-api.sh --check $(PUBLIC_API_LIMIT)
	@Scripts/client-imports.sh
	$(SWIFT) build --build-tests
	@python3 Scripts/compiler-warnings.py .build/debug
	$(SWIFT) test --skip-build
	$(MAKE) browser-test mcp-test install-check
	$(MAKE) example
	$(MAKE) plugins-test

# Before a release, after `make test` (whose test build it reuses): every suite with the command line's on the release
# programs (CDSTORE_BIN), the browser, MCP and install checks on them, the packages made from them on a clean Debian,
# and each fuzz target over its saved corpus under AddressSanitizer.
release-check: setup static-libraries
	$(SWIFT) build --build-tests
	$(MAKE) test-programs TEST_CONFIGURATION=release
	CDSTORE_BIN=$(CURDIR)/.build/release/cdstore $(SWIFT) test --skip-build
	$(MAKE) browser-test mcp-test install-check TEST_CONFIGURATION=release
	$(MAKE) dist-check
	$(MAKE) fuzz-ci

# `cdstore serve` (which cdstore hands over to cdstore-full) in headless Chromium (Selenium): home → entity → filter → object → relationship, counts, labels, facets, charts, --watch live rows, hostile strings
# shown as text, no console errors, the store's bytes unchanged. Debian's python3 has python3-selenium.
browser-test: test-programs
	/usr/bin/python3 Tests/Browser/browse_test.py $(TEST_BIN)

# `cdstore mcp` with a client nobody here wrote: the Python MCP SDK starts it, lists and calls every tool on Schemas/
# and corpus stores, checks results against fetch/count/project, refused writes, unchanged bytes, and hostile
# messages (Hypothesis). pytest prints the closing `N passed` line.
MCP_PYTHON_PACKAGES := mcp hypothesis pytest
mcp-test: test-programs
	@python3 -c 'import mcp, hypothesis, pytest' 2>/dev/null || \
	  { echo "installing $(MCP_PYTHON_PACKAGES) (pip)"; python3 -m pip install --quiet $(MCP_PYTHON_PACKAGES); }
	CDSTORE=$(CURDIR)/$(TEST_BIN) python3 -m pytest -q -p no:cacheprovider Tests/MCP

# ROWS Person rows (1,000,000), 1,000 calls of each tool from the Python MCP SDK; a table row per tool.
bench-mcp: release
	@python3 -c 'import mcp' 2>/dev/null || python3 -m pip install --quiet mcp
	@python3 Scripts/bench-mcp.py .build/release/cdstore --rows $(ROWS)

demo: release
	@Scripts/demo.sh .build/release/cdstore

readme-demo: release
	@Scripts/readme-demo.py .build/release/cdstore

install: release
	@SWIFT_BUILD_FLAGS="$(RELEASE_FLAGS)" Scripts/install.sh .build/release/cdstore $(PREFIX) release

# The programs stamped with the version from git, completions, man page, README: an archive to unpack anywhere and a
# .deb, reproducible (Scripts/dist.sh says how); DIST_DIR is where they go.
DIST_DIR ?= dist
dist: release
	@RELEASE_FLAGS="$(RELEASE_FLAGS)" Scripts/dist.sh $(DIST_DIR)

dist-check: dist
	@Scripts/dist-check.sh $(DIST_DIR)

# What `make install` does, with the programs of TEST_CONFIGURATION, under a fresh temporary prefix; then the
# installed binary runs a command, hands a SwiftData model over to the installed cdstore-full, and the completions
# and man page must be there.
install-check: test-programs
	@prefix=$$(mktemp -d) && trap 'rm -rf "$$prefix"' EXIT && \
	Scripts/install.sh $(TEST_BIN) "$$prefix" $(TEST_CONFIGURATION) && \
	"$$prefix/bin/cdstore" model validate Schemas/Company.json >/dev/null && \
	printf '@Model final class Note {\n    var title: String = ""\n}\n' > "$$prefix/Note.swift" && \
	"$$prefix/bin/cdstore" model show "$$prefix/Note.swift" | grep -q Note && \
	"$$prefix/bin/cdstore" --version && \
	for f in bin/cdstore bin/cdstore-full share/bash-completion/completions/cdstore share/zsh/site-functions/_cdstore \
	    share/fish/vendor_completions.d/cdstore.fish share/man/man1/cdstore.1; do \
	  test -s "$$prefix/$$f" || { echo "install-check: $$f was not installed"; exit 1; }; \
	done && echo "install-check: ok"

bench: release
	@missing=""; \
	for p in $(BENCH_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -q && $$sudo apt-get install -y -q $$missing; \
	fi
	@command -v sqlite-utils >/dev/null 2>&1 || python3 -m sqlite_utils --version >/dev/null 2>&1 || \
	  { echo "installing sqlite-utils (pip)"; python3 -m pip install --quiet sqlite-utils; }
	@ROWS=$(ROWS) RUNS=$(RUNS) Scripts/bench.sh .build/release/cdstore
	@Scripts/bench-scan.sh .build/release/cdstore
	@python3 -c 'import mcp' 2>/dev/null || python3 -m pip install --quiet mcp
	@python3 Scripts/bench-mcp.py .build/release/cdstore --rows $(ROWS)

# Concurrency, killed writers, a full disk, exact values and limits at full size, RELIABILITY_RUNS times each (default 5): a
# table of case, runs, failures in bench/RELIABILITY.md. `make test` runs the same suites once, smaller.
RELIABILITY_RUNS ?= 5
reliability: setup
	$(SWIFT) build --build-tests
	@RUNS=$(RELIABILITY_RUNS) SWIFT=$(SWIFT) Scripts/reliability.sh

fidelity: build
	python3 ../shared/checks/fidelity.py .build/debug/cdstore -v

api:
	@Scripts/public-api.sh --check $(PUBLIC_API_LIMIT)

api-baseline:
	@Scripts/public-api.sh --write-baseline && Scripts/public-api.sh

lint:
	@find Sources Tests -name '*.swift' | xargs wc -l | awk '$$2 != "total" && $$1 > 500 {print; bad=1} END {exit bad}'

# The toolchain's docc over the symbol graph of CDStore (its own scratch path: the extra compiler flags would
# otherwise rebuild .build). No plugin dependency: swift-docc-plugin would add a package to every build.
DOCS_DIR := .build-docs
docs: setup
	$(SWIFT) build --scratch-path $(DOCS_DIR) --target CDStore \
	  -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc $(CURDIR)/$(DOCS_DIR)/symbol-graphs-all
	@rm -rf $(DOCS_DIR)/symbol-graphs && mkdir -p $(DOCS_DIR)/symbol-graphs
	@cp $(DOCS_DIR)/symbol-graphs-all/CDStore.symbols.json $(DOCS_DIR)/symbol-graphs-all/CDStore@*.symbols.json $(DOCS_DIR)/symbol-graphs/ 2>/dev/null || true
	docc convert Sources/CDStore/CDStore.docc --warnings-as-errors --additional-symbol-graph-dir $(DOCS_DIR)/symbol-graphs \
	  --fallback-display-name CDStore --fallback-bundle-identifier cdstore.CDStore --output-path $(DOCS_DIR)/CDStore.doccarchive
	@echo "documentation in $(DOCS_DIR)/CDStore.doccarchive"

# An example package that depends on this one by path (its own scratch path, so it never touches .build).
# The build plan is dropped first: SwiftPM does not notice files added to a path dependency (../..) otherwise.
example: setup
	@rm -f .build-example/debug.yaml
	$(SWIFT) build --package-path Examples/CompanyReport --scratch-path .build-example
	$(SWIFT) run --package-path Examples/CompanyReport --scratch-path .build-example --skip-build company-report Schemas

# Examples/SeededApp, an app-like package built with the root's two plugins, in the scratch path the first example
# uses, so that the dependencies they share are built once (Scripts/plugins-test.sh says what is checked).
plugins-test: setup
	@rm -f .build-example/debug.yaml
	@SWIFT=$(SWIFT) Scripts/plugins-test.sh .build-example

# Fuzzing (Fuzz/README.md). Sanitized builds go to their own scratch path so they never touch .build.
# A finding (crash, sanitizer report, timeout, over-large allocation) is written to .build-fuzz/artifacts/;
# every target still runs, and the make fails at the end if any target found something.
FUZZ_SECONDS ?= 600
FUZZ_RUNS ?= 2000
# fuzz-ci stops a target at FUZZ_RUNS inputs or FUZZ_CI_SECONDS, whichever comes first, after replaying its corpus:
# fuzz-swift-model (swift-syntax under AddressSanitizer) took 244 s for its 2,000 inputs in a loaded CI run.
FUZZ_CI_SECONDS ?= 10
# Long runs yield to builds by default; FUZZ_NICE=0 when the fuzzer must own its core (the 10-minute runs).
FUZZ_NICE ?= 19
FUZZ_TARGETS ?= predicate xml-model json-model compiled-model swift-model plist ndjson json-records csv xcmapping cdm pattern
# Leak checks are off: Foundation (CFError, XMLParser) leaks small objects on error paths cdstore does not own.
FUZZ_LIMITS := -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=512 -detect_leaks=0
FUZZ_BIN := .build-fuzz/debug
# No Swift crash backtracer under AddressSanitizer: it reads the dead process's memory and shows up as a false report.
FUZZ_ENV := SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0
FUZZ_DICT = case $$t in predicate) echo -dict=Fuzz/Dictionaries/predicate.dict;; \
	  xml-model|plist|xcmapping) echo -dict=Fuzz/Dictionaries/xml.dict;; swift-model) echo -dict=Fuzz/Dictionaries/swift.dict;; csv) echo -dict=Fuzz/Dictionaries/csv.dict;; \
	  json-model|ndjson|json-records) echo -dict=Fuzz/Dictionaries/json.dict;; pattern) echo -dict=Fuzz/Dictionaries/pattern.dict;; esac

# SwiftPM does not notice files added to or removed from the main package, a path dependency of Fuzz/, and then fails
# with "cannot find type …": when the list of source files changed since the last fuzz build, removing the cached build
# description makes it plan the build again (touching the main manifest did not always).
fuzz-build: setup
	@mkdir -p .build-fuzz; sources=$$(find Sources -name '*.swift' | sort | cksum); \
	  if [ "$$sources" != "$$(cat .build-fuzz/sources.cksum 2>/dev/null)" ]; then rm -f .build-fuzz/*/debug/description.json; fi; \
	  echo "$$sources" > .build-fuzz/sources.cksum
	$(SWIFT) build -c debug --package-path Fuzz --scratch-path .build-fuzz -Xswiftc -sanitize=fuzzer,address

fuzz: fuzz-build
	@mkdir -p .build-fuzz/artifacts .build-fuzz/logs; failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  mkdir -p .build-fuzz/corpus/$$t; \
	  echo "== fuzz-$$t for $(FUZZ_SECONDS) s from $$(date -u +%H:%M:%S), log in .build-fuzz/logs/$$t.log"; \
	  if $(FUZZ_ENV) nice -n $(FUZZ_NICE) $(FUZZ_BIN)/fuzz-$$t $(FUZZ_LIMITS) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
	      -artifact_prefix=.build-fuzz/artifacts/$$t- $$($(FUZZ_DICT)) .build-fuzz/corpus/$$t Fuzz/Corpus/$$t \
	      >.build-fuzz/logs/$$t.log 2>&1; \
	  then grep -E '^Done|peak_rss' .build-fuzz/logs/$$t.log; \
	  else tail -n 40 .build-fuzz/logs/$$t.log; failed="$$failed $$t"; fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz: findings in$$failed (see .build-fuzz/artifacts/)"; exit 1; fi

fuzz-ci: fuzz-build
	@failed=""; \
	for t in $(FUZZ_TARGETS); do \
	  rm -rf .build-fuzz/ci/$$t; mkdir -p .build-fuzz/ci/$$t .build-fuzz/artifacts; \
	  if $(FUZZ_ENV) $(FUZZ_BIN)/fuzz-$$t $(FUZZ_LIMITS) -runs=$(FUZZ_RUNS) -max_total_time=$(FUZZ_CI_SECONDS) -seed=1 $$($(FUZZ_DICT)) \
	      -artifact_prefix=.build-fuzz/artifacts/$$t- .build-fuzz/ci/$$t Fuzz/Corpus/$$t >.build-fuzz/ci/$$t.log 2>&1; \
	  then echo "fuzz-$$t: ok ($$(grep -o 'Done [0-9]* runs in [0-9]* second(s)' .build-fuzz/ci/$$t.log))"; \
	  else echo "fuzz-$$t: FAILED"; tail -n 40 .build-fuzz/ci/$$t.log; failed="$$failed $$t"; fi; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz-ci: findings in$$failed"; exit 1; fi

clean:
	rm -rf .build .build-fuzz .build-docs .build-example .build-example-generate .build-dist $(DIST_DIR)
