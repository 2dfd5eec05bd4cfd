"""Replay verification that trusts nothing unchecked (`mbg replay verify`).

A replay is checked in three steps: (1) its rules version must be the one this engine runs
(`engine.constants.RULES_VERSION`; a replay from other rules is named as such, never
re-simulated into a false divergence); (2) every header field the game determines (result,
score, ticks, map id, name and layout, spawn end, roster, team sizes, threshold, horizon,
information regime; for a scenario replay its start hash, start tick, horizon and whether it
was solved) is recomputed from the recorded states and compared; (3) the submitted
actions are re-simulated from the tick-0 state and every state and event compared bit for bit
(`evaluation.record.first_difference`). `provenance` records what produced a replay: the
rules, the exact versions of the numeric libraries and the lock file they came from.
"""

import functools
import hashlib
import platform
import sys
from importlib import metadata
from pathlib import Path

import numpy as np

from engine import constants as C

LOCK_FILE = Path(__file__).resolve().parents[1] / "requirements.lock"
PINNED = ("jax", "jaxlib", "numpy", "flax", "msgpack", "marl-battlegrounds")


def rules_version() -> str:
    """The rules this engine implements (engine.constants.RULES_VERSION)."""
    return str(C.RULES_VERSION)


@functools.cache
def _installed_versions() -> tuple:
    """(name, version or "") of PINNED as installed. Cached: the installation does not change
    under a running process, and importlib.metadata parses each package's METADATA file per
    call (about 0.1 s a replay on a loaded 2-core machine, most of a scenario run's time)."""
    versions = []
    for name in PINNED:
        try:
            versions.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            versions.append((name, ""))
    return tuple(versions)


def provenance() -> dict:
    """What produced a replay: Python, platform, the exact versions of the packages that
    decide its floats (PINNED) and the SHA-256 of requirements.lock ("" when absent)."""
    versions = dict(_installed_versions())
    lock = LOCK_FILE.read_bytes() if LOCK_FILE.is_file() else b""
    return {
        "rules_version": rules_version(),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "packages": versions,
        "lock_sha256": hashlib.sha256(lock).hexdigest() if lock else "",
    }


def other_rules(header: dict) -> tuple[str, str] | None:
    """(recorded, ours): the rules version in a replay's header and this engine's, when they
    differ; None for a replay of this engine's rules."""
    recorded, ours = header.get("rules_version"), rules_version()
    return None if recorded == ours else (recorded, ours)


def rules_number(version) -> str:
    """A header's "rules_version" as the version it stands for (RULES.md 8): "2" as it is, a
    legacy name (engine.constants.LEGACY_RULES_NAMES) as its version ("1"), anything else
    quoted as written ("'test'")."""
    version = C.LEGACY_RULES_NAMES.get(version, version) if isinstance(version, str) else version
    return version if isinstance(version, str) and version.isdigit() else repr(version)


def rules_name(version) -> str:
    """A header's "rules_version" in words: "rules version 2"; a legacy name with the way it
    was written, "rules version 1 (written 'marl-battlegrounds 0.1.0')" (`rules_number`)."""
    written = f" (written {version!r})" if version in C.LEGACY_RULES_NAMES else ""
    return f"rules version {rules_number(version)}{written}"


def other_rules_words(header: dict) -> str | None:
    """Both rules versions when a replay's header "rules_version" is not this engine's
    ("recorded under rules version 1 (written 'marl-battlegrounds 0.1.0'); this engine runs
    rules version 2"), else None."""
    pair = other_rules(header)
    if pair is None:
        return None
    return f"recorded under {rules_name(pair[0])}; this engine runs {rules_name(pair[1])}"


def rules_problem(header: dict) -> str | None:
    """Why a replay cannot be re-simulated by this engine's rules, or None."""
    other = other_rules_words(header)
    return other and f"{other}, so it cannot re-simulate it (RULES.md 8 lists the changes)"


def rules_note(header: dict, what: str) -> str | None:
    """For a reader that uses a replay's recorded states and events without re-simulating them
    (`mbg metrics`, `mbg replay info`, a video export): None for a replay of this engine's
    rules, else one line naming both rules versions and `what` the reader does, e.g. with
    what="its metrics are read from its recorded events": "recorded under rules version 1
    (written 'marl-battlegrounds 0.1.0'); this engine runs rules version 2: its metrics are
    read from its recorded events, not re-simulated (RULES.md 8 lists the changes)"."""
    other = other_rules_words(header)
    return other and f"{other}: {what}, not re-simulated (RULES.md 8 lists the changes)"


