"""The event log: sentences for hand-built ticks, and what a point of view may be told."""

import numpy as np
import pytest

from evaluation.replay_schema import EVENT_FIELDS
from tests.helpers.replays import synthetic_replay
from ui.explain import explain_tick, num
from ui.rules import C

ROGUE_B3, PRIEST_A4, MAGE_A0, WARRIOR_B1 = 8, 4, 0, 6


def quiet_tick():
    """States of a 5v5 (Mage, Warrior, Hunter, Rogue, Priest each side) and an empty tick."""
    replay = synthetic_replay(1, seed=0)
    before = {k: v[0].copy() for k, v in replay.states.items()}
    after = {k: v[1].copy() for k, v in replay.states.items()}
    after["status"][:] = 0
    after["score"][:] = 0
    events = {k: np.zeros(shape, dtype) for k, (shape, dtype) in EVENT_FIELDS.items()}
    events["recipient"][:] = -1
    return events, before, after


def poison():
    """Rogue B3 poisons Priest A4 (RULES 2.5): 36 damage, stun 1, slow 5, anti-heal 4."""
    events, before, after = quiet_tick()
    events["lane"][ROGUE_B3], events["recipient"][ROGUE_B3] = 2, PRIEST_A4
    for name in ("damage_raw", "damage_source", "damage_recipient", "damage_realised"):
        events[name][ROGUE_B3, PRIEST_A4] = 36.0
    events["status_applied"][PRIEST_A4, [C.POISON_SLOW, C.POISON_STUN, C.ANTI_HEAL]] = True
    after["status"][PRIEST_A4, [C.POISON_SLOW, C.POISON_STUN, C.ANTI_HEAL]] = [5, 1, 4]
    return events, before, after


def test_poison_sentence_in_the_oracle_view():
    assert explain_tick(*poison()) == [
        "Rogue B3 poisoned Priest A4: 36 damage, stunned 1 tick, slowed 5, healing halved 4"
    ]


def test_pov_that_saw_neither_unit_hears_nothing():
    assert explain_tick(*poison(), view=("agent", MAGE_A0), known={MAGE_A0, 1}) == []


def test_pov_that_saw_only_the_victim_learns_amounts_not_the_source():
    lines = explain_tick(*poison(), view=("agent", PRIEST_A4), known={PRIEST_A4})
    assert lines == [
        "Priest A4 was hit by a unit out of view: 36 damage, stunned 1 tick, slowed 5,"
        " healing halved 4"
    ]


def test_pov_that_saw_only_the_source_learns_the_target_not_amounts():
    lines = explain_tick(*poison(), view=("agent", 7), known={7, ROGUE_B3})
    assert lines == ["Rogue B3 poisoned Priest A4 (out of view)"]


def test_pov_that_saw_only_a_healed_ally_says_healed():
    events, before, after = quiet_tick()
    events["lane"][9], events["recipient"][9] = 1, 7  # Priest B4 heals Hunter B2
    events["heal_recipient"][9, 7] = events["heal_realised"][9, 7] = 8.0
    events["status_applied"][7, C.FREEDOM] = True
    after["status"][7, C.FREEDOM] = 1
    lines = explain_tick(events, before, after, view=("agent", 4), known={4, 7})
    assert lines == ["Hunter B2 was healed by a unit out of view: 8 healing, freedom 1"]


def test_pov_without_known_slots_is_an_error():
    with pytest.raises(ValueError, match="pass the slots"):
        explain_tick(*poison(), view=("agent", 0))


def test_clamped_damage_death_red_zone_and_score():
    events, before, after = quiet_tick()
    events["lane"][MAGE_A0], events["recipient"][MAGE_A0] = 1, WARRIOR_B1
    events["damage_recipient"][MAGE_A0, WARRIOR_B1] = 14.95
    events["damage_realised"][MAGE_A0, WARRIOR_B1] = 5.0
    events["died"][WARRIOR_B1] = events["red_zone_death"][WARRIOR_B1] = True
    events["lethal"][MAGE_A0, WARRIOR_B1] = True
    events["score_delta"][:] = [2, 0]
    after["score"][:] = [7, 3]
    assert explain_tick(events, before, after) == [
        "Mage A0 hit Warrior B1: 15 damage (5 taken)",
        "Warrior B1 died (lethal damage: Mage A0) in its own Red Zone: 2 points",
        "Score A 7 : B 3 (+2 A)",
    ]


def test_self_heal_burst_rejection_fallback_and_outcome():
    events, before, after = quiet_tick()
    events["lane"][PRIEST_A4], events["recipient"][PRIEST_A4] = 1, PRIEST_A4
    events["heal_recipient"][PRIEST_A4, PRIEST_A4] = 8.0
    events["heal_realised"][PRIEST_A4, PRIEST_A4] = 8.0
    events["status_applied"][PRIEST_A4, C.FREEDOM] = True
    events["lane"][5] = 2  # Mage B0 Burst: an Ultimate with no recipient
    events["status_applied"][5, C.BURST] = True
    after["status"][5, C.BURST] = 5
    events["rejected"][1, 2] = True
    events["fallback"][9] = True
    events["outcome"], events["terminated"] = np.int32(C.A_WINS), np.bool_(True)
    after["score"][:] = [20, 11]
    assert explain_tick(events, before, after) == [
        "Warrior A1's attack was rejected",
        "Priest B4: its System gave no answer; a fallback order was used",
        "Priest A4 healed itself: 8 healing, freedom 1",
        "Mage B0 used Burst: damage x1.5 for 5 ticks",
        "Game over: A wins 20-11 (score threshold)",
    ]


