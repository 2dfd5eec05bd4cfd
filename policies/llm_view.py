"""The text view of an LLM agent: one observer's observation as a Chat Completions prompt, and
the reply checked against its legal-action mask.

Everything here reads ONE observer's slice of the engine's `Obs` (NumPy, host side) and never a
`State`, so a prompt holds exactly what that agent observed (RULES 5): its own row, the rows it
sees or has relayed, the public lifecycle of every unit (5.6), the previous accepted actions of
the rows it is shown (5.5), the obstacle table and the context, all in its team's frame (5.8).
The layout follows the paper's LLM-agent API (seed 000, S7.2): rules in brief, map obstacles, the
actor's permitted view, prior observed actions, legal choices by name and id, reply instruction.

A reply is one JSON object `{"move": M, "target": T, "ultimate": U}` (ids or names; RULES 3.1-
3.4); `parse_reply` returns the (move, target, ult) triple or raises `ReplyError` saying why.
"""

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from engine import constants as C
from engine.types import CONTEXT, ROW

TEAM = C.TEAM_SIZE
ROW_NAMES = C.TARGET_NAMES[1:]  # row r is target category r + 1: ally0..ally4, enemy0..enemy4
CLASS_COLS = slice(ROW["class_mage"], ROW["class_priest"] + 1)
STATUS_COLS = slice(ROW["status_charge_slow"], ROW["status_freedom"] + 1)
_THINK = re.compile(r"<think>.*?(</think>|$)", re.S)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.S)


class ReplyError(ValueError):
    """A reply that is not one legal action; the message says what was wrong (shown to the
    model in the corrective re-prompt and kept as the fallback's reason)."""


@dataclass(frozen=True)
class ViewOptions:
    """What goes into a prompt. history: earlier ticks (own view and reply) kept as chat turns;
    thinking: ask for (True) or against (False) reasoning before the JSON, None says nothing;
    system_prompt: replaces the rules brief (the text of a custom system prompt file)."""

    history: int = 0
    thinking: bool | None = False
    system_prompt: str | None = None


def rules_brief() -> str:
    """The system message: Team Deathmatch in brief, every number from engine.constants."""
    lines = [
        "You control one agent in Team Deathmatch, a simultaneous turn-based game of two teams "
        f"of up to {TEAM} agents on a {C.MAP_WIDTH:g} x {C.MAP_HEIGHT:g} map. Every tick each "
        "agent moves one step and may use one ability; all actions resolve at the same time.",
        f"A kill scores 1 point, 2 if the victim died in its own Red Zone (the strip within "
        f"{C.RED_ZONE_DEPTH:g} units of its team's back edge). {C.SCORE_THRESHOLD} points with a "
        f"lead wins; after {C.HORIZON} ticks the game is a draw. The dead respawn on their pads "
        f"in waves every {C.WAVE_PERIOD} ticks, shielded for {C.SHIELD_TICKS} ticks (untargetable, "
        "cannot attack, speed 2).",
        "Coordinates are in your team's frame: your base and Red Zone are at the west edge "
        f"(x near 0), the enemy's at the east edge (x near {C.MAP_WIDTH:g}); y grows northwards. "
        "Moves use the same frame. Obstacles block movement and line of sight.",
        "You see units within your sight radius in clear line of sight; rows marked relayed are "
        "a teammate's sighting from the previous tick. Abilities need a target you see directly "
        "and that is in range. Using the Ultimate starts a cooldown of "
        f"{C.ULT_COOLDOWN} ticks. Agents out of combat for a few ticks regenerate 4% a tick.",
        "Classes (health, speed, sight; Basic; Ultimate):",
    ]
    for cls in range(1, C.NUM_CLASSES):
        lines.append("- " + _class_line(cls))
    lines.append(
        "Auras: every Mage multiplies the damage of allies within 2 units by 1.15; every Warrior "
        "multiplies the damage taken by allies within 2 units by 0.85."
    )
    return "\n".join(lines)


