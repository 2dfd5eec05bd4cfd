"""The commands' persistent compile cache (cli.train.enable_compile_cache) keeps every compile,
the eager ops of a game's start among them, so a second process compiles none of them again."""

import os
import subprocess
import sys

START = """
from cli.train import enable_compile_cache
enable_compile_cache()
from evaluation import match, scenario_lines as L, scenarios as S
(s,) = S.load_scenarios(["1"])
match.start(s.config, L.scenario_lineup(s, "random"), L.setup(s))
"""


def _start_in_a_fresh_process(cache) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("JAX_")}
    env |= {"MBG_JAX_CACHE": str(cache), "JAX_PLATFORMS": "cpu"}
    done = subprocess.run(
        [sys.executable, "-c", START], env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_second_process_loads_a_game_starts_eager_ops_from_the_cache(tmp_path):
    cache = tmp_path / "jax"
    _start_in_a_fresh_process(cache)
    entries = sorted(p.name for p in cache.iterdir())
    assert len(entries) > 50  # the observation's eager ops, each a few ms to tens of ms to compile
    _start_in_a_fresh_process(cache)
    assert sorted(p.name for p in cache.iterdir()) == entries  # nothing compiled anew