def built_in_map(map_id: int):
    """The MapSpec of a built-in map or scenario arena; scenario arenas (ids 900-999) live
    beside the scenarios, not in maps/. Raises ValueError / OSError naming the map."""
    from engine import maps

    return maps.load_arena(map_id) if map_id in maps.SCENARIO_IDS else maps.load_map(map_id)


def _map_facts(map_id: int, obstacles) -> dict | None:
    """name and split of the built-in map or scenario arena with this id and layout, else None
    (a custom map)."""
    try:
        spec = built_in_map(map_id)
    except (ValueError, OSError):
        return None
    table = np.zeros((C.MAX_OBSTACLES, C.OBSTACLE_FEATURES), np.float32)
    table[: len(spec.obstacles)] = spec.obstacles
    if not np.array_equal(table, np.asarray(obstacles, np.float32)):
        return None
    return {"name": spec.name, "split": spec.split}


def game_facts(replay) -> dict:
    """The header fields the game itself determines, recomputed from the recorded states:
    dotted header key -> value (plain Python)."""
    from evaluation.record import replay_config

    states, header = replay.states, replay.header
    roster = [int(c) for c in np.asarray(states["class_id"][0])]
    outcome = int(np.asarray(states["outcome"][-1]))
    config = replay_config(header)
    facts = {
        **result_facts(replay),
        "map.id": int(np.asarray(states["map_id"][0])),
        "map.obstacles": np.asarray(states["obstacles"][0], np.float32).tolist(),
        "map.red_zones": np.asarray(states["red_zones"][0], np.float32).tolist(),
        "spawn_end": int(np.asarray(states["spawn_end"][0])),
        "roster": roster,
        "team_sizes": [sum(roster[s] > 0 for s in slots) for slots in C.TEAM_SLOTS],
        "score_threshold": config.score_threshold,
        "horizon": config.horizon,
        "info_regime": "shared_obs" if config.shared_obs else "no_shared_obs",
    }
    if isinstance(header.get("scenario"), dict):
        facts |= _scenario_facts(replay, config, outcome)
    named = _map_facts(facts["map.id"], states["obstacles"][0])
    if named is not None or header.get("map", {}).get("split") != "custom":
        named = named or {"name": "(no built-in map with this id and layout)", "split": "?"}
        facts["map.name"], facts["map.split"] = named["name"], named["split"]
    return facts


def result_facts(replay) -> dict:
    """The header's `result` as the recorded states give it (numpy only, no JAX, so the Replay
    Viewer can check it on opening): "result.outcome", "result.outcome_name", "result.score"
    ([A, B] points) and "result.ticks" (ticks played) -> plain Python values."""
    states = replay.states
    outcome = int(np.asarray(states["outcome"][-1]))
    return {
        "result.outcome": outcome,
        "result.outcome_name": C.OUTCOME_NAMES[outcome],
        "result.score": [int(s) for s in np.asarray(states["score"][-1])],
        "result.ticks": int(np.asarray(states["tick"][-1]) - np.asarray(states["tick"][0])),
    }


def _scenario_facts(replay, config, outcome: int) -> dict:
    """A scenario replay's claims the game decides (scenarios/README.md): the start hash of
    its tick-0 state, its start tick and horizon, and whether the focal team won."""
    from evaluation.record import initial_state
    from evaluation.scenarios import start_hash

    start_tick = int(np.asarray(replay.states["tick"][0]))
    focal = replay.header["scenario"].get("focal_team")
    won = {"A": C.A_WINS, "B": C.B_WINS}.get(focal)
    return {
        "scenario.start_hash": start_hash(initial_state(replay), config),
        "scenario.start_tick": start_tick,
        "scenario.horizon": config.horizon - start_tick,
        "scenario.focal_team": focal if won is not None else "A or B",
        "scenario.solved": outcome == won,
    }


def _stored(header: dict, key: str):
    value = header
    for part in key.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return value


def header_differences(replay) -> list[str]:
    """Every header field that disagrees with the game it describes, one line each:
    "header.result.score says [25, 0]; the game gives [7, 4]"."""
    facts = game_facts(replay)
    out = []
    if replay.ticks != facts["result.ticks"]:
        out.append(f"{replay.ticks} recorded ticks of events, {facts['result.ticks']} of states")
    return out + fact_differences(replay.header, facts)