def _class_line(cls: int) -> str:
    def ability(relation, reach, damage, heal):
        if not damage and not heal:
            return "on yourself"
        what = f"{damage:g} damage" if damage else f"{heal:g} heal"
        who = {C.REL_ENEMY: "an enemy", C.REL_ALLY: "an ally or yourself"}
        return f"{what} to {who[int(relation)]}" + (f" within {reach:g}" if reach else "")

    basic = ability(
        C.BASIC_RELATION[cls], C.BASIC_RANGE[cls], C.BASIC_DAMAGE[cls], C.BASIC_HEAL[cls]
    )
    ult = ability(C.ULT_RELATION[cls], C.ULT_RANGE[cls], C.ULT_DAMAGE[cls], C.ULT_HEAL[cls])
    return (
        f"{C.CLASS_NAMES[cls]} ({C.MAX_HEALTH[cls]:g} hp, speed {C.BASE_SPEED[cls]:g}, sight "
        f"{C.SIGHT_RADIUS[cls]:g}): Basic {basic}; Ultimate {C.ULT_NAMES[cls]} {ult}. "
        f"{C.CLASSES[cls].summary}."
    )


def _pick(obs, slot: int) -> dict:
    """One observer's arrays out of a (NumPy) Obs with a leading axis of 10 observers."""
    mask = obs.mask
    return {
        "units": np.asarray(obs.units[slot]),
        "visible": np.asarray(obs.visible[slot], bool),
        "relayed": np.asarray(obs.relayed[slot], bool),
        "public": np.asarray(obs.public[slot]),
        "obstacles": np.asarray(obs.obstacles[slot]),
        "context": np.asarray(obs.context[slot]),
        "prev": np.asarray(obs.prev_action[slot]),
        "class_id": int(np.asarray(obs.class_id)[slot]),
        "self_index": int(np.asarray(obs.self_index)[slot]),
        "move_mask": np.asarray(mask.move[slot], bool),
        "pair_mask": np.asarray(mask.pair[slot], bool),
    }


def row_label(slot: int, row: int, classes: Sequence[int] | None = None) -> str:
    """ "enemy2 (B2, Hunter)": the target-category name of an observer's row, the global slot
    it stands for (RULES 3.3) and, when known, its class."""
    other = int(C.RELATIVE_ORDER[slot, row])
    name = C.slot_label(other)
    cls = int(classes[row]) if classes is not None else 0
    return f"{ROW_NAMES[row]} ({name}" + (f", {C.CLASS_NAMES[cls]})" if cls else ")")


def _row_classes(units: np.ndarray) -> np.ndarray:
    hot = units[:, CLASS_COLS]
    return np.where(hot.max(axis=1) > 0.5, hot.argmax(axis=1) + 1, 0)


def map_text(obstacles: np.ndarray) -> str:
    """The obstacle table (32, 8) in the observer's frame, one line an active obstacle."""
    lines = []
    for row in obstacles:
        if row[C.OBS_ACTIVE] <= 0.5 or int(row[C.OBS_TYPE]) == C.OBSTACLE_NONE:
            continue
        x, y = row[C.OBS_X], row[C.OBS_Y]
        if int(row[C.OBS_TYPE]) == C.OBSTACLE_PILLAR:
            lines.append(f"- pillar at ({x:.2f}, {y:.2f}), radius {row[C.OBS_RADIUS]:.2f}")
        else:
            angle = round(float(np.degrees(row[C.OBS_THETA])))  # an int: never "-0"
            lines.append(
                f"- wall centred at ({x:.2f}, {y:.2f}), {row[C.OBS_WIDTH]:.2f} x "
                f"{row[C.OBS_HEIGHT]:.2f}, turned {angle:d} degrees"
            )
    return "Obstacles:\n" + ("\n".join(lines) if lines else "- none (an open map)")


