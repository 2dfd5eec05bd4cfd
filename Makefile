# `make play` and `make test` work on a fresh clone with nothing but python3 and make:
# the first use builds .venv and installs the project into it.
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp

.PHONY: play test lint format bench bench-smax-venv clean-venv

$(STAMP): pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

play: $(STAMP)
	$(VENV)/bin/battleclient

test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/pytest

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
