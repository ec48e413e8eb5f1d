# The Metzker Book of Card Game Rules. `make help` lists the targets.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.lock pyproject.toml | cksum | cut -d' ' -f1)
EDITION ?=
# The suite runs on every CPU (pytest-xdist), each test file in one worker so that its fixtures are
# made once; the workers share one build of each edition (tests/conftest.py). The files are handed out
# longest first, in the order tests/conftest.py gives them (SLOW_FIRST), not by their number of tests.
# PYTEST_ARGS= runs it serially.
PYTEST_ARGS ?= -n auto --dist loadfile --no-loadscope-reorder
# What a build reads, by content: the digest of every file's name and bytes, written to $(DIGEST) only when it
# differs from the one there. A build is due when that file is newer than the last build's stamp: a source changed,
# added, removed, or put back as it was before (an older mtime, which make alone would take for "nothing changed");
# a file touched but not changed is no change.
SOURCES := rules_data content templates generator mkdocs.yml pyproject.toml requirements.lock
OUTDIR := build$(if $(EDITION),/editions/$(EDITION))
BUILT := build/.built-$(if $(EDITION),$(EDITION),current)
DIGEST := build/.sources-$(if $(EDITION),$(EDITION),current)

.DEFAULT_GOAL := all
.PHONY: all build validate test fuzz FORCE serve preview publish bench lint schema freeze help clean booklet edition print-shop book-lock release

all: build ## validate and build the current edition: site in build/site, PDF in build/pdf

$(STAMP): requirements.lock pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --require-hashes -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	@# Every dependency of every pin and of the tool is in the lock (pip installed it without resolving): pip check
	@# says so. After the tool's install, so that it checks what pyproject.toml asks now, not what an older venv's
	@# install of it asked (a dependency the tool no longer has would fail it).
	@$(BIN)/python -m pip check --disable-pip-version-check > $(VENV)/pip-check.txt || { cat $(VENV)/pip-check.txt; exit 1; }
	@$(BIN)/python -m compileall -q generator > /dev/null  # see test: each command starts compiled
	@rm -f $(VENV)/.installed-* && touch $@

venv: $(STAMP) ## create .venv and install the pinned dependencies

validate: $(STAMP) ## check the rules data (EDITION=2026.1 for the as-published book)
	$(BIN)/rulebook validate $(if $(EDITION),--edition $(EDITION))

build: $(BUILT) ## validate, then build site and PDF (EDITION=... for another edition)

$(DIGEST): FORCE
	@mkdir -p $(dir $@)
	@find $(SOURCES) -type f -not -path '*/__pycache__/*' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum \
	  | sha256sum > $@.new && { cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@; }

# Rebuilt when the sources' content changed since the stamp, or the output is missing (someone removed it).
# `rulebook build` validates the current edition and prints the findings as `rulebook validate` does; an
# earlier edition (the book as published, mistakes included) is reported but built whatever it says.
# The stamp is dated when the build starts: a source saved while it runs is newer, so the next `make` builds again
# (the build itself refuses to switch in a book whose sources changed after they were validated).
$(BUILT): $(STAMP) $(DIGEST) $(if $(wildcard $(OUTDIR)/site/index.html),,FORCE)
	$(if $(EDITION),$(BIN)/rulebook validate --edition $(EDITION) || true)
	@mkdir -p $(dir $@) && touch $@.started
	$(BIN)/rulebook build $(if $(EDITION),--edition $(EDITION))
	@mv $@.started $@

booklet: $(STAMP) ## the book PDF plus a fold-and-staple booklet beside it (PAPER=a4 for A5)
	$(BIN)/rulebook build --pdf-only --booklet $(if $(EDITION),--edition $(EDITION)) $(if $(PAPER),--paper $(PAPER))

print-shop: $(STAMP) ## an interior and a cover for a print-on-demand service, checked as it checks them: make print-shop SERVICE=kdp TRIM=6x9 [PAPER_STOCK=cream] (docs/printing.md)
	$(BIN)/rulebook print-shop --service "$(or $(SERVICE),kdp)" --trim "$(or $(TRIM),6x9)" $(if $(EDITION),--edition $(EDITION)) $(if $(PAPER_STOCK),--paper-stock $(PAPER_STOCK))

# The suite starts some 150 Python processes (builds, PDF renders, the command line); each compiled the generator
# again (0.06-0.08 s) where PYTHONDONTWRITEBYTECODE keeps Python from keeping what it compiles (the development
# machine sets it). compileall writes the compiled modules once (to __pycache__, which git ignores).
# pytest keeps each test module as it rewrote its asserts (tests/__pycache__) only where Python may write compiled
# modules: with PYTHONDONTWRITEBYTECODE set, each worker rewrote every test module at every run.
test: $(STAMP) ## run the test suite
	@$(BIN)/python -m compileall -q generator tests bench > /dev/null
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest $(PYTEST_ARGS)

fuzz: $(STAMP) ## a long random search for a bad edit, a damaged cache or an --out folder that gets more than one clear line, a score card validate passes and the build refuses, a score box misread, a saved game that stops the keeper or editions mixed offline (FUZZ_EXAMPLES=3000 each)
	RULEBOOK_FUZZ_EXAMPLES=$(or $(FUZZ_EXAMPLES),3000) $(BIN)/python -m pytest tests/test_fuzz.py tests/test_fuzz_readers.py -n 0 -q

serve: $(STAMP) ## live preview of the site at http://127.0.0.1:8000
	$(BIN)/rulebook serve

preview: $(STAMP) ## live preview of the book PDF in preview/book.pdf (re-lays out only what changed)
	$(BIN)/rulebook preview

publish: $(STAMP) ## deploy every edition that changed with mike to the local gh-pages branch (ALLOW_DIRTY=1: uncommitted changes too)
	$(BIN)/rulebook publish $(if $(ALLOW_DIRTY),--allow-dirty)

bench: $(STAMP) ## run the benchmarks in bench/ (ratios, not timings, are the result)
	$(BIN)/python bench/run.py

book-lock: $(STAMP) ## write templates/init/requirements.lock, the part of requirements.lock a book made by init installs
	$(BIN)/python -m tests.booklock > templates/init/requirements.lock.new && mv templates/init/requirements.lock.new templates/init/requirements.lock

release: ## tag this commit as the release pyproject.toml names, once CHANGELOG.md dates it (docs/releasing.md)
	.ci/release

lint: $(STAMP) ## ruff over the code, and the import contracts (lint-imports)
	$(BIN)/ruff check generator tests bench
	$(BIN)/lint-imports --no-cache --no-logo

schema: $(STAMP) ## regenerate the JSON Schemas in schema/ from the data model
	$(BIN)/rulebook schema

edition: $(STAMP) ## release the current edition and open the next: make edition ID=2026.3 LABEL="Revision 3 (Dec/2026)" [DATE=2026-12-20]
	$(BIN)/rulebook edition new "$(ID)" --label "$(LABEL)" $(if $(DATE),--date "$(DATE)")

freeze: $(STAMP) ## seal the record of an edition published before records were sealed (EDITION=...); a sealed record is refused
	$(BIN)/rulebook freeze $(or $(EDITION),2026.1)

clean: ## remove build output (keeps .venv)
	rm -rf build preview

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/:.*## /\t/' | expand -t 12
