"""The setup of one BattleClient game as plain data (no JAX): map, roster, controllers, rules.

`ClientSetup` is what the lobby edits, the command line fills in and `last_setup.json` stores.
Map choice is a map id ("47"), a split name ("test": a map drawn from that split with the
game's seed) or a map file's path ("maps/arena.json", "/tmp/my_map.json"); the roster is
written per slot, Team A before the slash, with "-" for an empty slot after a team's last
agent ("MWHRP/MW---" = "MWHRP/MW": RULES 2.1; the grammar is engine.pool.parse_roster);
controllers are slot-spec strings (policies/slotspec.py grammar), parsed
by the engine thread because the parser imports JAX.
"""

import dataclasses
from dataclasses import dataclass

import numpy as np

from engine.maps import CUSTOM_SPLIT, SPLITS, is_map_path  # NumPy/SciPy only, no JAX
from engine.pool import first_gap, parse_roster, roster_text  # noqa: F401 (the roster grammar)
from evaluation.replay_schema import METRIC_LEVELS  # plain Python, no JAX
from evaluation.seeds import ROOT_SEED_LIMIT  # plain Python, no JAX
from ui.rules import C

# "all" is the shipped maps (ids 0-51, as in engine.maps); "custom" the maps added to maps/.
SPLIT_NAMES = (*SPLITS, CUSTOM_SPLIT, "all")
ADD_MAPS_HINT = "add a map file to maps/ (maps/README.md, 'Your own maps')"
REGIMES = ("shared_obs", "no_shared_obs")
SPAWN_ENDS = ("west", "east", "random")  # where Team A starts
# What a human player sees (battleclient.views.fair_scene), both fair (RULES 5.2, 5.7): "agent",
# the agent POV, only what the human's own agents observed (their sight and the rows relayed to
# them, one tick late), the default, as an agent plays; or "team", everything its whole team
# sees this tick, machine-controlled teammates included. Never the Oracle view.
VIEWS = ("agent", "team")
VIEW_WORDS = {"agent": "your agents' own sight + relayed rows", "team": "the whole team's sight"}
VIEW_HELP = (
    "agent (your agents' own observation: their sight and the rows relayed to them, as an "
    "agent sees; default) or team (what your whole team sees this tick, bots included); never "
    "the Oracle view"
)
DEFAULT_SLOTS = "A0=human,A1-A4=scripted:tactician,B*=scripted:tactician"
# Whole-number fields -> (lowest, highest) allowed: seeds as evaluation.seeds says; score_threshold
# and horizon follow engine/types.Config's checks (RULES A2), so a setup that passes here plays.
LIMITS = {
    "seed": (0, ROOT_SEED_LIMIT - 1),
    "score_threshold": (1, 2**24),
    "horizon": (1, 2**24),
    "turn_clock": (0, 3600),  # seconds per turn of orders; 0: no clock
}


@dataclass(frozen=True)
class ClientSetup:
    """One game's setup. seed >= 0; score_threshold and horizon are RULES A2 numbers (points,
    ticks); `slots` is a slot-spec string such as "A0=human,A1-A4=scripted:kiter,B*=random"."""

    map: str = "47"
    roster: str = "MWHRP/MWHRP"
    slots: str = DEFAULT_SLOTS
    info_regime: str = "shared_obs"
    spawn_end: str = "west"
    seed: int = 0
    score_threshold: int = C.SCORE_THRESHOLD
    horizon: int = C.HORIZON
    repeat_orders: bool = True  # human orders repeat each tick until changed (persist.py)
    metrics: str = "full"  # the replay's metrics level (evaluation.metrics; none, priority)
    turn_clock: int = 0  # seconds a team has for its orders (hotseat), then they lock in; 0: off
    view: str = "agent"  # what a human player sees: VIEWS

    def __post_init__(self):
        check_setup(self)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    def replace(self, **changes) -> "ClientSetup":
        return dataclasses.replace(self, **changes)


def parse_map_choice(text) -> str:
    """A map id ("47", 47) or a split name -> the canonical text; a map file's path
    (`engine.maps.is_map_path`: holds a "/" or ends in ".json") is kept as given, since a path
    may be case-sensitive. The file is not read here. Raises ValueError."""
    if is_map_path(text):
        return str(text).strip()
    value = str(text).strip().lower()
    if value in SPLIT_NAMES:
        return value
    if value.isdigit():
        return str(int(value))
    raise ValueError(
        f"map {text!r}: expected a map id (0-51), a split ({', '.join(SPLIT_NAMES)}) "
        "or a map file path (.json)"
    )


slot_name = C.slot_label  # "A0".."B4"


