# `make play` and `make test` work on a fresh clone with nothing but python3 and make:
# the first use builds .venv and installs the project into it.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

LOCK   := requirements.lock
# Every optional extra of pyproject.toml, so the lock pins them all.
EXTRAS = $$(python3 -c "import tomllib; print(','.join(tomllib.load(open('pyproject.toml', 'rb'))['project'].get('optional-dependencies', {})))")

.PHONY: play test lint format bench bench-smax-venv clean-venv lock

# Installs exactly the versions in requirements.lock (a pip constraints file: JAX, jaxlib and
# everything else pinned with ==), so replays and checkpoint records reproduce bit for bit.
$(STAMP): pyproject.toml $(LOCK)
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c $(LOCK) -e '.[dev]'
	touch $(STAMP)

# Re-resolves the lock in a scratch venv: versions already in requirements.lock are kept,
# packages pyproject.toml added since are resolved fresh; delete a line (or the file) to
# upgrade. Then `make test` installs from the new lock.
lock:
	rm -rf .venv-lock
	python3 -m venv .venv-lock
	.venv-lock/bin/pip install --quiet --upgrade pip
	touch $(LOCK)
	.venv-lock/bin/pip install --quiet -c $(LOCK) -e ".[$(EXTRAS)]"
	head -n 2 $(LOCK) | grep '^#' > $(LOCK).new || true
	.venv-lock/bin/pip freeze --exclude-editable | grep -v '^marl-battlegrounds' >> $(LOCK).new
	mv $(LOCK).new $(LOCK)
	rm -rf .venv-lock

play: $(STAMP)
	$(VENV)/bin/battleclient

# The suite runs as one pytest process per folder of tests/ (one per file in tests/training),
# TEST_JOBS at a time (one per core, at most 2, by default): tests/helpers/run_processes.py says
# why, prints each process's output whole and names every process that failed.
TEST_JOBS ?=

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) tests/helpers/run_processes.py $(if $(TEST_JOBS),--jobs $(TEST_JOBS))

# The lint step of `make test` alone (seconds).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(STAMP)
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

bench: $(STAMP)
	$(VENV)/bin/mbg bench engine

# JaxMARL (for the SMAX comparison in `mbg bench engine`) in its own venv, at our JAX version.
bench-smax-venv: $(STAMP)
	python3 -m venv .venv-smax
	.venv-smax/bin/pip install --quiet --upgrade pip
	.venv-smax/bin/pip install --quiet "jax==$$($(PY) -c 'import jax; print(jax.__version__)')" \
		"jaxlib==$$($(PY) -c 'import jaxlib; print(jaxlib.__version__)')" \
		flax chex safetensors jaxtyping pillow matplotlib gymnax optax
	.venv-smax/bin/pip install --quiet --no-deps jaxmarl

clean-venv:
	rm -rf $(VENV)
