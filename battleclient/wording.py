"""Messages for players: the lobby names its own controls, not config or setup field names.

Errors that reach the lobby from elsewhere (the engine's Config checks, ClientSetup checks,
the slot-spec parser, a game that could not be built) are rewritten with PLAYER_WORDS; the
lobby's own checks (`number_problem`, `team_problem`) are worded for players from the start.
In a game, `target_refusal` and `ult_refusal` say why an order the keys asked for is not legal.
"""

import re

import numpy as np

from battleclient.game_setup import LIMITS, ClientSetup, first_gap
from ui.explain import counted
from ui.rules import C, slot_label

# (pattern, replacement), applied in order: internal names -> the lobby's labels
PLAYER_WORDS = (
    (r"\b(ValueError|FileNotFoundError|KeyError|TypeError|OSError): ", ""),
    (r"Config\.score_threshold|setup field 'score_threshold'", "Score to win"),
    (r"Config\.horizon|setup field 'horizon'", "Max ticks"),
    (r"setup field 'seed'", "Seed"),
    (r"setup field 'turn_clock'", "Clock (s)"),
    (r"setup field 'info_regime'", "Information"),
    (r"setup field 'spawn_end'", "Team A spawns"),
    (r"setup field 'slots'", "Slot spec"),
    (r"setup field 'map'|\bmap '?(\w+)'?: expected", r"Map \1: expected"),
    (
        r"roster '[^']*': team ([AB]) needs 1-5 agents",
        r"Team \1 has no agents: give 1 to 5 of"
        r" its slots a class",
    ),  # fmt: skip
    (r"\bslot spec '[^']*': |\bslot spec: ", "Slot spec: "),
    (r"active slots ([A-B0-9, ]+) have no System", r"slots \1 have a class but no controller"),
    (r"\bSystems?\b", "controller"),
)


def player_words(text: str) -> str:
    """`text` with internal field names replaced by the lobby's control labels."""
    for pattern, replacement in PLAYER_WORDS:
        text = re.sub(pattern, replacement, text)
    return text


def number_problem(label: str, field: str, text: str) -> str:
    """ "" or what is wrong with a whole-number box (Seed, Score to win, Max ticks)."""
    low, high = LIMITS[field]
    if text.isdigit() and low <= int(text) <= high:
        return ""
    shown = f"'{text}'" if text else "nothing"
    return f"{label}: type a whole number from {low} to {high:,} (it says {shown})."


def team_problem(roster) -> str:
    """ "" or what is wrong with a team: no agent, or an empty slot before an agent (every team
    fills 1 to 5 slots from its first, RULES 2.1)."""
    for team in range(C.NUM_TEAMS):
        block = roster[team * C.TEAM_SIZE : (team + 1) * C.TEAM_SIZE]
        name = C.TEAM_NAMES[team]
        if not any(block):
            return (
                f"Team {name} has no agents: set a class for 1 to 5 of its slots {name}0-{name}4."
            )
        gap = first_gap(block)
        if gap is not None:
            return (
                f"Slot {name}{gap} is empty but a later slot of Team {name} is not: a team fills "
                f"its slots from {name}0 (RULES 2.1); set a class for {name}{gap} or empty the "
                "later ones."
            )
    return ""


# (setup field, lobby label): the rules that make the engine's static Config (session.config_of)
RULE_FIELDS = (
    ("score_threshold", "Score to win"),
    ("horizon", "Max ticks"),
    ("info_regime", "Information"),
)


def rules_words(setup) -> str:
    """ " for Max ticks 50, Score to win 3": the rules of `setup` that differ from the
    defaults, in the lobby's labels, or "" for the default rules."""
    default = ClientSetup()
    parts = [
        f"{label} {getattr(setup, field)}"
        for field, label in RULE_FIELDS
        if getattr(setup, field) != getattr(default, field)
    ]
    return f" for {', '.join(parts)}" if parts else ""


def fight_refusal(state, slot: int) -> str | None:
    """Why `slot` cannot fight this tick (RULES 3.5: able to fight = alive, not stunned, spawn
    shield 0), from its own row of the world `state` (its team knows it); None if it can."""
    name = slot_label(slot)
    if not bool(state["alive"][slot]):
        return f"{name} is dead this tick"
    if np.asarray(state["status"][slot])[C.IS_STUN].any():
        return f"{name} is stunned this tick"
    shield = int(state["shield"][slot])
    if shield > 0:
        return f"{name} is spawn-shielded for {counted(shield, 'tick')}: it cannot fight until then"
    return None


def target_refusal(state, slot: int) -> str:
    """The message for T when `slot` has no legal target this tick: why it cannot fight, else
    that nothing it may hit is seen and in range (RULES 3.5)."""
    return fight_refusal(state, slot) or f"{slot_label(slot)} has no legal target this tick"


def ult_refusal(state, slot: int) -> str:
    """The message for U when `slot`'s Ultimate is not legal this tick (RULES 3.5): why it cannot
    fight, else its cooldown, else no target its Ultimate may hit is seen and in range."""
    cooldown, unable = int(state["cooldown"][slot]), fight_refusal(state, slot)
    if unable:
        return f"No Ultimate: {unable}"
    if cooldown > 0:
        return f"{slot_label(slot)}'s Ultimate is ready in {counted(cooldown, 'tick')}"
    return f"{slot_label(slot)}'s Ultimate has no legal target this tick"


def armed_warning(state, slots) -> str:
    """The message for ending a turn while the Ultimates of `slots` (global slots, from
    OrderBook.armed_without_target) wait for a target: the order would go without them."""
    names = [f"{slot_label(s)}'s {C.ULT_NAMES[int(state['class_id'][s])]}" for s in slots]
    verb = "is" if len(names) == 1 else "are"
    return (
        f"{' and '.join(names)} {verb} armed with no target: choose one, or press U to disarm "
        "(Space again ends the turn without it)"
    )