def test_a_heal_past_full_health_says_what_was_restored():
    """Holy Word on a Priest at full health: 200 healing, none of it restored (RULES 4 step 5:
    health never exceeds max health); the sentence must not read as "now at 200 health"."""
    events, before, after = quiet_tick()
    events["lane"][PRIEST_A4], events["recipient"][PRIEST_A4] = 2, PRIEST_A4
    events["heal_recipient"][PRIEST_A4, PRIEST_A4] = 200.0
    assert explain_tick(events, before, after) == [
        "Priest A4 cast Holy Word on itself: 200 healing (0 restored)"
    ]


@pytest.mark.parametrize(
    ("value", "text"), [(14.95, "15"), (3.2, "3.2"), (36.0, "36"), (-0.01, "0")]
)
def test_num(value, text):
    assert num(value) == text


def test_relayed_only_recipient_gets_no_amounts_or_statuses():
    """Priest A4 known to Team B's view only from a relayed row (RULES 5.7: it shows the tick
    before), so this tick's poison damage and statuses are not the view's to tell."""
    lines = explain_tick(
        *poison(),
        view=("team", 1),
        known={5, 6, 7, ROGUE_B3, 9, PRIEST_A4},
        seen={5, 6, 7, ROGUE_B3, 9},
    )
    assert lines == ["Rogue B3 poisoned Priest A4 (out of view)"]


def test_relayed_only_source_is_a_unit_out_of_view():
    lines = explain_tick(
        *poison(), view=("agent", PRIEST_A4), known={PRIEST_A4, ROGUE_B3}, seen={PRIEST_A4}
    )
    assert lines[0].startswith("Priest A4 was hit by a unit out of view: 36 damage")


def test_enemy_rejections_and_fallbacks_are_private_but_own_are_told():
    events, before, after = quiet_tick()
    events["rejected"][1, 2] = True  # Warrior A1's attack
    events["fallback"][9] = True  # Priest B4
    everyone = set(range(10))
    assert explain_tick(events, before, after, view=("team", 1), known=everyone) == [
        "Priest B4: its System gave no answer; a fallback order was used"
    ]
    assert explain_tick(events, before, after, view=("agent", 1), known=everyone) == [
        "Warrior A1's attack was rejected"
    ]
    assert explain_tick(events, before, after, view=("agent", 0), known=everyone) == []


def test_regeneration_and_ready_ultimate_only_for_units_seen_now():
    events, before, after = quiet_tick()
    events["regen"][[2, 7]] = 3.0
    events["cooldown_ready"][[2, 7]] = True
    lines = explain_tick(events, before, after, view=("agent", 2), known={2, 7}, seen={2})
    assert lines == ["Regenerated: Hunter A2 +3", "Ultimate ready: Hunter A2"]


def two_deaths():
    """Mage A0 and Hunter A2 hit Warrior B1 (lethal); Warrior B1 (in its Red Zone) and Rogue B3
    (not) die: Team A gains 2 + 1 = 3, which alone does not say whose death was worth 2."""
    events, before, after = quiet_tick()
    events["lane"][MAGE_A0], events["recipient"][MAGE_A0] = 1, WARRIOR_B1
    for name in ("damage_raw", "damage_source", "damage_recipient", "damage_realised"):
        events[name][MAGE_A0, WARRIOR_B1] = 14.95
    events["died"][[WARRIOR_B1, ROGUE_B3]] = True
    events["red_zone_death"][WARRIOR_B1] = True
    events["lethal"][[MAGE_A0, 2], WARRIOR_B1] = True
    events["score_delta"][:] = [3, 0]
    after["score"][:] = [3, 0]
    return events, before, after


def test_oracle_names_lethal_sources_and_red_zone():
    lines = explain_tick(*two_deaths())
    assert "Warrior B1 died (lethal damage: Mage A0, Hunter A2) in its own Red Zone: 2 points" in (
        lines
    )


def test_pov_death_names_no_lethal_source_and_red_zone_only_where_observed():
    """Team A's Mage A0 sees the Warrior now dead; its own attack names its chosen target (5.5)
    and the public death (5.6), not the damage; the Red Zone is told only for a victim it saw at
    tick start (its row's in_red_zone, 5.3)."""
    known = {0, 1, 2, 3, 4, WARRIOR_B1, ROGUE_B3}
    seen = {0, 1, 2, 3, 4}
    kw = dict(view=("agent", MAGE_A0), known=known, seen=seen)
    blind = explain_tick(*two_deaths(), **kw, seen_before={0, 1, 2, 3, 4})
    assert blind[:3] == [
        "Mage A0 hit Warrior B1, who died this tick",
        "Warrior B1 died",
        "Rogue B3 died",
    ]
    saw = explain_tick(*two_deaths(), **kw, seen_before={0, 1, 2, 3, 4, WARRIOR_B1, ROGUE_B3})
    assert saw[1:3] == ["Warrior B1 died in its own Red Zone: 2 points", "Rogue B3 died"]


def test_pov_red_zone_from_the_score_when_every_death_was_worth_two():
    events, before, after = two_deaths()
    events["red_zone_death"][ROGUE_B3] = True
    events["score_delta"][:] = [4, 0]
    lines = explain_tick(
        events, before, after, view=("agent", MAGE_A0), known={0, WARRIOR_B1, ROGUE_B3}
    )
    assert lines[1:3] == [
        "Warrior B1 died in its own Red Zone: 2 points",
        "Rogue B3 died in its own Red Zone: 2 points",
    ]


def test_the_log_and_the_end_card_give_one_reason_for_the_end():
    from ui.explain import end_reason

    assert end_reason({"terminated": True, "truncated": False}) == "score threshold"
    assert end_reason({"terminated": False, "truncated": True}) == "horizon reached"
