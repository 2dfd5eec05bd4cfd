"""The scripted bots choose exactly what they chose before their speed-up (issue #26).

tests/fixtures/bots/bot_decisions.npz holds 144 bot decisions sampled from 12 recorded
bot-against-bot games (brawler, kiter and tactician on both spawn ends, validation maps):
the observation, masks and path-finding Memory each bot read, and the actions and Memory it
returned, recorded from the bot code before it was made cheaper
(tests/fixtures/bots/make_bot_decisions.py). The current code must return the same actions,
and the same Memory bit for bit (the walking-distance field steers later ticks' choices).
Memory has since gained the walking grid it keeps for the game (not in the recording): it is
given as a match would have kept it, and must come back equal to the grid built from scratch.
"""

import functools
import pathlib

import jax
import numpy as np
import pytest

from engine.types import Masks, Obs
from policies import scripted
from policies import scripted_nav as nav

FIXTURE = pathlib.Path(__file__).parents[1] / "fixtures" / "bots" / "bot_decisions.npz"
OBS_FIELDS = ("units", "visible", "relayed", "public", "obstacles", "context", "prev_action")
OBS_FIELDS += ("class_id", "self_index")
MASK_FIELDS = ("move", "pair", "target", "ult", "flat")


@functools.cache
def _recorded() -> dict:
    with np.load(FIXTURE) as data:
        return {name: data[name] for name in data.files}


# Each bot once, on both slot blocks (west team's slots 0-4 and east team's 5-9), in the quick
# run; the other three recorded sides (each bot again, on its other block) only with the slow
# tests, as every side compiles its own decision program.
QUICK = ("0_0", "0_1", "1_1")


def _sides() -> list:
    names = sorted({name.split("/")[0] for name in _recorded()})
    slow = pytest.mark.slow
    return [side if side in QUICK else pytest.param(side, marks=slow) for side in names]


@functools.cache
def _decide(bot: str, slots: tuple):
    style = scripted.STYLES[bot]
    one = lambda obs, masks, memory: scripted.styled_policy(style, obs, masks, memory, slots)  # noqa: E731
    return jax.jit(jax.vmap(one))


def _kept_grids(data: dict, slots: tuple):
    """Each sample's walking grids from scratch (24, 5, 8, 10, 20), and the recorded Memory
    holding them where its stamp is this tick's table's (as a match keeps them), else the
    empty grid of a fresh Memory (which the bot must then rebuild)."""
    tables = jax.numpy.asarray(data["obs/obstacles"][:, list(slots)])
    grids = np.asarray(jax.vmap(jax.vmap(nav.grid_links))(tables))
    current = np.asarray(jax.vmap(jax.vmap(nav.stamp))(tables))
    field, goal, stamp = (data[f"memory/{i}"] for i in range(3))
    kept = np.where((stamp == current)[..., None, None, None], grids, False)
    return grids, scripted.Memory(field, goal, stamp, kept)


@pytest.mark.parametrize("side", _sides())
def test_bot_choices_match_the_recorded_ones(side):
    data = {k.split("/", 1)[1]: v for k, v in _recorded().items() if k.startswith(side + "/")}
    bot, slots = str(data["bot"]), tuple(int(s) for s in data["slots"])
    masks = Masks(**{f: data[f"obs/mask.{f}"] for f in MASK_FIELDS})
    obs = Obs(**{f: data[f"obs/{f}"] for f in OBS_FIELDS}, mask=masks)
    grids, memory = _kept_grids(data, slots)
    actions, new_memory = jax.device_get(_decide(bot, slots)(obs, masks, memory))
    for head in ("move", "target", "ult"):
        recorded = data[f"actions/{head}"]
        got = np.asarray(getattr(actions, head))
        differ = np.argwhere(got != recorded)
        assert differ.size == 0, f"{bot} {head}: {len(differ)} choices differ, first {differ[:3]}"
    for i, name in enumerate(scripted.Memory._fields[:3]):
        np.testing.assert_array_equal(new_memory[i], data[f"new_memory/{i}"], err_msg=name)
    np.testing.assert_array_equal(new_memory.links, grids, err_msg="links")
    # The fixture must exercise real play: moves, attacks and Ultimates all occur.
    assert len(set(data["actions/move"].ravel())) > 3
    assert (data["actions/target"] > 0).any()
