"""Scenario games in shared batches equal the per-scenario path, game for game, tick for tick."""

import numpy as np
import pytest

from evaluation import scenario_batch as B
from evaluation import scenario_lines as L
from evaluation import scenarios as S


def _old_path(scenario, spec, seeds):
    lineup = L.scenario_lineup(scenario, spec)
    rollouts = [L.start_rollout(scenario, lineup, seed) for seed in seeds]
    return L.play_games(scenario, lineup, rollouts, record=True, seeds=seeds)


def _assert_same(new, old, where):
    fields = ("solved", "outcome", "ticks", "score", "first_death")
    assert [getattr(new, f) for f in fields] == [getattr(old, f) for f in fields], where
    for part in ("states", "events"):
        a, b = getattr(new.replay, part), getattr(old.replay, part)
        assert a.keys() == b.keys(), where
        for name in b:
            np.testing.assert_array_equal(a[name], b[name], err_msg=f"{where} {part}.{name}")
    np.testing.assert_array_equal(new.replay.visible, old.replay.visible, err_msg=where)
    np.testing.assert_array_equal(new.replay.relayed, old.replay.relayed, err_msg=where)
    a, b = dict(new.replay.header), dict(old.replay.header)
    a.pop("created"), b.pop("created")  # the wall-clock time the replay was built
    assert a == b, where


@pytest.mark.slow
def test_a_mixed_batch_plays_the_games_of_the_per_scenario_path():
    # Scenarios 1 (focal A, 5 ticks) and 8 (focal B, 6 ticks, the random System second in
    # its lineup, so other keys) in one batch; one game padded; the tactician's own games
    # (deterministic) through the ten-slot bot that also plays the controller.
    one, eight = S.load_scenarios(["1", "8"])
    seeds = [3, 11]
    for spec, scenarios, game_seeds in (
        ("random", (one, eight), seeds),
        ("scripted:tactician", (eight,), [0]),
    ):
        entries = [B.entry(s, spec) for s in scenarios]
        games = [B.Game(e, seed, i) for e in entries for i, seed in enumerate(game_seeds)]
        played = list(B.play(spec, games, record=True, batch=5))
        assert [g for g, _ in played] == games
        for entry in entries:
            s = entry.scenario
            new = [p for g, p in played if g.entry is entry]
            for seed, a, b in zip(game_seeds, new, _old_path(s, spec, game_seeds), strict=True):
                _assert_same(a, b, (spec, s.id, seed))
