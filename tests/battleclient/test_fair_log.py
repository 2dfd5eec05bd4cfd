"""The BattleClient's live log tells a human no more than its team observed (RULES 5.5, 5.7):
snapshots built from a replay's ticks, edited where the team was blind, through views.log_lines
(the function the play screen calls)."""

import dataclasses

import numpy as np

from battleclient.session import Snapshot
from battleclient.views import fair_scene, log_lines
from tests.helpers.replays import synthetic_replay
from ui.rules import unit_name

TEAM_B = (5, 6)  # a human's slots; the view is what Team B sees


def snapshot(replay, t):
    state = {k: v[t] for k, v in replay.states.items()}
    prev = {k: v[t - 1] for k, v in replay.states.items()}
    events = {k: np.array(v[t - 1]) for k, v in replay.events.items()}
    none = np.zeros((10, 9), bool)
    return Snapshot(state, prev, events, replay.visible[t], replay.relayed[t], none, none)


def relayed_enemy_tick(replay):
    """(tick, Team A slot) where Team B knows the unit only from a relayed row."""
    for t in range(1, replay.ticks + 1):
        snap = snapshot(replay, t)
        relayed = [u.slot for u in fair_scene(snap, TEAM_B).units if u.relayed and u.slot < 5]
        if relayed:
            return t, relayed[0]
    raise AssertionError("no relayed Team A row in the replay")


def told(snap):
    scene = fair_scene(snap, TEAM_B)
    before = fair_scene(dataclasses.replace(snap, state=snap.prev_state), TEAM_B)
    return log_lines(snap, TEAM_B, scene, before)


def test_live_log_keeps_this_ticks_effects_on_relayed_units_and_enemy_orders_private():
    replay = synthetic_replay(40, seed=4)
    t, victim = relayed_enemy_tick(replay)
    snap = snapshot(replay, t)
    ev = snap.events
    for name in ("damage_raw", "damage_source", "damage_recipient", "damage_realised"):
        ev[name][:] = 0.0
    ev["lane"][:], ev["recipient"][:] = 0, -1
    ev["heal_raw"][:] = ev["heal_recipient"][:] = ev["heal_realised"][:] = 0.0
    ev["status_applied"][:] = ev["status_refreshed"][:] = ev["status_broken"][:] = False
    ev["rejected"][:] = ev["fallback"][:] = False
    ev["regen"][:], ev["cooldown_ready"][:], ev["died"][:] = 0.0, False, False
    ev["score_delta"][:] = 0
    ev["lane"][9], ev["recipient"][9] = 1, victim  # Team B's slot 9 acts on the relayed unit
    for name in ("damage_raw", "damage_source", "damage_recipient", "damage_realised"):
        ev[name][9, victim] = 17.0
    ev["regen"][victim] = 4.0
    ev["rejected"][(victim + 1) % 5, 2] = True  # a Team A attack rejected: private to A
    ev["fallback"][(victim + 2) % 5] = True
    ev["rejected"][7, 1] = True  # Team B's own: the human's team may know it
    lines = told(snap)
    text = "\n".join(lines)
    assert "17" not in text and "+4" not in text, lines
    assert all("rejected" not in line or "B2" in line for line in lines), lines
    assert "fallback" not in text, lines
    assert any("B2's move was rejected" in line for line in lines), lines
    # the same edits told in the Oracle view: the facts really are in the events
    oracle = "\n".join(log_lines(snap, "oracle", None, None))
    assert "17 damage" in oracle and "fallback" in oracle


def test_live_log_tells_a_death_without_its_lethal_sources():
    """A Team A unit dies with Team B's slots 5 and 8 as its lethal sources, slot 8 having
    hit it: the human's log (Team B's view) tells the death and slot 8's attack on a target
    that died, never who dealt the lethal damage, nor the damage to the dead (RULES 4 step 16,
    5.5); the Oracle log names both sources."""
    replay = synthetic_replay(40, seed=4)
    t, victim = next((int(k) + 1, int(s)) for k, s in np.argwhere(replay.events["died"]) if s < 5)
    snap = snapshot(replay, t)
    ev = snap.events
    ev["lethal"][:, victim] = False
    ev["lethal"][[5, 8], victim] = True
    ev["lane"][8], ev["recipient"][8] = 1, victim
    for name in ("damage_raw", "damage_source", "damage_recipient", "damage_realised"):
        ev[name][8, victim] = 17.25
    lines = told(snap)
    victim_name = unit_name(victim, snap.prev_state["class_id"][victim])
    assert (
        f"{victim_name} died" in lines
        or f"{victim_name} died in its own Red Zone: 2 points" in (lines)
    ), lines
    assert all("lethal" not in line and "17" not in line for line in lines), lines
    assert any(line.endswith(f"{victim_name}, who died this tick") for line in lines), lines
    oracle = "\n".join(log_lines(snap, "oracle", None, None))
    assert "(lethal damage: " in oracle and "17.3 damage" in oracle, oracle
