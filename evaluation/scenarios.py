"""Endgame scenarios: one JSON file each under `scenarios/`, read, checked and turned into games.

A scenario (format in scenarios/README.md; the paper, seed 000 section 5.1 and S5.1) is a nearly
lost mid-game position: an arena (a scenario arena id 900-999 or a map file), the exact start
state, the focal team, the horizon (ticks allowed), the success rule (the focal team wins the
game within the horizon), the reactive controller of the other team (a System spec) and the
verified winning lines (the focal team's actions tick by tick; `evaluation.scenario_lines`).

The horizon and score to win become the game's own `Config` (`horizon = start tick + ticks
allowed`), so the game ends when the scenario does: a win is the success, anything else is not.
`start_hash` is the SHA-256 of the start state's authored fields and that Config, written into
every result and replay, so a changed scenario is never confused with the old one.

Every problem is a `ScenarioError` naming the file, the field and the value; `check_file`
collects all of a file's field problems, and the controller's, at once (`mbg scenarios
validate`). The start state's consistency (positions on the map, health within the class's
maximum, counters) is checked by `engine.authored_state` once the fields are sound, and the
lines beside it (they need only the roster): every such problem is named too.
"""

import hashlib
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine import constants as C
from engine import maps as map_files
from engine.pool import game_layout
from engine.types import Config

FORMAT = 1
SCENARIOS_DIR = Path(
    os.environ.get("MBG_SCENARIOS_DIR", Path(__file__).resolve().parents[1] / "scenarios")
)
DEFAULT_CONTROLLER = "scripted:tactician"  # the strongest scripted bot (policies/scripted.py)
SUCCESS_RULE = "focal_team_wins_within_horizon"
TEAMS = C.TEAM_NAMES
LANES = ("none", "basic", "ult")
CLASS_BY_NAME = {name.lower(): i for i, name in enumerate(C.CLASS_NAMES) if i}
TOP_FIELDS = {
    "format": int, "id": int, "title": str, "skill": str, "brief": str, "arena": (int, str),
    "focal_team": str, "horizon": int, "score_to_win": int, "controller": str, "start": dict,
    "lines": list,
}  # fmt: skip
AGENT_FIELDS = {"class", "pos", "health", "alive", "cooldown", "status", "shield", "ooc"}
AGENT_FIELDS |= {"prev_action"}


class ScenarioError(ValueError):
    """A scenario file that cannot be used: `file: field = value: problem` (one or many)."""

    def __init__(self, source, problems: list[str]):
        self.source, self.problems = source, list(problems)
        super().__init__("\n".join(f"{source}: {p}" for p in self.problems))


@dataclass(frozen=True, eq=False)
class Scenario:
    """One loaded, checked scenario. start: the concrete start State; lines: tuple of
    (name, (ticks, 10, 3) int32 team-frame actions); focal_team 0 (A) or 1 (B)."""

    id: int
    title: str
    skill: str
    brief: str
    arena: map_files.MapSpec
    focal_team: int
    horizon: int
    score_to_win: int
    controller: str
    start: object
    start_hash: str
    lines: tuple
    source: Path
    doc: dict

    @property
    def config(self) -> Config:
        """The game's rules: the scenario's score to win, horizon = start tick + ticks allowed."""
        return scenario_config(self.doc["score_to_win"], self.doc["start"]["tick"], self.horizon)

    @property
    def focal_slots(self) -> tuple[int, ...]:
        lo = self.focal_team * C.TEAM_SIZE
        return tuple(s for s in range(lo, lo + C.TEAM_SIZE) if self.start.active[s])

    @property
    def controller_slots(self) -> tuple[int, ...]:
        lo = (1 - self.focal_team) * C.TEAM_SIZE
        return tuple(s for s in range(lo, lo + C.TEAM_SIZE) if self.start.active[s])

    @property
    def win_code(self) -> int:
        return (C.A_WINS, C.B_WINS)[self.focal_team]

    @property
    def label(self) -> str:
        return f"{self.id} {self.title}"


def scenario_config(score_to_win: int, tick: int, horizon: int) -> Config:
    return Config(score_threshold=int(score_to_win), horizon=int(tick) + int(horizon))


slot_name = C.slot_label  # "A0".."B4"