def fact_differences(header: dict, facts: dict) -> list[str]:
    """The `facts` (dotted header key -> the game's value) that `header` disagrees with, one
    line each: "header.result.score says [25, 0]; the game gives [7, 4]"."""
    out = []
    for key, value in facts.items():
        stored = _stored(header, key)
        if isinstance(value, list):
            same = stored is not None and np.array_equal(
                np.asarray(stored, np.float64), np.asarray(value, np.float64)
            )
        else:
            same = stored == value
        if not same and key in ("map.obstacles", "map.red_zones"):
            out.append(f"header.{key} differs from the recorded states' layout")
        elif not same:
            out.append(f"header.{key} says {stored!r:.60}; the game gives {value!r:.60}")
    return out


def _unbuilt(specs: list[str]) -> str | list[str]:
    """The first of a header's System specs whose System does not build (the whole list when
    each builds alone: then the roster and the specs disagree)."""
    from policies.slotspec import check_system

    for spec in dict.fromkeys(s for s in specs if s):
        try:
            check_system(spec, "header.systems")
        except ValueError:
            return spec
    return specs


def human_played(header: dict) -> bool:
    """True when a person played a slot of the game (header "systems" holds a `human` spec):
    its Systems cannot be re-run, and that is no fault of the replay."""
    from policies.slotspec import is_human

    return any(is_human(spec) for spec in header["systems"])


def systems_difference(replay) -> str | None:
    """Re-run the recorded Systems (header "systems") from the recorded seed and the replay's
    tick-0 state, and compare the actions they submit with the recorded ones: None when every
    tick agrees, else what differs. This is what checks header "seeds": a game's Systems draw
    their keys from it (evaluation.match.system_keys). Games with a human slot, and Systems
    that do not build here (a bot or policy file this installation lacks), cannot be re-run
    and say so."""
    from evaluation.match import GameSetup
    from evaluation.record import initial_state, record_games, replay_config
    from policies.slotspec import resolve_slots

    header = replay.header
    specs = list(header["systems"])
    if human_played(header):
        return "header.seeds cannot be checked: a human played in this game"
    facts = game_facts(replay)
    try:
        spec = built_in_map(facts["map.id"])
    except (ValueError, OSError) as error:
        return f"header.seeds cannot be checked: map {facts['map.id']} ({error})"
    try:
        lineup = resolve_slots(specs, facts["roster"])
    except (ValueError, OSError) as error:
        return f"header.systems {_unbuilt(specs)!r}: cannot be re-run: {error}"
    state = initial_state(replay)
    seeds = header["seeds"]
    setup = GameSetup(
        map=spec,
        roster=np.asarray(facts["roster"], np.int32),
        spawn_end=facts["spawn_end"],
        seed=int(seeds["game"]),  # present: replay_schema refuses a header without it
        index=int(seeds.get("index", 0)),  # a label only: no key is drawn from it
        state=state,
    )
    _, (again,) = record_games(lineup, [setup], replay_config(header), mode="host")
    recorded, replayed = replay.events["submitted"], again.events["submitted"]
    for t in range(min(len(recorded), len(replayed))):
        if not np.array_equal(recorded[t], replayed[t]):
            return f"header.seeds / systems: the Systems submit other actions at tick {t + 1}"
    if len(recorded) != len(replayed):
        return f"the Systems' game lasts {len(replayed)} ticks, the replay {len(recorded)}"
    return None


def verify(replay, systems: bool = False) -> list[str]:
    """All problems of a replay, [] when it checks out: a rules-version mismatch (alone: the
    rest is then meaningless), header fields the game contradicts, the first re-simulated
    tick that differs, and with `systems` the Systems re-run from the seed
    (`systems_difference`), unless a human played (`human_played`: nothing to re-run, no
    fault of the replay)."""
    from evaluation.record import first_difference

    problem = rules_problem(replay.header)
    if problem:
        return [problem]
    out = header_differences(replay)
    found = first_difference(replay)
    if found is not None:
        out.append(f"differs first at tick {found[0]} ({found[1]})")
    if systems and not out and not human_played(replay.header):
        found = systems_difference(replay)
        out += [found] if found else []
    return out
