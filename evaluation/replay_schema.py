"""What a replay must hold: header keys and the trailing shape and dtype of every array field.

The array tables mirror engine/types.py (`State`, `Events`) without importing it, because
engine/types.py imports jax and replays are read on machines without it; a test compares the two
(tests/evaluation/test_replay_format.py). `None` in a shape means "any length".
"""


class ReplayError(ValueError):
    """A replay file or object that cannot be read or written; names file, field and problem."""

    def __init__(self, source, field: str, problem: str):
        self.source, self.field, self.problem = str(source), field, problem
        super().__init__(f"{source}: {field}: {problem}")


NUM_SLOTS = 10
F32, I32, BOOL = "float32", "int32", "bool"

# name -> (shape after the time axis, dtype)
STATE_FIELDS = {
    "map_id": ((), I32),
    "obstacles": ((32, 8), F32),
    "pads": ((10, 2), F32),
    "red_zones": ((2, 4), F32),
    "spawn_end": ((), I32),
    "class_id": ((10,), I32),
    "active": ((10,), BOOL),
    "pos": ((10, 2), F32),
    "health": ((10,), F32),
    "alive": ((10,), BOOL),
    "cooldown": ((10,), I32),
    "status": ((10, 9), I32),
    "shield": ((10,), I32),
    "ooc": ((10,), I32),
    "wave_clock": ((2,), I32),
    "score": ((2,), I32),
    "tick": ((), I32),
    "outcome": ((), I32),
    "prev_action": ((10, 3), I32),
    "has_prev": ((), BOOL),
    "seen": ((10, 10), BOOL),
}
# Fixed for the whole game (RULES 4.4): stored once in the file, broadcast over time on read.
LAYOUT_FIELDS = ("map_id", "obstacles", "pads", "red_zones", "spawn_end", "class_id", "active")
# Names that replays written before the engine derived its collision lists itself may carry
# (a per-cell obstacle table, RULES 1.3): accepted and ignored on read, never written.
DERIVED_STATE_FIELDS = ("cell_obstacles",)

_PAIR = ((10, 10), F32)
EVENT_FIELDS = {
    "submitted": ((10, 3), I32),
    "accepted": ((10, 3), I32),
    "rejected": ((10, 3), BOOL),
    "fallback": ((10,), BOOL),
    "lane": ((10,), I32),
    "recipient": ((10,), I32),
    "aura_out": ((10,), F32),
    "aura_in": ((10,), F32),
    "mage_cover": ((10, 10), BOOL),
    "warrior_cover": ((10, 10), BOOL),
    "damage_raw": _PAIR,
    "damage_source": _PAIR,
    "damage_recipient": _PAIR,
    "damage_realised": _PAIR,
    "heal_raw": _PAIR,
    "heal_recipient": _PAIR,
    "heal_realised": _PAIR,
    "regen": ((10,), F32),
    "ooc_reset": ((10,), BOOL),
    "cooldown_started": ((10,), BOOL),
    "cooldown_ready": ((10,), BOOL),
    "charge_move": ((10, 2), F32),
    "move": ((10, 2), F32),
    "died": ((10,), BOOL),
    "red_zone_death": ((10,), BOOL),
    "lethal": ((10, 10), BOOL),
    "status_applied": ((10, 9), BOOL),
    "status_refreshed": ((10, 9), BOOL),
    "status_broken": ((10, 9), BOOL),
    "status_expired": ((10, 9), BOOL),
    "status_cleared": ((10, 9), BOOL),
    "shield_expired": ((10,), BOOL),
    "respawned": ((10,), BOOL),
    "wave": ((2,), BOOL),
    "score_delta": ((2,), I32),
    "outcome": ((), I32),
    "terminated": ((), BOOL),
    "truncated": ((), BOOL),
}

METRIC_COLUMNS = ("game", "topic", "metric", "source", "target", "value")
METRIC_LEVELS = ("none", "priority", "full")
INFO_REGIMES = ("shared_obs", "no_shared_obs")


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _ints(n):
    return lambda v: isinstance(v, list | tuple) and len(v) == n and all(map(_is_int, v))


def _strs(n):
    return lambda v: (
        isinstance(v, list | tuple) and len(v) == n and all(isinstance(s, str) for s in v)
    )


