"""engine.authored_state and engine.state_fields: derived fields completed, bad input named,
and a start state that round-trips through JSON bit for bit (RULES 4.4)."""

import json

import numpy as np
import pytest

import engine
from engine import constants as C
from engine import legality, validation
from tests.engine.kit import CONFIG, PADS, STAY, ZONES, enemy, pillar, run, table

ROSTER = [1, 2, 3, 0, 0, 4, 5, 0, 0, 0]  # MWH v RP


def scene(**changes):
    """Keyword arguments for a small authored 3v2 scene, Team A west, one pillar at (10, 5)."""
    pos = np.zeros((10, 2), np.float32)
    pos[[0, 1, 2, 5, 6]] = [(8, 5), (8, 8), (6, 2), (12, 5), (12.5, 3)]
    args = dict(
        obstacles=table([pillar(10, 5, 1.0)]),
        pads=np.concatenate([PADS[0], PADS[1]]),
        red_zones=np.stack([ZONES[0], ZONES[1]]),
        class_id=ROSTER,
        spawn_end=0,
        pos=pos,
    )
    return {**args, **changes}


def test_defaults_and_derived_fields():
    s = engine.authored_state(CONFIG, **scene())
    np.testing.assert_array_equal(s.active, np.asarray(ROSTER) > 0)
    np.testing.assert_array_equal(s.alive, np.asarray(ROSTER) > 0)
    assert np.asarray(s.health).tolist() == [80, 200, 100, 0, 0, 100, 100, 0, 0, 0]
    assert np.asarray(s.wave_clock).tolist() == [CONFIG.wave_period - 1] * 2  # the reset value
    assert not bool(s.has_prev) and int(s.outcome) == C.ONGOING
    seen = np.asarray(s.seen)
    np.testing.assert_array_equal(seen, np.asarray(legality.visibility(s)))
    # The pillar of radius 1 at (10, 5) blocks A0 (8, 5) -> B5 (12, 5); A1 (8, 8) sees B5
    # (the sight line passes 1.2 from the centre, B5 is 5 away).
    assert not seen[0, 5] and seen[1, 5] and seen[5, 1]
    assert seen[0, 0] and not seen[3, 3]  # the living see themselves; empty slots see nothing


def test_first_tick_is_judged_on_the_authored_view():
    # The Warrior A1 (Basic range 1.5) stands 1 from B5: its very first Basic is accepted only
    # if `seen` was computed from the authored positions.
    pos = np.zeros((10, 2), np.float32)
    pos[[0, 1, 2, 5, 6]] = [(3, 5), (8, 7), (3, 2), (9, 7), (17, 3)]
    s = engine.authored_state(CONFIG, **scene(pos=pos))
    states, events = run(s, [{1: (STAY, enemy(0), 0)}])
    assert events[0].lane[1] == 1 and events[0].recipient[1] == 5
    assert float(states[1].health[5]) == 100 - C.BASIC_DAMAGE[C.WARRIOR]