def slots_text(specs) -> str:
    """10 per-slot spec strings ("" = none) -> the shortest slot-spec text naming them:
    "A*=x" for a whole team, "A1-A4=x" for a run of equal specs, else "A0=x"."""
    items = []
    for team in range(C.NUM_TEAMS):
        base = team * C.TEAM_SIZE
        row = list(specs[base : base + C.TEAM_SIZE])
        letter = C.TEAM_NAMES[team]
        if row[0] and all(s == row[0] for s in row):
            items.append(f"{letter}*={row[0]}")
            continue
        k = 0
        while k < C.TEAM_SIZE:
            end = k
            while end + 1 < C.TEAM_SIZE and row[end + 1] == row[k]:
                end += 1
            if row[k]:
                span = f"{letter}{k}" if end == k else f"{letter}{k}-{letter}{end}"
                items.append(f"{span}={row[k]}")
            k = end + 1
    return ",".join(items)


def _field_error(field: str, value, reason: str) -> ValueError:
    return ValueError(f"setup field '{field}': {value!r} {reason}")


def check_setup(setup: ClientSetup) -> None:
    """Raises ValueError naming the field of a setup that cannot be played."""
    parse_map_choice(setup.map)
    parse_roster(setup.roster)
    if not isinstance(setup.slots, str) or not setup.slots.strip():
        raise _field_error("slots", setup.slots, "is empty; e.g. 'A*=human,B*=scripted:kiter'")
    if setup.info_regime not in REGIMES:
        raise _field_error("info_regime", setup.info_regime, f"is not one of {REGIMES}")
    if setup.spawn_end not in SPAWN_ENDS:
        raise _field_error("spawn_end", setup.spawn_end, f"is not one of {SPAWN_ENDS}")
    if not isinstance(setup.repeat_orders, bool):
        raise _field_error("repeat_orders", setup.repeat_orders, "must be true or false")
    if setup.view not in VIEWS:
        raise _field_error("view", setup.view, f"is not one of {VIEWS}")
    if setup.metrics not in METRIC_LEVELS:
        raise _field_error("metrics", setup.metrics, f"is not one of {METRIC_LEVELS}")
    for field, (low, high) in LIMITS.items():
        value = getattr(setup, field)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise _field_error(field, value, f"must be an integer from {low} to {high}")


def setup_from_dict(doc: dict, source="setup") -> ClientSetup:
    """A setup from a JSON dict (unknown keys ignored, missing keys default).

    Raises ValueError naming `source` and the field at fault.
    """
    if not isinstance(doc, dict):
        raise ValueError(f"{source}: expected a JSON object, got {type(doc).__name__}")
    names = {f.name for f in dataclasses.fields(ClientSetup)}
    try:
        return ClientSetup(**{k: v for k, v in doc.items() if k in names})
    except (TypeError, ValueError) as error:
        raise ValueError(f"{source}: {error}") from None


def spawn_end_code(setup: ClientSetup) -> int:
    """0 = Team A west, 1 = east; "random" is drawn from the seed (same seed, same end)."""
    if setup.spawn_end == "random":
        return int(np.random.default_rng([setup.seed, 1]).integers(2))
    return SPAWN_ENDS.index(setup.spawn_end)


def pick_map(setup: ClientSetup, maps_by_split: dict) -> int | str:
    """The map to play: a map id (int), or a map file's path (str, as given), the setup's own or
    one drawn from the split with the seed (same seed and maps, same draw).

    maps_by_split: split name -> that split's maps, each an id or the path of a file that loads
    only by path (battleclient.map_catalog.maps_by_split). "all" draws from the shipped splits.
    Raises ValueError for an empty split.
    """
    choice = parse_map_choice(setup.map)
    if is_map_path(choice):
        return choice
    if choice.isdigit():
        return int(choice)
    splits = SPLITS if choice == "all" else (choice,)
    pool = [m for split in splits for m in maps_by_split.get(split, ())]
    if not pool:
        hint = f"; {ADD_MAPS_HINT}" if choice == CUSTOM_SPLIT else ""
        raise ValueError(f"map {choice!r}: that split has no maps{hint}")
    picked = pool[int(np.random.default_rng([setup.seed, 0]).integers(len(pool)))]
    return picked if isinstance(picked, str) else int(picked)


def default_spec(slot: int) -> str:
    """The controller a slot gets when it has a class and none was chosen: the player for A0,
    the tactician bot elsewhere."""
    return "human" if slot == 0 else "scripted:tactician"


def parse_specs(text: str) -> tuple[str, ...]:
    """Engine-thread job: a slot-spec string -> 10 per-slot strings (ValueError if bad)."""
    from policies.slotspec import parse_slots

    return parse_slots(text)