def _unit_line(view: dict, slot: int, row: int, classes) -> str:
    unit = view["units"][row]
    x, y, dist = unit[ROW["x"]], unit[ROW["y"]], unit[ROW["distance"]]
    cooldown = unit[ROW["cooldown"]]
    parts = [
        f"at ({x:.2f}, {y:.2f})" + ("" if unit[ROW["is_self"]] > 0.5 else f", {dist:.2f} away"),
        f"health {unit[ROW['health']]:.0f}/{unit[ROW['max_health']]:.0f}",
        "Ultimate ready" if cooldown <= 0 else f"Ultimate in {cooldown:.0f} ticks",
        f"speed {unit[ROW['speed']]:.2f}",
    ]
    statuses = [
        f"{name} {int(n)}"
        for name, n in zip(C.STATUS_NAMES, unit[STATUS_COLS], strict=True)
        if n > 0
    ]
    if statuses:
        parts.append("statuses " + ", ".join(statuses))
    if unit[ROW["shield"]] > 0:
        parts.append(f"spawn shield {unit[ROW['shield']]:.0f}")
    if unit[ROW["in_red_zone"]] > 0.5:
        parts.append("in its own Red Zone")
    parts.append("in combat" if unit[ROW["ooc"]] > 0 else "out of combat")
    seen = "relayed" if view["relayed"][row] else "seen"
    return f"- {row_label(slot, row, classes)}, {seen}: " + "; ".join(parts)


def _hidden_line(view: dict, slot: int, row: int) -> str | None:
    active, alive, shield = view["public"][row]
    if active < 0.5:
        return None
    state = "alive" if alive > 0.5 else "dead"
    if shield > 0:
        state += f", spawn shield {shield:.0f}"
    return f"- {row_label(slot, row)}: not in sight ({state})"


def _action_words(slot: int, prev: np.ndarray, classes) -> str:
    move, target, ult = (int(v) for v in prev)
    words = f"moved {C.MOVE_NAMES[move]}" if move else "stayed"
    if target and not ult:
        words += f", Basic on {row_label(slot, target - 1, classes)}"
    elif target:
        words += f", Ultimate on {row_label(slot, target - 1, classes)}"
    elif ult:
        words += ", used its Ultimate (Burst)"
    return words


def view_text(obs, slot: int) -> str:
    """What observer `slot` (global 0-9) knows now, as text: the tick, scores and team counts,
    its own row, the units it sees or has relayed, the rest by public lifecycle only, and the
    previous accepted actions of the rows it is shown. Reads only `obs[slot]` (RULES 5)."""
    view = _pick(obs, slot)
    ctx, units = view["context"], view["units"]
    classes = _row_classes(units)
    me = view["self_index"]
    known = view["visible"] | view["relayed"]
    lines = [
        f"Tick {ctx[CONTEXT['tick']]:.0f} ({ctx[CONTEXT['ticks_left']]:.0f} left). Score: your "
        f"team {ctx[CONTEXT['own_score']]:.0f}, enemy {ctx[CONTEXT['opp_score']]:.0f} (first to "
        f"{ctx[CONTEXT['score_threshold']]:.0f} with a lead). Alive: your team "
        f"{ctx[CONTEXT['own_alive']]:.0f}/{ctx[CONTEXT['own_team_size']]:.0f}, enemy "
        f"{ctx[CONTEXT['opp_alive']]:.0f}/{ctx[CONTEXT['opp_team_size']]:.0f}. Next respawn "
        f"wave in {ctx[CONTEXT['own_wave_clock']]:.0f} ticks (yours), "
        f"{ctx[CONTEXT['opp_wave_clock']]:.0f} (theirs).",
        f"You are {row_label(slot, me, [view['class_id']] * 2 * TEAM)}.",
    ]
    if known[me]:
        lines.append("You: " + _unit_line(view, slot, me, classes).split(": ", 1)[1])
    else:
        lines.append("You are dead and see nothing until you respawn.")
    lines.append("Units:")
    for row in range(2 * TEAM):
        if row == me:
            continue
        line = _unit_line(view, slot, row, classes) if known[row] else _hidden_line(view, slot, row)
        if line:
            lines.append(line)
    shown = [r for r in range(2 * TEAM) if view["prev"][r, 0] >= 0]
    if shown:
        lines.append("Last tick's actions of the units shown:")
        lines += [
            f"- {row_label(slot, r, classes)} {_action_words(slot, view['prev'][r], classes)}"
            for r in shown
        ]
    return "\n".join(lines)


