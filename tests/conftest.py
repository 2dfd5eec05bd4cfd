"""Session-wide test setup: CPU JAX with a persistent compilation cache, offscreen SDL."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

# Compiled XLA programs are kept on disk, so a second test run skips most compilation.
CACHE_DIR = Path(__file__).resolve().parent.parent / ".cache" / "jax"
os.environ.setdefault("JAX_COMPILATION_CACHE_DIR", str(CACHE_DIR))
# `mbg` commands run in-process (cli.train.enable_compile_cache) keep to the same cache, not the
# user's ~/.cache/mbg/jax, so later test processes load what they compiled
os.environ.setdefault("MBG_JAX_CACHE", os.environ["JAX_COMPILATION_CACHE_DIR"])
# every compile, the eager ops of game starts too, so later test processes load them
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS", "0")
os.environ.setdefault("JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES", "0")


@pytest.fixture(autouse=True)
def _keep_xla_flags(monkeypatch):
    """Commands run in-process ask XLA for host devices through os.environ (`mbg scenarios run`,
    `mbg tournament --devices`); the flag must not leak into later tests' child processes."""
    monkeypatch.setenv("XLA_FLAGS", os.environ.get("XLA_FLAGS", ""))  # restored when it ends
    if not os.environ["XLA_FLAGS"]:
        monkeypatch.delenv("XLA_FLAGS")
