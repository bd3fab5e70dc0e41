# Two commands do all the set-up on a fresh machine:
#   make dev   installs what is missing, then serves the API on http://127.0.0.1:3000
#   make test  installs what is missing, then runs every test
PYTHON ?= python3
VENV := .venv
SAM_VENV := .venv-sam
CHECKOV_VENV := .venv-checkov
PY := $(VENV)/bin/python
export SAM_CLI_TELEMETRY := 0

.PHONY: dev test bench bench-full validate build clean checkov lint chromium ocr catalogs web

$(VENV)/.installed: requirements.txt requirements-dev.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements-dev.txt
	touch $@

$(SAM_VENV)/.installed: requirements-sam.txt
	test -x $(SAM_VENV)/bin/python || $(PYTHON) -m venv $(SAM_VENV)
	$(SAM_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(SAM_VENV)/bin/python -m pip install --quiet -r requirements-sam.txt
	touch $@

# checkov has its own venv: its pins clash with the app's and SAM's.
$(CHECKOV_VENV)/.installed: requirements-checkov.txt
	test -x $(CHECKOV_VENV)/bin/python || $(PYTHON) -m venv $(CHECKOV_VENV)
	$(CHECKOV_VENV)/bin/python -m pip install --quiet -r requirements-checkov.txt
	touch $@

# IaC security scan; each accepted finding is skipped beside its resource, with the reason.
checkov: $(CHECKOV_VENV)/.installed
	$(CHECKOV_VENV)/bin/checkov --quiet --compact --skip-download --framework cloudformation -f template.yaml

# make dev PORT=3001 DB_PORT=8001: another API / embedded DynamoDB port (defaults 3000 / 8000).
PORT ?= 3000
DB_PORT ?= 8000
dev: $(VENV)/.installed web
	$(PY) -m app serve --port $(PORT) --db-port $(DB_PORT)

# chromium comes first: without it (and no way to install it) make test stops at once.
# checkov is installed here and run once, by tests/deploy/test_production.py (not twice).
# Bytecode is cached even where PYTHONDONTWRITEBYTECODE is set (an empty value unsets it):
# each xdist worker compiles and assertion-rewrites every test module when it collects, and
# without __pycache__ (git-ignored) it did so on every run: 19 s -> 12 s CPU per worker.
test: chromium ocr $(VENV)/.installed $(SAM_VENV)/.installed $(CHECKOV_VENV)/.installed lint web
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n 2 --dist worksteal

# The web app (web/ -> web/dist, served at /app/): npm ci when node_modules is missing or stale,
# the OpenAPI document its client types come from, and a build only when an input's hash
# changed (scripts/build_web.py). Needs Node 20+ with npm.
web: $(VENV)/.installed
	$(PY) scripts/build_web.py

# Headless Chromium for the browser tests: found, installed (root with apt-get), or one line
# saying what to install (scripts/ensure_chromium.sh).
chromium:
	@scripts/ensure_chromium.sh

# The receipt tests' font (required) and Tesseract (optional engine): scripts/ensure_ocr.sh.
ocr:
	@scripts/ensure_ocr.sh

# ruff, configured in pyproject.toml: a `noqa` in the code names a rule it really breaks.
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .

# make catalogs: the texts the code writes for readers (app/core/i18n.py), extracted into
# app/locales/messages.pot, merged into each locale's .po (translate what is new there), and
# compiled to the .mo files the app reads; tests/platform/test_catalogs.py checks all three.
catalogs: $(VENV)/.installed
	$(VENV)/bin/pybabel extract -F babel.cfg --no-location --omit-header --sort-output \
		-o app/locales/messages.pot .
	$(VENV)/bin/pybabel update -i app/locales/messages.pot -d app/locales -D messages \
		--no-fuzzy-matching --ignore-obsolete --ignore-pot-creation-date
	$(VENV)/bin/pybabel compile -d app/locales -D messages

# make bench: the slow benches at a smaller size (bench/run_all.py QUICK, ~10 min on 2 cores);
# make bench-full: every bench at the size docs/benchmarks.md's rows name.
bench: $(VENV)/.installed
	$(PY) bench/run_all.py

bench-full: $(VENV)/.installed
	$(PY) bench/run_all.py --full

validate: $(VENV)/.installed $(SAM_VENV)/.installed checkov
	$(SAM_VENV)/bin/sam validate --lint
	$(SAM_VENV)/bin/sam validate --region us-east-1
	$(VENV)/bin/cfn-lint template.yaml

# The Lambda package's architecture. Unset, it is template.yaml's Architecture default (arm64),
# which plain `sam build` also uses. `make build LAMBDA_ARCHITECTURE=x86_64` builds both the
# template's functions and the wheels for x86_64 (deploy with the same Architecture). Plain
# `sam build --parameter-overrides Architecture=x86_64` needs LAMBDA_ARCHITECTURE=x86_64 in
# the environment too: SAM tells the make target nothing but ARTIFACTS_DIR (aws-sam-cli#3349).
LAMBDA_ARCHITECTURE ?=
export LAMBDA_ARCHITECTURE
SAM_BUILD_FLAGS = $(if $(LAMBDA_ARCHITECTURE),--parameter-overrides Architecture=$(LAMBDA_ARCHITECTURE))
# Both halves: the Lambda package (sam build) and the web app (web/dist), which
# `scripts/publish_web.py --stack <name>` uploads after `sam deploy` (docs/deploy.md).
build: $(SAM_VENV)/.installed web
	$(SAM_VENV)/bin/sam build $(SAM_BUILD_FLAGS)

# `sam build` calls build-<LogicalId> (BuildMethod: makefile, build_in_source) with
# ARTIFACTS_DIR set. One pattern rule serves every function of template.yaml (their logical
# ids end in Function; tests/deploy/test_package.py checks each has its target). The package
# holds the locked runtime requirements, app/ (without app/local) and models/, precompiled by
# the runtime's Python 3.12 (LAMBDA_PYTHON; found on PATH or under pyenv when unset).
LAMBDA_PYTHON ?=
export LAMBDA_PYTHON
.PHONY: lock lambda-python
build-%Function:
	$(PYTHON) scripts/lambda_package.py "$(ARTIFACTS_DIR)"

# The Python 3.12 the package step uses (the package test runs handlers with it too).
lambda-python:
	@$(PYTHON) scripts/lambda_package.py --find-python

# Rewrite requirements.lock after editing requirements.txt (a test fails until you do).
lock: $(VENV)/.installed
	$(PYTHON) scripts/lambda_lock.py $(VENV)/bin/uv

clean:
	rm -rf $(VENV) $(SAM_VENV) $(CHECKOV_VENV) .aws-sam .bench