def test_round_trip_through_json_is_bit_exact():
    s = engine.authored_state(
        CONFIG,
        **scene(health=[12.3456789, 0.1, 99.99, 0, 0, 33.3, 1e-3, 0, 0, 0], cooldown=7),
    )
    states, _ = run(s, [{0: (STAY, 0, 1)}, {}, {1: (3, 0, 0), 5: (4, 0, 0)}])
    for state in (s, states[-1]):
        fields = json.loads(json.dumps(engine.state_fields(state)))
        again = engine.authored_state(CONFIG, **fields)
        for name in engine.State.__dataclass_fields__:
            a, b = np.asarray(getattr(state, name)), np.asarray(getattr(again, name))
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), name
    history = engine.state_fields(states[-1])["prev_action"]
    assert history[1] == history[5] == [3, 0, 0]  # B5's team-frame West is the world's East
    assert engine.state_fields(s)["prev_action"] is None


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"pos": {0: (9.2, 5.0)}}, r"pos\[0\] = \[9.2, 5.0\]: the body overlaps obstacle row 0"),
        ({"pos": {5: (19.7, 5.0)}}, r"pos\[5\] = \[19.7.*outside the map"),
        ({"alive": {3: True}}, r"alive\[3\] = True: an empty slot"),
        ({"pos": {4: (1.0, 1.0)}}, r"pos\[4\] = \[1.0, 1.0\]: an empty slot"),
        ({"health": {2: 0.0}}, r"health\[2\] = 0.0: a living agent"),
        ({"alive": {2: False}}, r"health\[2\] = 100.0: a dead agent"),
        ({"wave_clock": [2, 5]}, r"wave_clock\[1\] = 5: must be 0-4"),
        ({"ooc": {5: 4}}, r"ooc\[5\] = 4: must be 0-3"),
        ({"status": {(2, C.TRAP_STUN): 5}}, r"status\[2\] = .*trap_stun out of"),
        ({"cooldown": 31}, r"cooldown\[0\] = 31: must be 0-30"),
        ({"prev_action": {6: (9, 0, 0)}}, r"prev_action\[6\] = \[9, 0, 0\]: head 0 must be 0-8"),
        ({"class_id": [1, 0, 3, 0, 0, 4, 5, 0, 0, 0]}, r"class_id\[0\].*teams need 1-5"),
        ({"pos": np.zeros((10, 3))}, r"pos: shape \(10, 3\), expected \(10, 2\)"),
        ({"health": {0: float("nan")}}, r"health\[0\] = .*nan.*not a finite"),
        ({"score": [20, 0]}, r"score = \[20, 0\]"),
        ({"tick": 2.5}, r"tick\[\] = .*2.5.*whole number"),
    ],
)
def test_bad_input_names_field_slot_and_value(changes, message):
    args = scene()
    for name, value in changes.items():
        if isinstance(value, dict):
            base = args.get(name)
            if base is None:
                base = {
                    "alive": np.asarray(ROSTER) > 0,
                    "health": np.where(np.asarray(ROSTER) > 0, C.MAX_HEALTH[ROSTER], 0),
                    "status": np.zeros((10, 9), np.int32),
                    "ooc": np.zeros(10, np.int32),
                    "prev_action": np.zeros((10, 3), np.int32),
                }[name]
            base = np.array(base)
            for key, v in value.items():
                base[key] = v
            value = base
        args[name] = value
    if "alive" in changes and "health" not in changes and not args["alive"][2]:
        args["health"] = np.where(np.asarray(ROSTER) > 0, C.MAX_HEALTH[ROSTER], 0)
    with pytest.raises(ValueError, match=message):
        engine.authored_state(CONFIG, **args)


def test_dead_slot_with_a_shield_is_rejected():
    alive = np.asarray(ROSTER) > 0
    alive[6] = False
    health = np.where(alive, C.MAX_HEALTH[ROSTER], 0.0)
    shield = np.zeros(10, np.int32)
    shield[6] = 2
    with pytest.raises(ValueError, match=r"shield\[6\] = 2: a dead or empty slot"):
        engine.authored_state(CONFIG, **scene(alive=alive, health=health, shield=shield))


def test_check_state_rejects_a_body_inside_a_pillar_within_tolerance():
    s = engine.authored_state(CONFIG, **scene())
    inside = s.replace(pos=s.pos.at[0].set(np.array([8.5 + 1e-4, 5.0], np.float32)))
    validation.check_state(CONFIG, inside)  # 1e-4 deep: float32 rounding at an edge, allowed
    deep = s.replace(pos=s.pos.at[0].set(np.array([8.6, 5.0], np.float32)))
    with pytest.raises(ValueError, match=r"pos\[0\].*obstacle row 0"):
        engine.check_state(CONFIG, deep)
    validation.check_state(CONFIG, deep, overlap_tolerance=0.2)


def test_every_problem_is_raised_together_in_the_checks_order():
    # One of each stage: a pad off the map (layout), a dead slot with a status (counters), a
    # Warrior over its 200 hit points (slot), a body in the pillar and one off the map (bodies).
    pads = np.concatenate([PADS[0], PADS[1]])
    pads[2] = (-1.0, 2.0)
    alive = np.asarray(ROSTER) > 0
    alive[6] = False
    health = np.where(alive, C.MAX_HEALTH[ROSTER], 0.0)
    health[1] = 250.0
    status = np.zeros((10, C.NUM_STATUS), np.int32)
    status[6, 0] = 3
    pos = scene()["pos"].copy()
    pos[0], pos[5] = (9.2, 5.0), (12.0, 40.0)
    args = scene(pads=pads, alive=alive, health=health, status=status, pos=pos)
    with pytest.raises(engine.StateProblems) as caught:
        engine.authored_state(CONFIG, **args)
    assert caught.value.problems == [
        "pads[2] = [-1.0, 2.0]: pad must keep the body inside the map",
        f"status[6] = {status[6].tolist()}: a dead or empty slot holds 0",
        "health[1] = 250.0: a living agent needs 0 < health <= 200.0",
        "pos[0] = [9.2, 5.0]: the body overlaps obstacle row 0",  # as written, not float32's
        "pos[5] = [12.0, 40.0]: outside the map",
    ]
    assert str(caught.value) == "\n".join(caught.value.problems)
    assert isinstance(caught.value, ValueError)  # callers catching ValueError still do
    assert validation.state_problems(CONFIG, engine.authored_state(CONFIG, **scene())) == []