# key -> (check, what a valid value looks like)
HEADER_FIELDS = {
    "format_version": (_is_int, "an int"),
    "rules_version": (lambda v: isinstance(v, str), "a string"),
    "created": (lambda v: isinstance(v, str), "an ISO time string"),
    "map": (lambda v: isinstance(v, dict), "a map {id, name, split, obstacles, red_zones}"),
    "roster": (_ints(NUM_SLOTS), "10 class ids"),
    "team_sizes": (_ints(2), "[team A size, team B size]"),
    "systems": (_strs(NUM_SLOTS), "10 System spec strings"),
    "info_regime": (lambda v: v in INFO_REGIMES, f"one of {INFO_REGIMES}"),
    "seeds": (lambda v: isinstance(v, dict), "a map of seeds"),
    "spawn_end": (lambda v: v in (0, 1), "0 (Team A west) or 1 (east)"),
    "score_threshold": (_is_int, "an int"),
    "horizon": (_is_int, "an int"),
    "result": (lambda v: isinstance(v, dict), "a map {outcome, outcome_name, score, ticks}"),
    "metrics_level": (lambda v: v in METRIC_LEVELS, f"one of {METRIC_LEVELS}"),
}


_TICK = (lambda v: _is_int(v) and v >= 0, "a tick (a whole number, 0 or more)")
_HEADS = (
    lambda v: isinstance(v, list) and len(v) == NUM_SLOTS and all(_ints(3)(row) for row in v),
    "10 rows [move, target, ult] of whole numbers",
)
# One entry of "takebacks" and the "parent" map, each key checked alone so a bad one is named
TAKEBACK_FIELDS = {"tick": _TICK, "submitted": _HEADS}
PARENT_FIELDS = {
    "replay": (lambda v: isinstance(v, str), "a path (a string)"),
    "sha256": (lambda v: isinstance(v, str), "a SHA-256 (a string)"),
    "tick": _TICK,
}


# The keys of header "seeds" and what each is (evaluation.record.build_header writes "game" and
# "index" for every game; the others come from the command that played it).
SEED_KEYS = {
    "game": "the seed the game's Systems draw their keys from (evaluation.match.system_keys)",
    "index": "the game's number in its run (a label; no key comes from it)",
    "root": "the root seed of an mbg play or tournament run",
    "matchup": "the tournament matchup the game belongs to",
    "client": "the BattleClient's game seed",
}
# A seed is a signed 64-bit int: jax.random.key casts it with np.int64 (jax/_src/random/prng.py
# random_seed), so a larger one would fail only when `mbg replay verify --systems` re-runs it.
SEED_LIMIT = 2**63

# Keys a replay has only when its game had them; older readers ignore them (no new format
# version). "takebacks": the ticks a player took back in the BattleClient, in the order taken
# back, each {"tick": the state's tick the undone transition started from, "submitted": its
# (10, 3) submitted heads}; the undone ticks are not in the body, so the replay holds the kept
# line and re-simulates as it is. "parent": a game played on from another replay's tick
# (`battleclient --from-replay FILE --tick N`): {"replay": that file's path, "sha256": its
# SHA-256, "tick": N}; the body starts at that tick's state.
OPTIONAL_HEADER_FIELDS = {
    "takebacks": (lambda v: isinstance(v, list), "a list of {tick, submitted}"),
    "parent": (lambda v: isinstance(v, dict), "a map {replay, sha256, tick}"),
}
MAP_FIELDS = {
    "id": (_is_int, "an int"),
    "name": (lambda v: isinstance(v, str), "a string"),
    "split": (lambda v: isinstance(v, str), "a string"),
    "obstacles": (lambda v: isinstance(v, list) and all(len(r) == 8 for r in v), "rows of 8"),
    "red_zones": (lambda v: isinstance(v, list) and len(v) == 2, "2 rectangles [x0, y0, x1, y1]"),
}
RESULT_FIELDS = {
    "outcome": (lambda v: v in (0, 1, 2, 3), "an outcome code 0-3"),
    "outcome_name": (lambda v: isinstance(v, str), "a string"),
    "score": (_ints(2), "[score A, score B]"),
    "ticks": (lambda v: _is_int(v) and v >= 0, "a tick count >= 0"),
}


