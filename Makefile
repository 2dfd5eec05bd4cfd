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

# The suite runs in three pytest processes: one process for all of it accumulated threads
# (LLM stand-in servers, TensorBoard writers) and compiled programs until XLA aborted after
# about 1,400 tests. Every folder of tests/ must be in a group (checked below).
TEST_GROUP_1 := tests/adapters tests/battleclient tests/catalog tests/cli tests/engine
TEST_GROUP_2 := tests/evaluation tests/fileio tests/maps tests/policies
TEST_GROUP_3 := tests/replay_viewer tests/training tests/ui
TEST_SUPPORT := tests/fixtures tests/helpers

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	@for d in tests/*/; do d=$${d%/}; [ "$${d##*/}" = __pycache__ ] && continue; \
	  case " $(TEST_GROUP_1) $(TEST_GROUP_2) $(TEST_GROUP_3) $(TEST_SUPPORT) " in \
	    *" $$d "*) ;; *) echo "make test: $$d is in no TEST_GROUP of the Makefile"; exit 1;; esac; done
	$(VENV)/bin/pytest $(TEST_GROUP_1)
	$(VENV)/bin/pytest $(TEST_GROUP_2)
	$(VENV)/bin/pytest $(TEST_GROUP_3)

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
