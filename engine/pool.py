"""Packing maps, rosters and spawn ends into a fixed-size `Pool` for auto-reset (RULES A10).

Host-side NumPy; the result is a pytree of arrays, so a new pool of the same capacity never
recompiles a jitted `reset` or `step`.
"""

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from engine import constants as C

if TYPE_CHECKING:
    from engine.types import Pool

MAX_POOL = C.MAX_POOL

CLASS_LETTERS = C.CLASS_OF_LETTER  # "M" -> Mage's class id, ... (engine/constants.py CLASSES)
EMPTY_SLOT = "-"


def default_pads() -> np.ndarray:
    """The canonical pads (RULES A5): (2 ends, 5 pads, 2) float32, x = 1.5 west / 18.5 east."""
    ys = np.array([1.5, 3.25, 5.0, 6.75, 8.5], np.float32)
    west = np.stack([np.full(5, 1.5, np.float32), ys], axis=1)
    east = np.stack([np.full(5, C.MAP_WIDTH - 1.5, np.float32), ys], axis=1)
    return np.stack([west, east])


def default_red_zones() -> np.ndarray:
    """The canonical Red Zones (RULES 1.6): (2 ends, 4) [x0, y0, x1, y1], 4 units deep."""
    depth, w, h = C.RED_ZONE_DEPTH, C.MAP_WIDTH, C.MAP_HEIGHT
    return np.array([[0.0, 0.0, depth, h], [w - depth, 0.0, w, h]], np.float32)


class GameLayout(NamedTuple):
    """The static layout of one game, in the engine's slot order: obstacles (32, 8) float32
    (the obstacle table, RULES 1.2, unused rows zero), pads (10, 2) map units (slot s spawns on
    pads[s]), red_zones (2 teams, 4) [x0, y0, x1, y1] map units (RULES 1.6)."""

    obstacles: np.ndarray
    pads: np.ndarray
    red_zones: np.ndarray


def game_layout(spec, spawn_end: int) -> GameLayout:
    """A map (`engine.maps.MapSpec`: obstacles (n, 8), pads (2 ends, 5, 2), red_zones (2 ends,
    4)) played with Team A at `spawn_end` (0 west, 1 east; RULES 4.4) -> its `GameLayout`:
    Team A gets the pads and Red Zone of its end, Team B those of the other."""
    end = int(spawn_end)
    if end not in (0, 1):
        raise ValueError(f"spawn_end {spawn_end!r}: expected 0 (west) or 1 (east)")
    table = np.zeros((C.MAX_OBSTACLES, C.OBSTACLE_FEATURES), np.float32)
    table[: len(spec.obstacles)] = spec.obstacles
    pads = np.concatenate([spec.pads[end], spec.pads[1 - end]])
    return GameLayout(table, pads, np.stack([spec.red_zones[end], spec.red_zones[1 - end]]))


def first_gap(block) -> int | None:
    """The team-local index of an empty slot followed by an agent in one team's class ids, or
    None when the agents fill the block from its first slot (RULES 2.1)."""
    filled = [bool(c) for c in block]
    size = sum(filled)
    return None if all(filled[:size]) else filled.index(False)


def parse_roster(text: str) -> np.ndarray:
    """The one roster grammar: "MWHRP/MWHRP", "MW/HR", "MWH--/H" -> (10,) int32 class ids.

    One letter per slot (engine/constants.py CLASSES: M Mage, W Warrior, H Hunter, R Rogue,
    P Priest; case-insensitive), Team A before the slash, "-" an empty slot (id 0); a roster
    without a slash is mirrored ("MWH" = "MWH/MWH"). Each team needs 1-5 agents filling its
    slots from the first (RULES 2.1). Raises ValueError naming the roster and the bad part.
    """
    text = str(text)
    halves = text.split("/") if "/" in text else [text, text]
    if len(halves) != 2:
        raise ValueError(f"roster {text!r}: expected 'TEAM_A/TEAM_B', e.g. 'MWHRP/MWHRP'")
    roster = np.zeros(C.NUM_SLOTS, np.int32)
    for team, half in enumerate(halves):
        name, letters = C.TEAM_NAMES[team], half.strip().upper()
        if len(letters) > C.TEAM_SIZE:
            raise ValueError(
                f"roster {text!r}: team {name} has more than {C.TEAM_SIZE} slots "
                f"(a team has 1-{C.TEAM_SIZE} agents)"
            )
        for k, letter in enumerate(letters):
            if letter != EMPTY_SLOT and letter not in CLASS_LETTERS:
                raise ValueError(
                    f"roster {text!r}: unknown class letter {letter!r} "
                    f"(use one of {C.CLASS_LETTERS} or {EMPTY_SLOT})"
                )
            roster[C.TEAM_SLOTS[team][k]] = CLASS_LETTERS.get(letter, 0)
        block = roster[list(C.TEAM_SLOTS[team])]
        if not block.any():
            raise ValueError(f"roster {text!r}: team {name} needs 1-{C.TEAM_SIZE} agents")
        gap = first_gap(block)
        if gap is not None:
            raise ValueError(
                f"roster {text!r}: slot {name}{gap} is empty but a later slot of team {name} "
                "is not; a team fills its slots from the first (RULES 2.1)"
            )
    return roster