def parse_slot(text: str) -> int:
    """ "A0".."B4" -> global slot 0-9. Raises ValueError."""
    text = str(text).strip().upper()
    if text not in C.SLOT_LABELS:
        raise ValueError(f"{text!r} is not a slot (A0-A4, B0-B4)")
    return C.SLOT_LABELS.index(text)


def action_text(slot: int, action) -> str:
    """(move, target category, ult) of `slot` -> "E B2 basic" (RULES 3.2-3.4; the move in
    whatever frame the action is in, the target as a slot name, "-" for none)."""
    move, target, ult = (int(v) for v in action)
    recipient = int(C.TARGET_SLOT[slot, target]) if target else -1
    lane = "none" if target == 0 and ult == 0 else ("ult" if ult else "basic")
    who = slot_name(recipient) if recipient >= 0 else "-"
    return f"{C.MOVE_NAMES[move]} {who} {lane}"


def parse_action(slot: int, text: str) -> tuple[int, int, int]:
    """Inverse of `action_text` for an actor `slot`. Raises ValueError naming the part."""
    parts = str(text).split()
    if len(parts) != 3:
        raise ValueError(f"{text!r}: write 'MOVE TARGET LANE', e.g. 'E B2 basic' or 'Stay - none'")
    move_name, who, lane = parts
    names = [m.lower() for m in C.MOVE_NAMES]
    if move_name.lower() not in names:
        raise ValueError(f"{text!r}: move {move_name!r} is not one of {', '.join(C.MOVE_NAMES)}")
    if lane not in LANES:
        raise ValueError(f"{text!r}: lane {lane!r} is not one of {', '.join(LANES)}")
    target = 0
    if who != "-":
        recipient = parse_slot(who)
        target = int(np.flatnonzero(C.TARGET_SLOT[slot] == recipient)[0])
    if (lane == "none") != (target == 0) and not (lane == "ult" and target == 0):
        raise ValueError(f"{text!r}: lane {lane!r} does not go with target {who!r}")
    return names.index(move_name.lower()), target, int(lane == "ult")


# JSON's names for the Python types TOP_FIELDS asks for (a file's author thinks in JSON)
JSON_TYPE_NAMES = {int: "a whole number", str: "a string", dict: "an object", list: "a list"}


