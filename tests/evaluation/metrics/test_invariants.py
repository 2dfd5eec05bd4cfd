"""Invariants of the metrics over random, rule-consistent games (randgame.py)."""

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaluation.metrics import PRIORITY, compute_metrics
from evaluation.metrics.catalog import METRICS
from tests.evaluation.metrics.randgame import random_game

FULL_ROSTER = [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]


@st.composite
def rosters(draw):
    """Team sizes 1-5 each (contiguous prefixes), classes 1-5."""
    roster = [0] * 10
    for base in (0, 5):
        for k in range(draw(st.integers(1, 5))):
            roster[base + k] = draw(st.integers(1, 5))
    return roster


games = st.builds(
    random_game,
    seed=st.integers(0, 2**31 - 1),
    roster=rosters(),
    ticks=st.integers(1, 40),
    threshold=st.integers(1, 8),
)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def values(frame: pl.DataFrame, metric: str) -> np.ndarray:
    """Values of one metric in row order (team, slot or pair order)."""
    return frame.filter(pl.col("metric") == metric)["value"].to_numpy().astype(np.float64)


@SETTINGS
@given(games)
def test_damage_dealt_by_a_equals_taken_by_b(game):
    frame = compute_metrics(game, "full")
    for stage in ("raw", "source", "recipient", "realised"):
        dealt = values(frame, f"damage.team_dealt_{stage}")
        taken = values(frame, f"damage.team_taken_{stage}")
        assert dealt == pytest.approx(taken[::-1], rel=1e-5, abs=1e-3)
        pair = values(frame, f"damage.pair_{stage}").sum()
        assert pair == pytest.approx(dealt.sum(), rel=1e-5, abs=1e-3)


@SETTINGS
@given(games)
def test_kills_agree_with_score(game):
    frame = compute_metrics(game, "full")
    kills = values(frame, "kills.team")
    assert np.array_equal(
        values(frame, "score.final"), kills + values(frame, "score.red_zone_bonus")
    )
    assert np.array_equal(kills, values(frame, "deaths.team")[::-1])
    assert values(frame, "kills.contributions").sum() >= kills.sum()  # every death has a killer
    single, shared = values(frame, "kills.team_single"), values(frame, "kills.team_shared")
    assert np.array_equal(single + shared, kills)


@SETTINGS
@given(games)
def test_realised_healing_never_exceeds_missing_health(game):
    s, e = game["states"], game["events"]
    maxhp = np.array([0, 80, 200, 100, 100, 100])[s["class_id"][0]]
    # health an ally could gain on each tick: missing at the start plus what damage removed
    room = maxhp - s["health"][:-1] + e["damage_realised"].sum(1)
    healed = e["heal_realised"].sum(1)
    assert np.all(healed <= room + 1e-3)
    frame = compute_metrics(game, "full")
    received = values(frame, "healing.received_realised")
    active = np.flatnonzero(s["active"][0])
    assert np.all(received <= np.where(healed > 0, room, 0).sum(0)[active] + 1e-3)
    assert np.all(received <= values(frame, "healing.received_recipient") + 1e-3)
    assert np.all(values(frame, "healing.overheal_received") >= -1e-3)


@SETTINGS
@given(games)
def test_priority_values_equal_their_full_counterparts(game):
    full = compute_metrics(game, "full")
    priority = compute_metrics(game, "priority")
    assert priority.height == 16
    assert priority.equals(full.filter(pl.col("metric").is_in(list(PRIORITY))))


@SETTINGS
@given(games)
def test_values_are_finite_or_nan(game):
    frame = compute_metrics(game, "full")
    assert not np.isinf(frame["value"].to_numpy()).any()
    counts = frame.filter(pl.col("metric").str.ends_with("_ticks"))["value"].to_numpy()
    assert np.all((counts >= 0) & (counts <= game["events"]["lane"].shape[0] * 10))


def test_catalog_ids_equal_computed_ids_exactly():
    frame = compute_metrics(random_game(7, FULL_ROSTER, ticks=30), "full")
    computed = frame.select("topic", "metric").unique(maintain_order=True).rows()
    assert computed == [(m.topic, m.id) for m in METRICS]