def roster_text(roster: Sequence[int]) -> str:
    """Inverse of `parse_roster`: (10,) class ids -> "MWHRP/MW" (trailing empty slots dropped,
    a gap written as "-")."""
    teams = []
    for slots in C.TEAM_SLOTS:
        letters = "".join(
            C.CLASS_GLYPHS[int(roster[s])] if roster[s] else EMPTY_SLOT for s in slots
        )
        teams.append(letters.rstrip(EMPTY_SLOT))
    return "/".join(teams)


def _pad_rows(rows: np.ndarray, name: str) -> np.ndarray:
    if not 1 <= len(rows) <= MAX_POOL:
        raise ValueError(f"pool: {name} needs 1-{MAX_POOL} entries, got {len(rows)}")
    padded = np.zeros((MAX_POOL,) + rows.shape[1:], rows.dtype)
    padded[: len(rows)] = rows
    return padded


def pack_pool(
    obstacles: Sequence[np.ndarray],
    rosters: Sequence[np.ndarray | str],
    *,
    pads: Sequence[np.ndarray] | None = None,
    red_zones: Sequence[np.ndarray] | None = None,
    map_ids: Sequence[int] | None = None,
    p_east: float = 0.5,
) -> "Pool":
    """Build a `Pool` from per-map arrays and rosters.

    obstacles: per map a (k <= 32, 8) float32 table (RULES 1.2 columns); pads: per map
    (2, 5, 2) by end; red_zones: per map (2, 4) by end; rosters: (10,) class ids or strings for
    `parse_roster`; p_east: probability that Team A spawns east. Raises ValueError on bad shapes
    and for a scenario arena (ids 900-999, `engine.maps.refuse_scenario_arenas`).
    """
    n = len(obstacles)
    tables = np.zeros((n, C.MAX_OBSTACLES, C.OBSTACLE_FEATURES), np.float32)
    for i, table in enumerate(obstacles):
        table = np.asarray(table, np.float32).reshape(-1, C.OBSTACLE_FEATURES)
        if len(table) > C.MAX_OBSTACLES:
            raise ValueError(f"pool: map {i} has {len(table)} obstacles, at most 32 fit")
        tables[i, : len(table)] = table
    pads_arr = np.stack(pads) if pads is not None else np.stack([default_pads()] * n)
    zones_arr = (
        np.stack(red_zones) if red_zones is not None else np.stack([default_red_zones()] * n)
    )
    ids = np.asarray(map_ids if map_ids is not None else range(n), np.int32)
    from engine.maps import refuse_scenario_arenas  # engine.maps imports this module

    refuse_scenario_arenas(ids.tolist(), "pool")
    roster_arr = np.stack(
        [parse_roster(r) if isinstance(r, str) else np.asarray(r) for r in rosters]
    )
    if not 0.0 <= p_east <= 1.0:
        raise ValueError(f"pool: p_east {p_east!r} is not a probability")
    import jax.numpy as jnp  # only here: the map tools use this module without JAX

    from engine.types import Pool

    return Pool(
        obstacles=jnp.asarray(_pad_rows(tables, "maps")),
        pads=jnp.asarray(_pad_rows(pads_arr.astype(np.float32), "pads")),
        red_zones=jnp.asarray(_pad_rows(zones_arr.astype(np.float32), "red_zones")),
        map_ids=jnp.asarray(_pad_rows(ids, "map_ids")),
        num_maps=jnp.int32(n),
        rosters=jnp.asarray(_pad_rows(roster_arr.astype(np.int32), "rosters")),
        num_rosters=jnp.int32(len(roster_arr)),
        p_east=jnp.float32(p_east),
    )