def _wanted(kind) -> str:
    """ "must be a whole number or a string" for TOP_FIELDS' (int, str)."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return "must be " + " or ".join(JSON_TYPE_NAMES[k] for k in kinds)


def _check_types(doc: dict, problems: list[str]) -> None:
    for field, kind in TOP_FIELDS.items():
        if field not in doc:
            problems.append(f"{field}: missing")
        elif isinstance(doc[field], bool) or not isinstance(doc[field], kind):
            problems.append(f"{field} = {doc[field]!r:.60}: wrong type, {_wanted(kind)}")
    for field in sorted(set(doc) - set(TOP_FIELDS)):
        problems.append(f"{field}: unknown field (fields: {', '.join(TOP_FIELDS)})")
    if doc.get("format") not in (None, FORMAT) and isinstance(doc.get("format"), int):
        problems.append(f"format = {doc['format']!r}: this program reads format {FORMAT}")
    if isinstance(doc.get("focal_team"), str) and doc["focal_team"] not in TEAMS:
        problems.append(f"focal_team = {doc['focal_team']!r}: must be 'A' or 'B'")
    for field, low in (("horizon", 1), ("score_to_win", 1), ("id", 1)):
        if isinstance(doc.get(field), int) and doc[field] < low:
            problems.append(f"{field} = {doc[field]!r}: must be at least {low}")
    for field in ("title", "skill", "brief"):
        if isinstance(doc.get(field), str) and not doc[field].strip():
            problems.append(f"{field}: must not be empty")


def _arena(doc: dict, source: Path, problems: list[str]):
    arena = doc.get("arena")
    try:
        if isinstance(arena, int) and not isinstance(arena, bool):
            return map_files.load_arena(arena)
        if isinstance(arena, str):
            path = Path(arena) if Path(arena).is_absolute() else source.parent / arena
            spec = map_files.load_map_path(path)
            if spec.split != map_files.SCENARIO_SPLIT:
                problems.append(
                    f"arena = {arena!r}: map {spec.id} has split {spec.split!r}; a scenario "
                    "plays on a scenario arena (id 900-999, split 'scenario')"
                )
            return spec
    except (ValueError, OSError) as error:
        problems.append(f"arena = {arena!r}: {error}")
    return None


def _agent_values(slot: int, entry, problems: list[str]) -> dict | None:
    where = f"start.agents.{slot_name(slot)}"
    if not isinstance(entry, dict):
        problems.append(f"{where} = {entry!r:.60}: must be an object")
        return None
    for field in sorted(set(entry) - AGENT_FIELDS):
        problems.append(
            f"{where}.{field}: unknown field (fields: {', '.join(sorted(AGENT_FIELDS))})"
        )
    out: dict = {}
    cls = str(entry.get("class", "")).lower()
    if cls not in CLASS_BY_NAME:
        problems.append(
            f"{where}.class = {entry.get('class')!r}: one of {', '.join(C.CLASS_NAMES[1:])}"
        )
    out["class_id"] = CLASS_BY_NAME.get(cls, 0)
    pos = entry.get("pos")
    if pos is None and entry.get("alive") is False:
        pos = "pad"  # a dead body's place does not matter; it respawns on its pad
    elif not (isinstance(pos, list) and len(pos) == 2 and all(_number(v) for v in pos)):
        problems.append(f"{where}.pos = {pos!r:.60}: must be [x, y] in map units")
        pos = [0.0, 0.0]
    out["pos"] = pos
    out["alive"] = entry.get("alive", True)
    if not isinstance(out["alive"], bool):
        problems.append(f"{where}.alive = {out['alive']!r}: must be true or false")
    default = float(C.MAX_HEALTH[out["class_id"]]) if out["alive"] is True else 0.0
    out["health"] = entry.get("health", default)
    for field in ("cooldown", "shield", "ooc"):
        out[field] = entry.get(field, 0)
        if not _integer(out[field]):
            problems.append(f"{where}.{field} = {out[field]!r}: must be a whole number of ticks")
    if not _number(out["health"]):
        problems.append(f"{where}.health = {out['health']!r}: must be hit points")
    status = entry.get("status", {})
    out["status"] = [0] * C.NUM_STATUS
    if not isinstance(status, dict):
        problems.append(f"{where}.status = {status!r:.60}: must map channel names to ticks")
        status = {}
    for name, ticks in status.items():
        if name not in C.STATUS_NAMES:
            problems.append(f"{where}.status.{name}: unknown channel ({', '.join(C.STATUS_NAMES)})")
        elif not _integer(ticks):
            problems.append(f"{where}.status.{name} = {ticks!r}: must be whole ticks")
        else:
            out["status"][C.STATUS_NAMES.index(name)] = int(ticks)
    out["prev_action"] = None
    if entry.get("prev_action") is not None:
        try:
            out["prev_action"] = parse_action(slot, entry["prev_action"])
        except ValueError as error:
            problems.append(f"{where}.prev_action: {error}")
    return out


def _number(v) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool) and np.isfinite(v)


def _integer(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _start_fields(doc: dict, arena, problems: list[str]) -> dict | None:
    """The keyword arguments of engine.authored_state, or None after recording problems."""
    start = doc.get("start")
    if not isinstance(start, dict):
        return None
    known = {"tick", "score", "spawn_end", "wave_clock", "agents"}
    for field in sorted(set(start) - known):
        problems.append(f"start.{field}: unknown field (fields: {', '.join(sorted(known))})")
    for field in sorted(known - set(start)):
        problems.append(f"start.{field}: missing")
    agents = start.get("agents")
    if not isinstance(agents, dict) or not agents:
        problems.append(f"start.agents = {agents!r:.60}: must map slots (A0-B4) to agents")
        return None
    per_slot: dict[int, dict] = {}
    for name, entry in agents.items():
        try:
            slot = parse_slot(name)
        except ValueError as error:
            problems.append(f"start.agents.{name}: {error}")
            continue
        values = _agent_values(slot, entry, problems)
        if values is not None:
            per_slot[slot] = values
    if problems or arena is None:
        return None
    end = start["spawn_end"]
    if end not in (0, 1):
        problems.append(f"start.spawn_end = {end!r}: 0 (Team A west) or 1 (Team A east)")
        return None
    histories = [v["prev_action"] is not None for v in per_slot.values()]
    if any(histories) and not all(histories):
        problems.append("start.agents: give prev_action for every agent or for none")
        return None
    fields = {"class_id": np.zeros(C.NUM_SLOTS, np.int32), "pos": np.zeros((C.NUM_SLOTS, 2))}
    fields |= {k: np.zeros(C.NUM_SLOTS) for k in ("health", "cooldown", "shield", "ooc")}
    fields |= {"alive": np.zeros(C.NUM_SLOTS, bool)}
    fields |= {"status": np.zeros((C.NUM_SLOTS, C.NUM_STATUS))}
    history = np.zeros((C.NUM_SLOTS, 3), np.int32)
    obstacles, own_pads, red_zones = game_layout(arena, end)
    for slot, v in per_slot.items():
        if isinstance(v["pos"], str):
            v["pos"] = own_pads[slot]
        for key in ("class_id", "pos", "health", "alive", "cooldown", "shield", "ooc", "status"):
            fields[key][slot] = v[key]
        if v["prev_action"] is not None:
            history[slot] = v["prev_action"]
    return fields | {
        "obstacles": obstacles,
        "pads": own_pads,
        "red_zones": red_zones,
        "spawn_end": end,
        "wave_clock": start["wave_clock"],
        "score": start["score"],
        "tick": start["tick"],
        "prev_action": history if all(histories) else None,
        "map_id": arena.id,
    }


# The engine names a slot's field as `pos[5]`; the file author wrote `start.agents.B0.pos`.
_SLOT_FIELDS = {"pos", "health", "alive", "cooldown", "shield", "ooc", "status", "class_id"}
_FILE_FIELD = {"class_id": "class"}
_ENGINE_FIELD = re.compile(r"^(\w+)\[(\d+)\]")


def _in_file_terms(message: str) -> str:
    """An `engine.authored_state` error with a per-slot field renamed to the file's path."""
    found = _ENGINE_FIELD.match(message)
    if found is None or found[1] not in _SLOT_FIELDS or int(found[2]) >= C.NUM_SLOTS:
        return f"start: {message}"
    field = _FILE_FIELD.get(found[1], found[1])
    return f"start.agents.{slot_name(int(found[2]))}.{field}{message[found.end() :]}"


