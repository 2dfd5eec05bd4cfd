"""Hand-computed metrics of the four-tick game in handgame.py, at least one check per topic."""

import math

import numpy as np
import polars as pl
import pytest

from evaluation.metrics import TOPICS, compute_metrics
from tests.evaluation.metrics.handgame import R, hand_game

NAN = math.nan
R_DEALT_A = 14.95 + 9.2 + 23 + 25.85  # Team A's realised damage (R6 had 25.85 hp left at t3)
R_DEALT_B = 30.6 + 10.2 + 5.1 + 8.5 + 10.2 + 5.1 + 10.2  # = 79.9

# metric id -> {(source, target): value}; a bare dict of ints means source -> value (target -1)
EXPECTED = {
    "outcome.result": {(-1, -1): 3},
    "outcome.ticks": {(-1, -1): 4},
    "outcome.points": {0: 0.5, 1: 0.5},
    "outcome.truncated": {(-1, -1): 1},
    "outcome.terminated": {(-1, -1): 0},
    "outcome.team_size": {0: 3, 1: 3},
    "score.final": {0: 1, 1: 0},
    "score.margin": {0: 1, 1: -1},
    "score.lead_ticks": {0: 1, 1: 0},
    "score.first_point_tick": {0: 3, 1: -1},
    "score.max_deficit": {0: 0, 1: 1},
    "score.red_zone_bonus": {0: 0, 1: 0},
    "damage.dealt_raw": {0: 26, 1: 36, 2: 0, 5: 22, 6: 72, 7: 0},
    "damage.dealt_source": {0: 14.95 + 22.425, 1: 9.2 + 23 + 8, 5: 22, 6: 72},
    "damage.dealt_recipient": {0: 37.375, 1: 40.2, 5: 18.7, 6: 61.2},
    "damage.dealt_realised": {0: 14.95 + 22.425 * R, 1: 32.2 + 8 * R, 5: 18.7, 6: 61.2},
    "damage.taken_realised": {0: 40.8, 1: 39.1, 2: 0, 5: 23, 6: 50, 7: 0},
    "damage.team_dealt_realised": {0: R_DEALT_A, 1: R_DEALT_B},
    "damage.team_taken_recipient": {0: R_DEALT_B, 1: 14.95 + 9.2 + 23 + 30.425},
    "damage.pair_realised": {(6, 0): 40.8, (0, 6): 14.95 + 22.425 * R, (5, 1): 18.7},
    "damage.pair_source": {(0, 6): 37.375, (1, 5): 23, (6, 1): 24},
    "damage.overkill_dealt": {0: 22.425 * (1 - R), 1: 8 * (1 - R), 6: 0},
    "damage.overkill_taken": {6: 30.425 - 25.85, 0: 0},
    "damage.hits_dealt": {0: 2, 1: 3, 5: 3, 6: 4},
    "damage.hits_taken": {0: 2, 1: 5, 5: 1, 6: 4},
    "damage.max_hit": {0: 22.425, 1: 23, 5: 8.5, 6: 30.6},
    "healing.given_raw": {2: 224, 7: 0},
    "healing.given_recipient": {2: 120},
    "healing.given_realised": {2: 96.8},
    "healing.received_raw": {0: 216, 1: 8},
    "healing.received_realised": {0: 88.8, 1: 8},
    "healing.team_realised": {0: 96.8, 1: 0},
    "healing.pair_recipient": {(2, 0): 112, (2, 1): 8, (2, 2): 0},
    "healing.overheal_given": {2: 23.2},
    "healing.overheal_received": {0: 23.2, 1: 0},
    "healing.heals_given": {2: 4},
    "healing.heals_received": {0: 3, 1: 1},
    "healing.under_fire": {2: 96.8},
    "health.final": {0: 80, 1: 168.9, 2: 94, 5: 77, 6: 0, 7: 100},
    "health.mean_fraction": {0: (0.4 + 0.1175 + 2) / 4, 7: 1.0},
    "health.min_fraction": {0: 9.4 / 80, 6: 25.85 / 100},
    "health.low_ticks": {0: 1, 6: 0},
    "health.net_change": {0: 48, 1: -31.1, 2: 4, 6: -50},
    "health.team_mean_fraction": {1: (150 + 125.85 + 202.85 * 2) / 4 / 300},
    "kills.contributions": {(0, 6): 1, (1, 6): 1, (5, 1): 0},
    "kills.lethal_damage": {(0, 6): 22.425 * R, (1, 6): 8 * R},
    "kills.contributed": {0: 1, 1: 1, 2: 0},
    "kills.single": {0: 0, 1: 0},
    "kills.shared": {0: 1, 1: 1},
    "kills.team": {0: 1, 1: 0},
    "kills.team_shared": {0: 1, 1: 0},
    "kills.team_single": {0: 0, 1: 0},
    "kills.lethal_share": {0: 1, 2: 0, 5: NAN},
    "kills.multi_ticks": {0: 0},
    "deaths.count": {6: 1, 0: 0},
    "deaths.team": {0: 0, 1: 1},
    "deaths.team_red_zone": {0: 0, 1: 0},
    "deaths.first_tick": {6: 3, 0: -1},
    "deaths.alive_ticks": {0: 4, 7: 2},
    "deaths.mean_life": {7: 1, 0: 4},
    "deaths.contributors_mean": {6: 2, 0: NAN},
    "focus.ganged_ticks": {6: 2, 1: 1, 0: 0},
    "focus.attackers_max": {6: 2, 1: 2, 0: 1, 5: 1},
    "focus.team_focus_ticks": {0: 2, 1: 1},
    "focus.concentration": {0: 1, 1: (6 / 7 + 6 / 11 + 2) / 4},
    "focus.together": {(0, 1): 2, (1, 0): 2, (5, 6): 1, (0, 2): 0},
    "focus.target_switches": {0: 0, 1: 2, 5: 0, 6: 1},
    "trades.death_balance": {0: 1, 1: -1},
    "trades.answered_deaths": {1: 0},
    "trades.unanswered_deaths": {1: 1, 0: 0},
    "trades.mutual_ticks": {(-1, -1): 0},
    "trades.damage_ratio": {0: R_DEALT_A / R_DEALT_B},
    "trades.revenge": {(0, 6): 0},
    "control.stunned_ticks": {0: 1, 1: 1, 5: 1, 6: 0},
    "control.slowed_ticks": {0: 3, 1: 1, 5: 2},
    "control.controlled_ticks": {0: 3, 1: 2, 5: 2},
    "control.team_controlled_ticks": {0: 5, 1: 2},
    "control.stuns_landed": {(6, 0): 1, (1, 5): 1, (5, 1): 1, (0, 6): 0},
    "control.slows_landed": {(5, 1): 2, (6, 0): 1, (1, 5): 1},
    "control.pair_on_controlled": {(6, 0): 10.2, (5, 1): 8.5, (6, 1): 10.2, (1, 5): 0},
    "control.damage_on_controlled": {6: 20.4, 5: 8.5, 0: 0},
    "control.kills_on_controlled": {0: 0},
    "status.applied_poison_stun": {0: 1},
    "status.applied_freedom": {0: 2, 1: 1},
    "status.applied_hunter_slow": {1: 2},
    "status.active_poison_slow": {0: 3},
    "status.active_freedom": {0: 2, 1: 0},
    "status.active_charge_slow": {5: 2},
    "status.active_trap_stun": {1: 1},
    "status.active_burst": {0: 1},
    "status.expired": {0: 3, 1: 1, 5: 1},
    "status.broken": {1: 1, 0: 0},
    "status.refreshed": {0: 0},
    "status.cleared": {6: 0},
    "mage.aura_cover": {(0, 0): 4, (0, 1): 3, (0, 2): 4},
    "mage.aura_bonus": {(0, 0): 1.95 + 2.925, (0, 1): 1.2 + 3.0, (0, 2): 0},
    "mage.aura_bonus_total": {0: 9.075},
    "mage.aura_allies": {0: 1.75},
    "mage.bursts": {0: 1},
    "mage.burst_damage": {0: 22.425},
    "mage.burst_bonus": {0: 22.425 / 3},
    "mage.burst_kills": {0: 1},
    "warrior.aura_cover": {(1, 0): 3, (1, 1): 4, (1, 2): 1},
    "warrior.aura_saved": {(1, 0): 7.2, (1, 1): 6.9, (1, 2): 0},
    "warrior.aura_saved_total": {1: 14.1},
    "warrior.charges": {1: 1},
    "warrior.charge_distance": {1: 1.0},
    "warrior.charge_damage": {1: 23},
    "warrior.charge_kills": {1: 0},
    "warrior.taken_share": {1: 39.1 / 79.9},
    "hunter.slows": {5: 2},
    "hunter.traps": {5: 1},
    "hunter.trap_damage": {5: 8.5},
    "hunter.traps_broken": {5: 1},
    "hunter.traps_expired": {5: 0},
    "hunter.breaks": {(6, 1): 1, (5, 1): 0},
    "rogue.poisons": {6: 1},
    "rogue.poison_damage": {6: 30.6},
    "rogue.poison_kills": {6: 0},
    "rogue.priority_share": {6: 40.8 / 61.2},
    "rogue.heal_denied": {0: 104, 1: 0},
    "rogue.team_heal_denied": {0: 104, 1: 0},
    "priest.efficiency": {2: 96.8 / 224, 7: NAN},
    "priest.overheal": {2: 23.2},
    "priest.holy_words": {2: 1},
    "priest.holy_word_healing": {2: 80.8},
    "priest.rescues": {(2, 0): 1, (2, 1): 0},
    "priest.rescues_total": {2: 1},
    "priest.freedoms": {2: 3},
    "priest.freedom_bound": {2: 1},
    "cooldown.started": {0: 1, 6: 1, 7: 0},
    "cooldown.utilisation": {6: 0.75, 1: 0.5, 0: 0.25, 7: 0},
    "cooldown.ready_idle_ticks": {0: 2, 1: 1, 6: 0, 7: 0},
    "cooldown.first_use_tick": {0: 2, 1: 1, 6: 0, 7: -1},
    "cooldown.mean_delay": {0: 2, 1: 1, 6: 0, 7: NAN},
    "abilities.basics": {0: 2, 1: 2, 2: 3, 5: 2, 6: 3, 7: 0},
    "abilities.ultimates": {0: 1, 6: 1, 7: 0},
    "abilities.idle_ticks": {0: 1, 1: 1, 5: 1, 6: 0, 7: 0},
    "abilities.basic_hits": {(2, 0): 2, (2, 1): 1, (6, 0): 1, (6, 1): 2, (0, 6): 2},
    "abilities.ultimate_hits": {(6, 0): 1, (2, 0): 1, (0, 0): 0},
    "abilities.damage_per_hit": {0: 37.375 / 2, 2: NAN},
    "abilities.action_rate": {0: 0.75, 2: 1.0, 7: NAN},
    "regen.total": {2: 4, 0: 0},
    "regen.ticks": {2: 1},
    "regen.team": {0: 4, 1: 0},
    "regen.combat_ticks": {0: 3, 2: 2, 7: 0},
    "regen.combat_resets": {0: 4, 2: 3, 5: 3, 7: 0},
    "regen.share": {2: 1, 0: 0, 5: NAN},
    "respawn.count": {7: 1, 6: 0},
    "respawn.dead_ticks": {7: 2, 6: 0},
    "respawn.team_dead_ticks": {0: 0, 1: 2},
    "respawn.shield_ticks": {7: 2},
    "respawn.waves": {0: 1, 1: 1},
    "respawn.mean_wait": {7: NAN},
    "movement.distance": {0: 0.5, 1: 1.0, 2: 1.0, 7: 4.0},
    "movement.walked": {1: 0.0, 7: 4.0},
    "movement.mean_speed": {0: 0.125, 7: 2.0},
    "movement.still_ticks": {0: 2, 1: 2, 2: 3, 5: 3, 6: 4, 7: 0},
    "movement.stay_orders": {0: 3, 1: 4, 2: 3, 7: 0},
    "movement.team_distance": {0: 2.5, 1: 4.0},
    "positioning.nearest_ally": {0: 0.875},
    "positioning.alone_ticks": {7: 2, 0: 0},
    "positioning.team_alone_ticks": {0: 0, 1: 2},
    "positioning.pair_distance": {(0, 1): 1.625, (5, 6): math.sqrt(5)},
    "positioning.pair_close": {(0, 1): 3, (1, 2): 1},
    "positioning.depth": {0: 7.875, 7: 2.5},
    "positioning.enemy_half_ticks": {6: 4, 1: 0, 5: 0},
    "positioning.team_spread": {0: (10 / 9 + 2 / 3 + 10 / 9 + 11 / 9) / 4},
    "exposure.seen_ticks": {0: 4, 5: 4, 7: 0},
    "exposure.mean_watchers": {0: 2, 5: 3, 7: 0},
    "exposure.hit_unseen": {0: 0, 6: 0},
    "exposure.team_seen_ticks": {0: 4, 1: 4},
    "red_zone.own_ticks": {7: 2, 5: 0},
    "red_zone.enemy_ticks": {7: 0},
    "red_zone.team_own_ticks": {0: 0, 1: 2},
    "red_zone.kills": {0: 0},
    "vision.seen": {(0, 5): 4, (0, 7): 0, (5, 0): 4, (7, 0): 0},
    "vision.relayed": {(7, 0): 2, (7, 2): 2, (6, 0): 0},
    "vision.enemies_seen": {0: 2, 5: 3, 7: 0},
    "vision.relay_gain": {7: 2, 6: 0},
    "vision.team_coverage": {0: 10 / 12, 1: 1},
    "vision.first_contact": {0: 0, 1: 0},
    "legality.rejected_combat": {5: 1, 6: 0},
    "legality.fallbacks": {7: 1},
    "legality.acceptance": {5: 0.75, 0: 1},
    "legality.team_rejections": {0: 0, 1: 1},
    "legality.team_fallbacks": {1: 1},
    "teamwork.shared_kills": {(0, 1): 1, (1, 0): 1, (5, 6): 0},
    "teamwork.followups": {(6, 5): 1, (5, 6): 1, (0, 1): 0},
    "teamwork.covered_ticks": {0: 3, 1: 3, 2: 4, 5: 0},
    "teamwork.team_together_ticks": {0: 4, 1: 2},
    "tempo.first_blood_tick": {(-1, -1): 3},
    "tempo.first_blood_team": {(-1, -1): 0},
    "tempo.damage_per_tick": {0: R_DEALT_A / 4, 1: R_DEALT_B / 4},
    "tempo.kills_first_half": {0: 0},
    "tempo.kills_second_half": {0: 1, 1: 0},
    "tempo.longest_quiet": {(-1, -1): 0},
}


