# cdstore — Core Data SQLite stores from the command line.
#
#   make setup     install the system libraries cdstore needs (libsqlite3-dev, libreadline-dev) when missing
#   make build     debug build
#   make release   release build
#   make test      set up, build and run every test (what CI runs)
#   make demo      set up, release build, then a real session on Schemas/ (the README shows its output)
#   make install   install the release binary into $(PREFIX)/bin (PREFIX defaults to /usr/local)
#   make bench     benchmarks against the sqlite3 shell and sqlite-utils (ROWS=1000000 RUNS=3; bench/RESULTS.md, the README)
#   make fidelity  check the debug build against every model and store in ../shared/corpus
#   make lint      source files that grew past 500 lines
#   make clean     remove build products

PREFIX ?= /usr/local
SWIFT ?= swift
SYSTEM_PACKAGES := libsqlite3-dev libreadline-dev zlib1g-dev
BENCH_PACKAGES := sqlite3 time
ROWS ?= 1000000
RUNS ?= 3

.PHONY: setup build release test demo install bench reliability fidelity lint clean

setup:
	@missing=""; \
	for p in $(SYSTEM_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
	  echo "installing$$missing"; \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi; \
	  $$sudo apt-get update -q && $$sudo apt-get install -y -q $$missing; \
	fi

build: setup
	$(SWIFT) build

release: setup
	$(SWIFT) build -c release

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

demo: release
	@Scripts/demo.sh .build/release/cdstore

install: release
	install -d $(PREFIX)/bin
	install -m 755 .build/release/cdstore $(PREFIX)/bin/cdstore

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

# Concurrency, killed writers, a full disk, exact values and limits at full size, RELIABILITY_RUNS times each (default 5): a
# table of case, runs, failures in bench/RELIABILITY.md. `make test` runs the same suites once, smaller.
RELIABILITY_RUNS ?= 5
reliability: setup
	$(SWIFT) build --build-tests
	@RUNS=$(RELIABILITY_RUNS) SWIFT=$(SWIFT) Scripts/reliability.sh

fidelity: build
	python3 ../shared/checks/fidelity.py .build/debug/cdstore -v

lint:
	@find Sources Tests -name '*.swift' | xargs wc -l | awk '$$2 != "total" && $$1 > 500 {print; bad=1} END {exit bad}'

clean:
	rm -rf .build