def start_hash(state, config: Config) -> str:
    """SHA-256 (hex) of a start state's authored fields (`engine.state_fields`, floats as exact
    float32 values) and the rules that decide it (score to win, horizon), canonical JSON."""
    import engine

    fields = engine.state_fields(state)
    fields["config"] = {"score_threshold": config.score_threshold, "horizon": config.horizon}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def scenario_from_dict(doc, source: object = "<scenario>") -> Scenario:
    """Parse and check one scenario document. Raises ScenarioError with every problem found."""
    import engine
    from evaluation import scenario_lines

    source = Path(str(source))
    if not isinstance(doc, dict):
        raise ScenarioError(source, [f"(file) = {type(doc).__name__}: must be a JSON object"])
    problems: list[str] = []
    _check_types(doc, problems)
    if isinstance(doc.get("controller"), str):  # needs no start state: named with the fields
        _check_controller(doc["controller"], problems)
    arena = _arena(doc, source, problems)
    fields = _start_fields(doc, arena, problems)
    if problems or fields is None:
        raise ScenarioError(source, problems or ["start: missing or not an object"])
    config = scenario_config(doc["score_to_win"], doc["start"]["tick"], doc["horizon"])
    try:
        state = engine.authored_state(config, **fields)
    except ValueError as error:  # engine.StateProblems lists them all; any other, one
        problems += [_in_file_terms(p) for p in getattr(error, "problems", [str(error)])]
    focal = TEAMS.index(doc["focal_team"])
    active = np.asarray(fields["class_id"]) != C.NEUTRAL  # the roster's slots, as State.active
    lines = scenario_lines.parse_lines(doc["lines"], focal, active, doc["horizon"], problems)
    if problems:
        raise ScenarioError(source, problems)
    return Scenario(
        id=doc["id"], title=doc["title"], skill=doc["skill"], brief=doc["brief"], arena=arena,
        focal_team=focal, horizon=doc["horizon"], score_to_win=doc["score_to_win"],
        controller=doc["controller"], start=state, start_hash=start_hash(state, config),
        lines=lines, source=source, doc=doc,
    )  # fmt: skip