def legal_choices(obs, slot: int) -> str:
    """The legal moves and combat choices of `slot` by id and name (RULES 3.2-3.5)."""
    view = _pick(obs, slot)
    classes = _row_classes(view["units"])
    ult_name = C.ULT_NAMES[view["class_id"]]
    moves = [f"{m} {C.MOVE_NAMES[m]}" for m in np.flatnonzero(view["move_mask"])]
    combat = []
    for target, ult in zip(*np.nonzero(view["pair_mask"]), strict=True):
        target, ult = int(target), int(ult)
        if target == 0:
            what = f"{ult_name} (no target)" if ult else "no ability"
        else:
            label = row_label(slot, target - 1, classes)
            what = f"{'Ultimate ' + ult_name if ult else 'Basic'} on {label}"
        combat.append(f'- "target": {target}, "ultimate": {ult}: {what}')
    return (
        "Legal moves (id name): "
        + ", ".join(moves)
        + "\nLegal combat choices:\n"
        + "\n".join(combat)
    )


AGENT_REPLY = '{"move": MOVE_ID, "target": TARGET_ID, "ultimate": 0 or 1}'


def reply_instruction(thinking: bool | None, shape: str = "") -> str:
    """How to answer: one JSON object with the three heads, ids from the lists above (shape:
    the object's form; default one agent's `AGENT_REPLY`)."""
    text = (
        f"Reply with one JSON object and nothing else: {shape or AGENT_REPLY}, using a legal "
        "move and one legal combat choice from the lists."
    )
    if thinking is True:
        text = "Think step by step first, then end with the JSON object. " + text
    elif thinking is False:
        text += " Do not explain."
    return text


def user_text(obs, slot: int, options: ViewOptions) -> str:
    """The user message of one decision: the view, the legal choices, the instruction."""
    parts = [view_text(obs, slot), legal_choices(obs, slot), reply_instruction(options.thinking)]
    return "\n\n".join(parts)


def system_text(obs, slot: int, options: ViewOptions) -> str:
    """The system message: the rules brief (or the custom system prompt) and the map, which
    is fixed for the game, so it stays in every prompt whatever the history keeps."""
    rules = options.system_prompt if options.system_prompt is not None else rules_brief()
    return rules + "\n\n" + map_text(_pick(obs, slot)["obstacles"])


def messages(obs, slot: int, options: ViewOptions, history: Sequence = ()) -> list[dict]:
    """Chat Completions messages of one decision of `slot`: the system message, the last
    `options.history` (user, assistant) turns of this agent, then this tick's user message."""
    out = [{"role": "system", "content": system_text(obs, slot, options)}]
    kept = list(history)[-options.history :] if options.history > 0 else []
    for past_user, past_reply in kept:
        out.append({"role": "user", "content": past_user})
        out.append({"role": "assistant", "content": past_reply})
    out.append({"role": "user", "content": user_text(obs, slot, options)})
    return out


def prompt_text(chat: Sequence[dict]) -> str:
    """Messages as one printable text (`mbg llm prompt`): a `### role` heading per message."""
    return "\n\n".join(f"### {m['role']}\n{m['content']}" for m in chat)


# --- replies ---------------------------------------------------------------------------------


