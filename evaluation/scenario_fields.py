"""Reading a scenario document's fields: type checks, the arena, each agent of the start and
the slot and action text the file is written in ("B2", "E B2 basic"), turned into the keyword
arguments of `engine.authored_state`.

Every check appends `field = value: problem` to a list, so `evaluation.scenarios` reports all
of a file's problems at once; `evaluation.scenarios` re-exports the slot and action names.
"""

import re
from pathlib import Path

import numpy as np

from engine import constants as C
from engine import maps as map_files
from engine.pool import game_layout

FORMAT = 1
LANES = ("none", "basic", "ult")
CLASS_BY_NAME = {name.lower(): i for i, name in enumerate(C.CLASS_NAMES) if i}
TOP_FIELDS = {
    "format": int, "id": int, "title": str, "skill": str, "brief": str, "arena": (int, str),
    "focal_team": str, "horizon": int, "score_to_win": int, "controller": str, "start": dict,
    "lines": list,
}  # fmt: skip
AGENT_FIELDS = {"class", "pos", "health", "alive", "cooldown", "status", "shield", "ooc"}
AGENT_FIELDS |= {"prev_action"}


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


def check_types(doc: dict, problems: list[str]) -> None:
    """Append the problems of the top-level fields (TOP_FIELDS): missing, unknown, wrong type,
    out of range or empty."""
    for field, kind in TOP_FIELDS.items():
        if field not in doc:
            problems.append(f"{field}: missing")
        elif isinstance(doc[field], bool) or not isinstance(doc[field], kind):
            problems.append(f"{field} = {doc[field]!r:.60}: wrong type, {_wanted(kind)}")
    for field in sorted(set(doc) - set(TOP_FIELDS)):
        problems.append(f"{field}: unknown field (fields: {', '.join(TOP_FIELDS)})")
    if doc.get("format") not in (None, FORMAT) and isinstance(doc.get("format"), int):
        problems.append(f"format = {doc['format']!r}: this program reads format {FORMAT}")
    if isinstance(doc.get("focal_team"), str) and doc["focal_team"] not in C.TEAM_NAMES:
        problems.append(f"focal_team = {doc['focal_team']!r}: must be 'A' or 'B'")
    for field, low in (("horizon", 1), ("score_to_win", 1), ("id", 1)):
        if isinstance(doc.get(field), int) and doc[field] < low:
            problems.append(f"{field} = {doc[field]!r}: must be at least {low}")
    for field in ("title", "skill", "brief"):
        if isinstance(doc.get(field), str) and not doc[field].strip():
            problems.append(f"{field}: must not be empty")


def read_arena(doc: dict, source: Path, problems: list[str]):
    """The MapSpec the `arena` field names (an arena id, or a map file relative to `source`'s
    folder), or None after appending the problem."""
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


def start_fields(doc: dict, arena, problems: list[str]) -> dict | None:
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


def in_file_terms(message: str) -> str:
    """An `engine.authored_state` error with a per-slot field renamed to the file's path."""
    found = _ENGINE_FIELD.match(message)
    if found is None or found[1] not in _SLOT_FIELDS or int(found[2]) >= C.NUM_SLOTS:
        return f"start: {message}"
    field = _FILE_FIELD.get(found[1], found[1])
    return f"start.agents.{slot_name(int(found[2]))}.{field}{message[found.end() :]}"


def check_controller(spec: str, problems: list[str]) -> None:
    """Append the problem of a controller System spec ("scripted:tactician") if it has one."""
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