def _check_controller(spec: str, problems: list[str]) -> None:
    from policies import slotspec

    try:
        slotspec.parse_slots(f"*={spec}")
        kind, _, name = spec.partition(":")
        if kind == "scripted":
            from policies.scripted import BOTS

            if name not in BOTS:
                raise ValueError(f"no scripted bot {name!r}; choose one of {', '.join(BOTS)}")
    except ValueError as error:
        problems.append(f"controller = {spec!r}: {error}")


def read_document(path) -> dict:
    """The JSON object of a scenario file. Raises ScenarioError naming the file."""
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ScenarioError(path, [f"cannot read the file: {error.strerror or error}"]) from None
    except json.JSONDecodeError as e:
        raise ScenarioError(path, [f"not JSON: {e.msg} (line {e.lineno})"]) from None


def load_scenario_file(path) -> Scenario:
    """Read and check one scenario file. Raises ScenarioError (every problem of the file)."""
    return scenario_from_dict(read_document(path), path)


def scenario_files(folder: Path | None = None) -> list[Path]:
    """The scenario files of a folder (default SCENARIOS_DIR): its *.json files, by name."""
    return sorted(p for p in Path(folder or SCENARIOS_DIR).glob("*.json") if p.is_file())


def load_scenario(name, folders=None) -> Scenario:
    """A scenario by id (1, "1") from `folders` (default: SCENARIOS_DIR alone; the CLI adds the
    apps' scenario folder, ui.paths.scenario_dir), or by file path. Raises ScenarioError, or
    ValueError naming the folders when no file or more than one has that id."""
    text = str(name)
    if text.isdigit():
        folders = tuple(folders or (SCENARIOS_DIR,))
        hits = [
            p
            for folder in folders
            for p in scenario_files(folder)
            if p.name.split("_")[0].lstrip("0") == text
        ]
        if len(hits) != 1:
            where = " or ".join(str(f) for f in folders)
            raise ValueError(f"scenario {text}: {len(hits)} files in {where} have that id")
        return load_scenario_file(hits[0])
    return load_scenario_file(text)


def load_scenarios(names=None, folders=None) -> list[Scenario]:
    """Scenarios by id (looked up in `folders`, as load_scenario) or path; None or "all": every
    file in SCENARIOS_DIR (the shipped benchmark only)."""
    if names is None or list(names) in ([], ["all"]):
        return [load_scenario_file(p) for p in scenario_files()]
    return [load_scenario(n, folders) for n in names]


def document_for_state(state, *, arena, title, skill, brief, focal_team, horizon,
                       score_to_win=C.SCORE_THRESHOLD, controller=DEFAULT_CONTROLLER,
                       scenario_id=900, lines=()) -> dict:  # fmt: skip
    """A scenario document from a concrete State (authoring: "save this position"). arena: the
    id or the file path the document names; lines: already written line objects."""
    import engine

    f = engine.state_fields(state)
    agents = {}
    for slot in range(C.NUM_SLOTS):
        if not f["class_id"][slot]:
            continue
        entry = {"class": C.CLASS_NAMES[f["class_id"][slot]], "pos": f["pos"][slot]}
        entry |= {"alive": f["alive"][slot], "health": f["health"][slot]}
        entry |= {k: f[k][slot] for k in ("cooldown", "shield", "ooc")}
        channels = zip(C.STATUS_NAMES, f["status"][slot], strict=True)
        entry["status"] = {name: ticks for name, ticks in channels if ticks}
        if f["prev_action"] is not None:
            entry["prev_action"] = action_text(slot, f["prev_action"][slot])
        agents[slot_name(slot)] = entry
    start = {"tick": f["tick"], "score": f["score"], "spawn_end": f["spawn_end"]}
    start |= {"wave_clock": f["wave_clock"], "agents": agents}
    return {
        "format": FORMAT, "id": scenario_id, "title": title, "skill": skill, "brief": brief,
        "arena": arena, "focal_team": focal_team, "horizon": horizon,
        "score_to_win": score_to_win, "controller": controller, "start": start,
        "lines": list(lines),
    }  # fmt: skip


def write_document(path, doc: dict) -> Path:
    """Write a scenario document atomically; never over an existing file (FileExistsError)."""
    from fileio import write_new_file

    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    return write_new_file(path, text.encode("utf-8"))
