"""The most points a team can still score, from the respawn rules (RULES 4.2, example 7.10)."""

import signal

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.types import Config
from ui.score_reach import cannot_win, most_deaths, most_points

RULES = Config()  # wave period 5, spawn shield 3, score to win 20


@pytest.mark.parametrize(
    ("alive", "shield", "clock", "ticks", "deaths"),
    [
        # example 7.10, agent X: dies on tick 2 (clock 2), back in state 5 shielded, can die
        # again on tick 8: the 7th tick counted from tick 2
        (True, 0, 2, 6, 1),
        (True, 0, 2, 7, 2),
        # agent Y: dies on tick 4, the wave's own tick (clock 0), waits for tick 9's wave, back
        # in state 10, can die on tick 13: the 10th tick from tick 4
        (True, 0, 0, 9, 1),
        (True, 0, 0, 10, 2),
        (True, 2, 4, 2, 0),  # shielded for both ticks
        (True, 2, 4, 3, 1),
        # dead: back in tick 1's wave (clock 1 now), shielded on ticks 2-4, dies on tick 5
        (False, 0, 1, 6, 1),
        (False, 0, 1, 5, 0),
        (True, 0, 3, 0, 0),
    ],
)
def test_most_deaths_follows_the_wave_and_shield(alive, shield, clock, ticks, deaths):
    assert most_deaths(alive, shield, clock, ticks, 5, 3) == deaths


def _state(score=(0, 0), alive_b=5, shield_b=0, clock_b=4):
    active = np.ones(10, bool)
    alive = np.ones(10, bool)
    alive[5 + alive_b :] = False
    shield = np.zeros(10, np.int32)
    shield[5:] = shield_b
    return {"score": np.array(score), "active": active, "alive": alive, "shield": shield,
            "wave_clock": np.array([4, clock_b])}  # fmt: skip


def test_zero_all_twenty_to_win_in_five_ticks_cannot_be_won():
    state = _state()
    assert most_points(state, 0, 5, RULES) == 10  # each of 5 enemies dies once, 2 points each
    assert cannot_win(state, 0, 5, RULES) == (
        "Cannot be won: in 5 ticks Team A can score at most 10 more points (0 + 10 < 20 to win)"
    )
    assert cannot_win(_state(score=(10, 0)), 0, 5, RULES) == ""  # 10 + 10 reaches 20
    assert most_points(state, 0, 10, RULES) == 20  # a wave at tick 4, killable again on tick 8
    assert most_points(_state(alive_b=2), 0, 1, RULES) == 4  # the dead cannot die
    assert cannot_win(_state(score=(19, 0), shield_b=3), 0, 3, RULES).startswith(
        "Cannot be won: in 3 ticks Team A can score at most 0 more"
    )  # every enemy is shielded for all three ticks
    b = cannot_win(_state(score=(0, 0)), 1, 1, RULES)  # Team B's enemies are A's five
    assert b.startswith("Cannot be won: in 1 tick Team B can score at most 10 more points")


def _deaths_tick_by_tick(alive, shield, clock, ticks, period, shield_ticks):
    """The greedy timeline stepped one tick at a time (RULES 4 steps 14-15): the oracle."""
    deaths = 0
    for _ in range(ticks):
        wave = clock == 0
        if alive and shield == 0:
            deaths, alive = deaths + 1, False
        elif alive:
            shield -= 1
        elif wave:
            alive, shield = True, shield_ticks
        clock = period - 1 if wave else clock - 1
    return deaths


@settings(max_examples=200, deadline=None)
@given(
    alive=st.booleans(),
    period=st.integers(1, 8),
    shield_ticks=st.integers(0, 9),
    data=st.data(),
    ticks=st.integers(0, 200),
)
def test_skipping_repeats_matches_stepping_every_tick(alive, period, shield_ticks, data, ticks):
    shield = data.draw(st.integers(0, shield_ticks)) if alive else 0
    clock = data.draw(st.integers(0, period - 1))
    assert most_deaths(alive, shield, clock, ticks, period, shield_ticks) == (
        _deaths_tick_by_tick(alive, shield, clock, ticks, period, shield_ticks)
    )


def _within_seconds(seconds, fn, *args):
    """fn(*args), or a failure (not a hang) when it runs longer than `seconds`."""

    def stop(*_):
        raise TimeoutError(f"{fn.__name__} ran over {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        return fn(*args)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_a_twenty_digit_horizon_is_answered_at_once():
    # Typed into the save-position form's Horizon box, this used to step 10**20 ticks in the
    # UI thread and freeze the BattleClient. Example 7.10's agent X dies on ticks 0 and 6 of
    # the count, then every wave period (5): 2 + (N - 7) // 5 deaths in N ticks.
    n = 10**18
    assert _within_seconds(5, most_deaths, True, 0, 2, n, 5, 3) == 2 + (n - 7) // 5
    assert _within_seconds(5, cannot_win, _state(), 0, 10**20, RULES) == ""