@pytest.fixture(scope="module")
def full():
    return compute_metrics(hand_game(), "full")


def _lookup(frame: pl.DataFrame) -> dict:
    return {
        (m, s, t): v for m, s, t, v in frame.select("metric", "source", "target", "value").rows()
    }


def test_every_topic_has_hand_computed_checks():
    assert {m.split(".")[0] for m in EXPECTED} == set(TOPICS)


@pytest.mark.parametrize("metric", sorted(EXPECTED))
def test_hand_computed(full, metric):
    table = _lookup(full)
    for key, want in EXPECTED[metric].items():
        source, target = key if isinstance(key, tuple) else (key, -1)
        got = table[(metric, source, target)]
        assert got == pytest.approx(want, rel=1e-5, abs=1e-5, nan_ok=True), (metric, key)


def test_rows_exist_only_for_active_slots_and_classes(full):
    slots = set(full["source"].to_list()) | set(full["target"].to_list())
    assert slots == {-1, 0, 1, 2, 5, 6, 7}
    priests = full.filter(pl.col("metric") == "priest.efficiency")["source"].to_list()
    assert priests == [2, 7]
    pairs = full.filter(pl.col("metric") == "damage.pair_raw")
    assert pairs.height == 18  # 3 x 3 enemy pairs each way


def test_fixture_health_bookkeeping():
    """The hand game obeys RULES 4: h' = h + realised heal - realised damage + regen."""
    g = hand_game()
    s, e = g["states"], g["events"]
    change = e["heal_realised"].sum(1) - e["damage_realised"].sum(1) + e["regen"]
    alive = s["alive"][:-1] & ~e["respawned"]
    want = np.where(alive, s["health"][:-1] + change, s["health"][1:])
    assert np.allclose(want, s["health"][1:], atol=1e-4)
