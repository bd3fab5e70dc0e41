# Two commands do all the set-up on a fresh machine:
#   make dev   installs what is missing, then serves the API on http://127.0.0.1:3000
#   make test  installs what is missing, then runs every test
PYTHON ?= python3
VENV := .venv
SAM_VENV := .venv-sam
CHECKOV_VENV := .venv-checkov
PY := $(VENV)/bin/python
export SAM_CLI_TELEMETRY := 0

.PHONY: dev test bench validate build clean checkov

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
dev: $(VENV)/.installed
	$(PY) -m app serve --port $(PORT) --db-port $(DB_PORT)

test: $(VENV)/.installed $(SAM_VENV)/.installed checkov
	$(PY) -m pytest -n 2

bench: $(VENV)/.installed
	$(PY) bench/run_all.py

validate: $(VENV)/.installed $(SAM_VENV)/.installed checkov
	$(SAM_VENV)/bin/sam validate --lint
	$(SAM_VENV)/bin/sam validate --region us-east-1
	$(VENV)/bin/cfn-lint template.yaml

build: $(SAM_VENV)/.installed
	$(SAM_VENV)/bin/sam build

# `sam build` calls these (BuildMethod: makefile, build_in_source): the package holds only
# app/, models/ and the runtime requirements, built for Lambda's arm64 Python 3.12.
LAMBDA_PYTHON ?= python3.12
LAMBDA_FUNCTIONS := ApiFunction ProvisioningFunction HourlyTickFunction NotificationWorkerFunction MaintenanceFunction
.PHONY: $(addprefix build-,$(LAMBDA_FUNCTIONS))
$(addprefix build-,$(LAMBDA_FUNCTIONS)):
	python3 -m pip install --quiet -r requirements.txt -t "$(ARTIFACTS_DIR)" \
	  --platform manylinux2014_aarch64 --implementation cp --python-version 3.12 --only-binary=:all:
	cp -R app models "$(ARTIFACTS_DIR)/"
	find "$(ARTIFACTS_DIR)" -name __pycache__ -prune -exec rm -rf {} +
	rm -rf "$(ARTIFACTS_DIR)/app/local"
	# Ship bytecode for the runtime's Python: Lambda's file system is read-only, so without it
	# every cold start compiles our sources (and pip's pyc are for the build host's Python).
	$(LAMBDA_PYTHON) -m compileall -q -j 0 --invalidation-mode unchecked-hash "$(ARTIFACTS_DIR)"

clean:
	rm -rf $(VENV) $(SAM_VENV) $(CHECKOV_VENV) .aws-sam .bench
