"""The terms the scenario briefs are checked in (tests/evaluation/test_scenario_briefs.py): the
start's agents, distances, hit points, cooldowns, auras and Red Zones of a scenario document,
each printed as the briefs print it (RULES 1.6, 2.2-2.5, 4.2; policies/scripted.py).
"""

import json
import math
from pathlib import Path

from engine import constants as C
from policies.scripted import STYLES

ROOT = Path(__file__).resolve().parents[2]
WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}
MAGE, WARRIOR, HUNTER, ROGUE, PRIEST = (C.CLASS_ID[n] for n in C.CLASS_NAMES[1:])
TACTICIAN = STYLES["tactician"]


def document(name: str) -> dict:
    return json.loads((ROOT / "scenarios" / name).read_text())


def agents(doc: dict, slots: str) -> list[dict]:
    """The start's agents of `slots` ("A0 A1 B0"), in that order."""
    return [doc["start"]["agents"][k] for k in slots.split()]


def gap(a: dict, b: dict) -> float:
    return math.dist(a["pos"], b["pos"])


def near(a: dict, b: dict) -> str:
    """A distance as the briefs print it: 2 decimals, so 2.00 (in reach) reads apart from 2.04."""
    return f"{gap(a, b):.2f}"


def reach(x) -> str:
    """A range or radius of RULES 2.2 as the briefs print it: 3.0, 3.5, 5.75."""
    return f"{float(x):.1f}" if round(float(x), 1) == float(x) else f"{float(x):.2f}"


def class_of(agent: dict) -> int:
    return C.CLASS_ID[agent["class"]]


def hp(agent: dict) -> str:
    """'28.5 of 80 HP': its health and its class's maximum (RULES 2.2)."""
    return f"{agent['health']:g} of {C.MAX_HEALTH[class_of(agent)]:g} HP"


def back_in(agent: dict) -> str:
    """Its Ultimate's state: 'ready' or 'back in two ticks' (RULES 4 step 7)."""
    n = agent.get("cooldown", 0)
    return "ready" if n == 0 else f"back in {WORDS.get(n, n)} tick{'s' * (n > 1)}"


def aura(doc: dict, slot: str, emitter: int, factor: float, bound: float) -> float:
    """The Mage (outgoing) or Warrior (incoming) aura on `slot`: factor per living teammate of
    that class within the aura radius at tick start, itself included, clamped (RULES 2.4)."""
    roster, me = doc["start"]["agents"], doc["start"]["agents"][slot]
    n = sum(
        k[0] == slot[0] and a.get("alive", True) and class_of(a) == emitter
        and gap(a, me) <= C.AURA_RADIUS
        for k, a in roster.items()
    )  # fmt: skip
    return min(factor**n, bound) if factor > 1 else max(factor**n, bound)


def basic(doc: dict, source: str, target: str) -> float:
    """Damage of `source`'s Basic on `target` under both auras (RULES 2.4, 4 step 4)."""
    raw = C.BASIC_DAMAGE[class_of(doc["start"]["agents"][source])]
    out = aura(doc, source, MAGE, C.MAGE_AURA_FACTOR, C.MAGE_AURA_CEILING)
    into = aura(doc, target, WARRIOR, C.WARRIOR_AURA_FACTOR, C.WARRIOR_AURA_FLOOR)
    return float(raw) * out * into


def holy_word_only(priest: dict, ally: dict) -> bool:
    """The Priest reaches `ally` with Holy Word and not with its heal (RULES 2.2)."""
    return C.BASIC_RANGE[PRIEST] < gap(priest, ally) <= C.ULT_RANGE[PRIEST]


def west(doc: dict, team: str) -> bool:
    return (team == "A") == (doc["start"]["spawn_end"] == 0)


def red_zone(doc: dict, team: str) -> str:
    """'x >= 16' or 'x <= 4': `team`'s own Red Zone (RULES 1.6)."""
    return (
        f"x <= {C.RED_ZONE_DEPTH:g}"
        if west(doc, team)
        else f"x >= {C.MAP_WIDTH - C.RED_ZONE_DEPTH:g}"
    )


def in_red_zone(doc: dict, slot: str) -> bool:
    x = doc["start"]["agents"][slot]["pos"][0]
    return x <= C.RED_ZONE_DEPTH if west(doc, slot[0]) else x >= C.MAP_WIDTH - C.RED_ZONE_DEPTH


def goal(doc: dict) -> list[str]:
    """How every brief opens: the score, what the other team needs (a leader one point short
    needs one kill: any death scores at least one, RULES 4 step 16), the points the focal team
    needs within the horizon and the other team's Red Zone, where a death scores two."""
    a, b = doc["start"]["score"]
    focal = "AB".index(doc["focal_team"])
    own, k = (a, b)[focal], doc["score_to_win"]
    if a == b:
        lead = f"Level at {a}-{b}"
    else:
        assert k - max(a, b) == 1, "a brief says the leader needs one kill"
        lead = f"Team {'AB'[b > a]} leads {max(a, b)}-{min(a, b)} and needs one kill"
    points = f"need {WORDS[k - own]} points within {WORDS[doc['horizon']]} ticks"
    return [lead, points, red_zone(doc, "AB"[1 - focal])]


def holy_word_rule() -> str:
    """The controller's rescue rule (policies/scripted.py `_heal_scores`)."""
    return f"starts a tick below {TACTICIAN.rescue:.0%} of its maximum HP (policies/scripted.py)"


def mage_aura() -> str:
    """How the briefs state the Mage aura (RULES 2.4)."""
    return (
        f"aura (x{C.MAGE_AURA_FACTOR} on the damage of teammates within {reach(C.AURA_RADIUS)} at "
        "tick start, RULES 2.4)"
    )


def stunned_this_tick(agent: dict, channel: str) -> bool:
    return agent.get("status", {}).get(channel) == 1


def back_for_the_last_tick(doc: dict, slot: str) -> bool:
    """`slot` is dead and its wave fires when its clock reads 0; it appears, shielded, in the
    state after (RULES 4.2): the state of the last tick the horizon allows."""
    clock = doc["start"]["wave_clock"]["AB".index(slot[0])]
    return doc["start"]["agents"][slot]["alive"] is False and clock + 1 == doc["horizon"] - 1
