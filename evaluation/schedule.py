"""Match schedules: the games of a match as `GameSetup`s (map, roster, spawn end, seed) and the
command line's roster lists, before any game is played.

Tournament protocol: games 2k and 2k+1 are a pair on one map, roster and seed with Team A at
the west end, then the east end; maps cycle by pair and rosters after every map (`schedule`).
`evaluation.match` re-exports every public name here.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine import constants as C
from engine.pool import parse_roster

RANDOM_ROSTER = "random"  # schedule(): one of each class, slot order drawn from the pair seed


@dataclass(frozen=True, eq=False)
class GameSetup:
    """One game: map (an engine.maps.MapSpec), roster (10,) class ids, spawn_end (0 = Team A
    west, 1 = east), seed (int; the game's PRNG key is `jax.random.key(seed)`), its index in
    the match, and optionally `state`: a State to start from instead of tick 0 (scenarios; it
    must agree with map, roster and spawn end)."""

    map: Any
    roster: np.ndarray
    spawn_end: int
    seed: int
    index: int = 0
    state: Any = None


def load_maps(maps: Any) -> list:
    """Map selection (an id, a split name, "47,48", a list, or MapSpecs) -> list of MapSpec."""
    from engine import maps as map_files

    if isinstance(maps, map_files.MapSpec):
        return [maps]
    if isinstance(maps, Sequence) and maps and all(isinstance(m, map_files.MapSpec) for m in maps):
        return list(maps)
    return list(map_files.load_maps(maps))


def schedule(
    maps: Any, rosters: Sequence = ("MWHRP",), games: int = 2, seed: int = 0, swap_ends=True
) -> list[GameSetup]:
    """The setups of `games` games: maps cycle by pair, rosters after every map has been used.

    With swap_ends, games 2k and 2k+1 form a pair on the same map, roster and seed (seed + k)
    with Team A at the west end, then the east end (tournament protocol). A roster "random"
    puts one agent of each class in a slot order drawn from the pair's seed, the same for both
    teams (mirrored), so that deterministic Systems meet in varied games. Raises ValueError.
    """
    if games < 1:
        raise ValueError(f"games: {games} must be at least 1")
    specs = load_maps(maps)
    if not rosters:
        raise ValueError("rosters: at least one roster is needed")
    setups = []
    for g in range(games):
        pair = g // 2 if swap_ends else g
        roster = rosters[(pair // len(specs)) % len(rosters)]
        setups.append(
            GameSetup(
                map=specs[pair % len(specs)],
                roster=_roster(roster, int(seed) + pair),
                spawn_end=g % 2 if swap_ends else 0,
                seed=int(seed) + pair,
                index=g,
            )
        )
    return setups


def roster_list(text: str, option: str) -> list[str]:
    """A command line's comma-separated rosters ("MWHRP,MMWHP", "random") for `schedule`, each
    checked before any game (engine.pool.parse_roster). Raises ValueError naming `option` and
    the roster at fault, or the position of an empty one ("MWHRP,,MMWHP": a typo, not a
    shorter list)."""
    rosters = [r.strip() for r in text.split(",")]
    if not any(rosters):
        raise ValueError(f"{option} {text!r}: names no roster (e.g. MWHRP)")
    if "" in rosters:
        position = rosters.index("") + 1
        raise ValueError(
            f"{option} {text!r}: roster {position} of {len(rosters)} is empty "
            "(rosters are separated by single commas, e.g. MWHRP,MMWHP)"
        )
    for roster in rosters:
        if roster.lower() != RANDOM_ROSTER:
            try:
                parse_roster(roster)
            except ValueError as error:
                raise ValueError(f"{option} {text}: {error}") from None
    return rosters


def played_roster_count(
    rosters: Sequence[str], games: int, map_count: int, swap_ends=True, sides=1
) -> int:
    """How many of `rosters`, from the first, play at least one game when `games` are split
    evenly over `sides` schedules (`schedule(maps, rosters, games // sides, ...)` each,
    `map_count` maps; mbg eval plays one a side): rosters change only after every map has been
    used, so a short run plays the first ones alone."""
    per_roster = map_count * (2 if swap_ends else 1)  # a schedule's games before the next roster
    return min(len(rosters), -(-(games // sides) // per_roster))


def unplayed_rosters_note(
    rosters: Sequence[str], games: int, map_count: int, option: str, swap_ends=True, sides=1
) -> str | None:
    """Why some of `rosters` play no game (`played_roster_count`, same arguments), None when
    all play. The note names `option`, the --games that gives the first unplayed roster one
    game (a side), and the --games that plays every roster on every map (at both ends)."""
    played = played_roster_count(rosters, games, map_count, swap_ends, sides)
    if played == len(rosters):
        return None
    per_roster = map_count * (2 if swap_ends else 1)
    first = sides * (played * per_roster + 1)  # the smallest --games that reaches the next one
    every = sides * len(rosters) * per_roster
    maps = f"each of the {map_count} maps" if map_count > 1 else "the map"
    one = "one game a side" if sides > 1 else "one game"
    one += " (Team A at the west end)" if swap_ends else ""  # the first game of a pair
    whole = ("both ends of " if swap_ends else "one game on ") + maps
    return (
        f"{option}: {games} games play only {', '.join(rosters[:played])}, not "
        f"{', '.join(rosters[played:])} (rosters change only after {maps} has been played); "
        f"--games {first} gives {rosters[played]} {one}, --games {every} gives every roster "
        f"{whole}{' from each side' if sides > 1 else ''}"
    )


def _roster(roster, seed: int) -> np.ndarray:
    if isinstance(roster, str) and roster.strip().lower() == RANDOM_ROSTER:
        classes = np.random.default_rng(seed).permutation(np.arange(1, C.NUM_CLASSES))
        team = classes[: C.TEAM_SIZE]  # a full team of distinct classes
        return np.concatenate([team, team]).astype(np.int32)
    return parse_roster(roster) if isinstance(roster, str) else np.asarray(roster, np.int32)
