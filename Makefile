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

# The suite runs one pytest process per folder of tests/, and one per file in the folders named
# in TEST_FILE_PER_PROCESS: a process that compiled several hundred training programs aborted
# inside XLA while writing one more to the compilation cache (each file alone passes). A
# failing process does not stop the rest; the summary names every one that failed.
TEST_FILE_PER_PROCESS := tests/training
TEST_SUPPORT := tests/fixtures tests/helpers

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	@failed=""; \
	for d in tests/*/; do d=$${d%/}; \
	  case " $(TEST_SUPPORT) $$d/ " in *" $$d "*|*/__pycache__/*) continue;; esac; \
	  case " $(TEST_FILE_PER_PROCESS) " in *" $$d "*) targets="$$(ls $$d/test_*.py)";; *) targets=$$d;; esac; \
	  for t in $$targets; do echo "== pytest $$t"; $(VENV)/bin/pytest $$t || failed="$$failed $$t"; done; \
	done; \
	if [ -n "$$failed" ]; then echo "make test: failed in:$$failed"; exit 1; fi; \
	echo "make test: every process passed"

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