def _shown(value, width: int = 120) -> str:
    """repr(value), cut to `width` characters with "..." when longer (a whole obstacle table
    would bury the message)."""
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _check_keys(mapping: dict, fields: dict, prefix: str, source, error) -> None:
    for key, (ok, wanted) in fields.items():
        if key not in mapping:
            raise error(source, f"{prefix}{key}", "missing")
        if not ok(mapping[key]):
            raise error(source, f"{prefix}{key}", f"{_shown(mapping[key])} is not {wanted}")


def _check_entry(entry: dict, fields: dict, prefix: str, what: str, source, error) -> None:
    """`entry` holds exactly the keys of `fields`, each valid: a key it does not know is named
    first (a misspelt "tik" would otherwise read as "tick: missing"), then as _check_keys."""
    for key in entry:
        if key not in fields:
            known = ", ".join(fields)
            raise error(source, f"{prefix}{key}", f"not a {what} key (known: {known})")
    _check_keys(entry, fields, prefix, source, error)


def _check_entries(header: dict, source, error) -> None:
    """Each "takebacks" entry and the "parent" map key by key, naming the entry (index and
    key) and its value: "header.takebacks[2].tick: -1 is not a tick (...)", or a key that is
    not one of TAKEBACK_FIELDS / PARENT_FIELDS, as an unknown seeds key is (a misspelt key
    would otherwise be dropped unseen): "header.parent.hash: not a parent key (known:
    replay, sha256, tick)"."""
    for i, entry in enumerate(header.get("takebacks", ())):
        if not isinstance(entry, dict):
            problem = f"{_shown(entry)} is not a map {{tick, submitted}}"
            raise error(source, f"header.takebacks[{i}]", problem)
        prefix = f"header.takebacks[{i}]."
        _check_entry(entry, TAKEBACK_FIELDS, prefix, "takeback", source, error)
    if "parent" in header:
        _check_entry(header["parent"], PARENT_FIELDS, "header.parent.", "parent", source, error)


def check_header(header: dict, source, error) -> None:
    """Raises `error(source, field, problem)` for the first missing or malformed header key."""
    if not isinstance(header, dict):
        raise error(source, "header", "not a map")
    _check_keys(header, HEADER_FIELDS, "header.", source, error)
    optional = {k: v for k, v in OPTIONAL_HEADER_FIELDS.items() if k in header}
    _check_keys(header, optional, "header.", source, error)
    _check_entries(header, source, error)
    _check_keys(header["map"], MAP_FIELDS, "header.map.", source, error)
    _check_keys(header["result"], RESULT_FIELDS, "header.result.", source, error)
    _check_seeds(header["seeds"], source, error)


def _check_seeds(seeds: dict, source, error) -> None:
    """Raises `error` naming the seed key at fault: a missing "game" (read as 0 it would
    re-run the Systems from another seed), a key not in SEED_KEYS, or a value that is not a
    whole number 0 or more."""
    if "game" not in seeds:
        raise error(source, "header.seeds.game", f"missing ({SEED_KEYS['game']})")
    for name, seed in seeds.items():
        if name not in SEED_KEYS:
            known = ", ".join(SEED_KEYS)
            raise error(source, f"header.seeds.{name}", f"not a seed key (known: {known})")
        if not (_is_int(seed) and 0 <= seed < SEED_LIMIT):
            problem = f"{_shown(seed)} is not a seed (a whole number, 0 to 2**63 - 1)"
            raise error(source, f"header.seeds.{name}", problem)


def tick_range(name: str, last: int, first: int = 0) -> str:
    """What a tick option (the viewer's --tick, the video's --from/--to, scenario_save's
    --tick: game ticks, states["tick"]) accepts for a replay `name` of `last` transitions
    starting at game tick `first`, in the words of the viewer's info bar and the BattleClient's
    end card: "game.mbgr has ticks 0 to 40 (40 is the end, after the last tick played, tick
    39)"."""
    if last < 1:
        return f"{name} has only tick {first}"
    end = first + last
    after = f"{end} is the end, after the last tick played, tick {end - 1}"
    return f"{name} has ticks {first} to {end} ({after})"