def _json_object(text: str) -> dict:
    text = _THINK.sub("", text or "").strip()
    if not text:
        raise ReplyError("the reply was empty")
    candidates = [text] + _FENCE.findall(text)
    start, end = text.find("{"), text.rfind("}")
    if 0 <= start < end:
        candidates.append(text[start : end + 1])
    for candidate in candidates:
        try:
            value = json.loads(candidate)
        except ValueError:
            continue
        if isinstance(value, dict):
            return value
    raise ReplyError(f"the reply is not a JSON object: {text[:120]!r}")


def _head(value, names: Sequence[str], field: str, size: int) -> int:
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        chosen = value
    elif isinstance(value, str) and value.strip().lstrip("-").isdigit():
        chosen = int(value.strip())
    elif isinstance(value, str) and value.strip().lower() in [n.lower() for n in names]:
        chosen = [n.lower() for n in names].index(value.strip().lower())
    else:
        raise ReplyError(f'"{field}": {value!r} is not an id 0-{size - 1} or a name')
    if not 0 <= chosen < size:
        raise ReplyError(f'"{field}": {chosen} is outside 0-{size - 1}')
    return chosen


def parse_action(value: dict, move_mask: np.ndarray, pair_mask: np.ndarray) -> tuple[int, int, int]:
    """A reply object -> (move, target, ult) when legal under move_mask (9,) and pair_mask
    (11, 2) (RULES 3.5). Raises ReplyError for a missing field, an unknown id or name, or an
    illegal choice."""
    if not isinstance(value, dict):
        raise ReplyError(f"expected a JSON object, got {value!r:.80}")
    missing = [k for k in ("move", "target") if k not in value]
    if missing:
        raise ReplyError(f"the reply has no {' or '.join(repr(k) for k in missing)} field")
    move = _head(value["move"], C.MOVE_NAMES, "move", C.NUM_MOVES)
    target = _head(value["target"], C.TARGET_NAMES, "target", C.NUM_TARGETS)
    ult = _head(value.get("ultimate", value.get("ult", 0)), ("no", "yes"), "ultimate", 2)
    if not move_mask[move]:
        raise ReplyError(f"move {move} ({C.MOVE_NAMES[move]}) is not legal now")
    if not pair_mask[target, ult]:
        raise ReplyError(f"target {target} with ultimate {ult} is not a legal combat choice now")
    return move, target, ult


def parse_reply(text: str, move_mask: np.ndarray, pair_mask: np.ndarray) -> tuple[int, int, int]:
    """Reply text -> legal (move, target, ult). Reasoning in <think> tags, code fences and text
    around the object are ignored. Raises ReplyError saying what was wrong."""
    return parse_action(_json_object(text), move_mask, pair_mask)


def parse_team_reply(text: str, slots: Sequence[int], masks: dict) -> tuple[dict, dict]:
    """A per-team reply {"A0": {...}, ...} -> ({slot: action}, {slot: reason}) for the slots
    whose entry is missing or illegal; masks: slot -> (move_mask, pair_mask). Raises
    ReplyError when the reply is not a JSON object at all."""
    value = _json_object(text)
    actions, problems = {}, {}
    for slot in slots:
        name = C.slot_label(slot)
        try:
            if name not in value:
                raise ReplyError(f"the reply has no entry {name!r}")
            actions[slot] = parse_action(value[name], *masks[slot])
        except ReplyError as error:
            problems[slot] = f"{name}: {error}"
    return actions, problems


def team_user_text(obs, slots: Sequence[int], options: ViewOptions) -> str:
    """The user message of a per-team decision: each agent's own view and legal choices, and
    an instruction for one object keyed by agent name (the map is in the system message)."""
    parts = []
    names = [C.slot_label(s) for s in slots]
    for slot, name in zip(slots, names, strict=True):
        parts.append(f"## Agent {name}\n{view_text(obs, slot)}\n{legal_choices(obs, slot)}")
    example = ", ".join(f'"{n}": {{"move": ..., "target": ..., "ultimate": ...}}' for n in names)
    parts.append(reply_instruction(options.thinking, f"{{{example}}} (one entry per agent)"))
    return "\n\n".join(parts)
