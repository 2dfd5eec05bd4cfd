"""A scenario's brief is what a playtester reads first (the BattleClient's Scenarios screen, the
Replay Viewer's info bar): it states the goal and the situation and leaves the moves to the
player. Scenario 1's brief names no move and no order of play, and its numbers are its start's
(RULES 2.2, 2.4)."""

import json
import math
import re
from pathlib import Path

from engine import constants as C

ROOT = Path(__file__).resolve().parents[2]
WORDS = {2: "two", 5: "five"}


def document(name: str) -> dict:
    return json.loads((ROOT / "scenarios" / name).read_text())


def test_hold_the_trap_brief_names_no_move_and_no_order_of_play():
    brief = document("001_hold_the_trap.json")["brief"]
    words = set(re.findall(r"[A-Za-z]+", brief))
    assert not words & set(C.MOVE_NAMES)  # "step NW", "W round the Warrior", "Stay"
    assert not words & {"step", "steps", "then", "first", "third", "hold", "wait"}


def test_hold_the_trap_brief_states_the_start_it_describes():
    doc = document("001_hold_the_trap.json")
    brief, start, agents = doc["brief"], doc["start"], doc["start"]["agents"]
    a, b = start["score"]
    rogue, hunter, warrior, mage = agents["A0"], agents["A1"], agents["B0"], agents["B1"]
    mage_class, warrior_class = C.CLASS_NAMES.index("Mage"), C.CLASS_NAMES.index("Warrior")
    reach = math.dist(rogue["pos"], mage["pos"])
    basic = C.BASIC_DAMAGE[mage_class] * C.MAGE_AURA_FACTOR  # its own aura (RULES 2.4)
    stated = [
        f"Team B leads {b}-{a} and needs one kill",
        f"You need {WORDS[doc['score_to_win'] - a]} points within {WORDS[doc['horizon']]} ticks",
        f"Warrior ({warrior['health']} of {C.MAX_HEALTH[warrior_class]:g} HP)",
        f"at x = {warrior['pos'][0]}, trapped for {WORDS[warrior['status']['trap_stun']]} more",
        f"x{C.WARRIOR_AURA_FACTOR}",
        f"Your Rogue ({rogue['health']} HP) is behind it, at x = {rogue['pos'][0]}",
        f"Poison back in {WORDS[rogue['cooldown']]} ticks",
        f"Mage ({mage['health']} HP) is {reach:.1f} from your Rogue",
        f"within its Basic's {C.BASIC_RANGE[mage_class]:.1f}, and deals {basic:.2f} a Basic",
    ]
    assert [s for s in stated if s not in brief] == []
    assert reach <= C.BASIC_RANGE[mage_class] and hunter["alive"] is False
    # its wave fires when its clock reads 0 and it appears, shielded, in the state after
    # (RULES 4.2): the state of the last tick the horizon allows
    assert start["wave_clock"][0] + 1 == doc["horizon"] - 1
    assert "Your Hunter is dead and returns, shielded, only for the last tick" in brief
    # Team B's Red Zone, where the Warrior stands: x >= 16 when Team A spawns west (RULES 1.6)
    assert start["spawn_end"] == 0 and "x >= 16" in brief and warrior["pos"][0] >= 16
