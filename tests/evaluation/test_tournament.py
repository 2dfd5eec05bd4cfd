"""evaluation/tournament*.py: the plan, seeds, resuming after a kill, the challenger, analysis.

Games here are short (horizon 24 ticks, 1 point wins) so that they cost little; the protocol
(pairs, seeds, parts) is the same as with the official rules.
"""

import json

import numpy as np
import polars as pl
import pytest

from evaluation import tournament as T
from evaluation import tournament_store as store
from evaluation.tournament_analysis import analyse, exact_spearman, holm
from evaluation.tournament_challenge import challenge_matchups, decide, open_challenge

RULES = {"horizon": 24, "score_threshold": 1}
ENTRANTS = {"rand": "random", "brawler": "scripted:brawler"}


def test_plan_publishes_a_seed_a_pair_and_swaps_ends():
    manifest = T.new_manifest("t", {"a": "random", "b": "random", "c": "random"}, "test", 6, 40)
    pairs = [(m["a"], m["b"], m["seed"]) for m in manifest["matchups"]]
    assert pairs == [("a", "b", 40), ("a", "c", 43), ("b", "c", 46)]  # G / 2 = 3 seeds each
    setups = T.matchup_setups(manifest, manifest["matchups"][1])
    assert [s.seed for s in setups] == [43, 43, 44, 44, 45, 45]
    assert [s.spawn_end for s in setups] == [0, 1] * 3
    assert [s.map.id for s in setups] == [47, 47, 48, 48, 49, 49]
    for first, second in (setups[0:2], setups[2:4]):  # mirrored, one of each class
        assert first.roster.tolist() == second.roster.tolist()
        assert sorted(first.roster[:5].tolist()) == [1, 2, 3, 4, 5]
        assert first.roster[:5].tolist() == first.roster[5:].tolist()
    assert T.batch_size(200, 2) == 100 and T.batch_size(7, 2) == 8 and T.batch_size(10, 1, 4) == 4


def test_bad_entrants_and_terms_are_named(tmp_path):
    with pytest.raises(ValueError, match="NAME=SPEC"):
        T.parse_entrants(["random"])
    with pytest.raises(ValueError, match="used twice"):
        T.parse_entrants(["a=random", "a=scripted:kiter"])
    with pytest.raises(ValueError, match="unknown kind 'nosuch'"):
        T.parse_entrants(["a=nosuch"])
    with pytest.raises(ValueError, match="even number"):
        T.new_manifest("t", ENTRANTS, "test", 3, 0)
    T.open_tournament(tmp_path / "x", ENTRANTS, "test", 4, 0, RULES)
    with pytest.raises(ValueError, match="games_per_pair is 4, this command asks for 6"):
        T.open_tournament(tmp_path / "x", ENTRANTS, "test", 6, 0, RULES)
    # Bad rules are refused before a manifest exists, so the folder takes the corrected command.
    with pytest.raises(ValueError, match=r"Config.horizon: 0 is out of range"):
        T.open_tournament(tmp_path / "y", ENTRANTS, "test", 4, 0, {"horizon": 0})
    assert not (tmp_path / "y" / store.MANIFEST).exists()
    T.open_tournament(tmp_path / "y", ENTRANTS, "test", 4, 0, RULES)


def test_an_entrant_that_cannot_be_built_leaves_no_manifest(tmp_path):
    """An unknown bot or a missing policy file is named with its entrant before the manifest
    is written: a manifest would fix the folder's plan and refuse the corrected command."""
    folder = tmp_path / "season"
    bad = {"rand": "random", "b": "scripted:nosuch"}
    with pytest.raises(ValueError, match=r"entrant 'b=scripted:nosuch': scripted bot 'nosuch'"):
        T.open_tournament(folder, bad, "test", 4, 0, RULES)
    missing = {"rand": "random", "mine": f"checkpoint:{tmp_path / 'none.msgpack'}"}
    with pytest.raises(ValueError, match=r"entrant 'mine=checkpoint:.*no such policy file"):
        T.open_tournament(folder, missing, "test", 4, 0, RULES)
    assert not (folder / store.MANIFEST).exists()
    assert T.open_tournament(folder, ENTRANTS, "test", 4, 0, RULES)["entrants"] == ENTRANTS
    with pytest.raises(ValueError, match=r"entrant 'k=scripted:kiterr': scripted bot"):
        open_challenge(folder, "k=scripted:kiterr")
    assert "k" not in store.read_manifest(folder)["entrants"]


def test_games_of_other_rules_are_never_mixed(tmp_path):
    from engine.constants import RULES_VERSION

    manifest = T.open_tournament(tmp_path / "x", ENTRANTS, "test", 4, 0, RULES)
    assert manifest["rules_version"] == RULES_VERSION
    old = dict(manifest, rules_version="1")  # a field recorded under the first rules
    store.write_manifest(tmp_path / "x", old)
    with pytest.raises(ValueError, match="rules_version is '1', this command asks for"):
        T.open_tournament(tmp_path / "x", ENTRANTS, "test", 4, 0, RULES)
    with pytest.raises(ValueError, match="played under rules version '1'; this engine runs"):
        open_challenge(tmp_path / "x", "k=scripted:kiter", seed=5)


class Killed(Exception):
    pass


def _run(folder, options, stop_after=None):
    manifest = T.open_tournament(folder, ENTRANTS, "test", 8, 5, RULES)
    calls = []

    def on_games(count):
        calls.append(count)
        if stop_after is not None and len(calls) == stop_after:
            raise Killed  # a kill between two batches: whole parts only

    T.play_matchups(folder, manifest, manifest["matchups"], options, on_games)
    return store.merge(folder)


def test_a_killed_run_resumes_to_the_same_table(tmp_path):
    options = T.Options(batch=4)
    whole = _run(tmp_path / "season", options)
    assert whole.height == 8 and whole["game"].to_list() == list(range(8))
    assert whole["seed"].to_list() == [5, 5, 6, 6, 7, 7, 8, 8]
    assert set(whole["winner"]) <= {"A", "B", "draw"}
    killed = tmp_path / "again" / "season"
    with pytest.raises(Killed):
        _run(killed, options, stop_after=1)
    assert store.read_results(killed).height == 4
    (killed / store.PARTS / ".part-p00-m0000-g00004.parquet.x.tmp").write_bytes(b"half")
    resumed = _run(killed, options)
    assert len(list((killed / store.PARTS).glob("part-*.parquet"))) == 2
    assert resumed.equals(whole)  # no game lost, repeated or changed
    assert T.play_matchups(killed, json.loads((killed / "manifest.json").read_text()),
                           [], options)[0] == 0  # fmt: skip


def test_the_challenger_plays_the_field_and_the_manifest_keeps_history(tmp_path):
    folder = tmp_path / "field"
    _run(folder, T.Options(batch=4))
    manifest, challenge = open_challenge(folder, "r2=random", seed=900)
    again, same = open_challenge(folder, "r2=random")  # resuming finds it
    assert same["seed"] == 900 and again["matchups"] == manifest["matchups"]
    with pytest.raises(ValueError, match="challenged before as 'random'"):
        open_challenge(folder, "r2=scripted:kiter")
    with pytest.raises(ValueError, match="'rand' already played in this field"):
        open_challenge(folder, "rand=scripted:kiter")
    games = challenge_matchups(manifest, challenge)
    assert [(m["a"], m["b"], m["seed"]) for m in games] == [
        ("r2", "rand", 900), ("r2", "brawler", 904)
    ]  # fmt: skip
    T.play_matchups(folder, manifest, games, T.Options(batch=4))
    from evaluation.rating import fit_ratings

    table = store.merge(folder)
    assert table.height == 24
    ratings = fit_ratings(table, interval="fisher")
    elo = dict(zip(ratings.entrants, ratings.elo, strict=True))
    record = decide(folder, manifest, challenge, ratings)
    lowest = min(("rand", "brawler"), key=elo.get)
    assert record["lowest"] == lowest
    saved = store.read_manifest(folder)
    events = [(h["event"], h["name"]) for h in saved["history"]]
    assert events[:3] == [("entered", "rand"), ("entered", "brawler"), ("challenged", "r2")]
    if elo["r2"] > elo[lowest]:
        assert record["replaced"] == lowest and events[3:] == [
            ("left", lowest),
            ("entered", "r2"),
        ]
        assert sorted(saved["field"]) == sorted({"rand", "brawler", "r2"} - {lowest})
    else:
        assert record["replaced"] is None and events[3:] == [("not admitted", "r2")]
    assert set(saved["entrants"]) == {"rand", "brawler", "r2"}  # who ever played stays


def test_exact_permutation_p_and_holm_by_hand():
    rho, p = exact_spearman([1, 2, 3, 4, 5], [10, 20, 30, 40, 50])
    assert rho == pytest.approx(1.0) and p == pytest.approx(2 / 120)  # 2 of 5! pairings
    rho, p = exact_spearman([1, 2, 3, 4, 5], [2, 1, 3, 4, 5])
    assert rho == pytest.approx(0.9)
    assert p == pytest.approx(10 / 120)  # |rho| >= 0.9: identity, one swap, and their mirrors
    np.testing.assert_allclose(holm([0.01, 0.04, 0.03]), [0.03, 0.06, 0.06])


def test_analysis_means_each_entrants_own_team_values():
    rows = []
    strengths = {"a": 1.0, "b": 2.0, "c": 3.0, "d": 4.0, "e": 5.0}
    names = list(strengths)
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            rows.append({"entrant_a": x, "entrant_b": y, "a__deaths": -strengths[x],
                         "b__deaths": -strengths[y], "a__flat": 1.0, "b__flat": 1.0})  # fmt: skip
    elo = {n: 1000 + 100 * s for n, s in strengths.items()}
    result = analyse(pl.DataFrame(rows), elo)
    assert result.skipped == ["flat"]
    row = result.table.row(0, named=True)
    assert row["measure"] == "deaths" and row["rho"] == pytest.approx(-1.0)
    assert row["p_exact"] == pytest.approx(2 / 120) and row["p_holm"] == pytest.approx(2 / 120)
    assert result.per_entrant["c"]["deaths"] == pytest.approx(-3.0)


@pytest.mark.slow
def test_replays_and_metrics_ride_along_and_change_no_game(tmp_path):
    plain = _run(tmp_path / "plain" / "season", T.Options(batch=4))
    folder = tmp_path / "full" / "season"
    table = _run(folder, T.Options(batch=4, replays=True, metrics="priority"))
    assert table.select(store.RESULT_COLUMNS).equals(plain.select(store.RESULT_COLUMNS))
    assert {"a__score.final", "b__score.final"} <= set(table.columns)
    assert table["a__score.final"].to_list() == [float(s) for s in table["score_a"]]
    replays = sorted(p.name for p in (folder / "replays").glob("*.mbgr"))
    assert len(replays) == 8 and replays[0] == "m0000_g0000_seed5.mbgr"
    from evaluation.replay import read_header

    header = read_header(folder / "replays" / replays[3])
    assert header["seeds"]["game"] == 6 and header["result"]["score"] == [
        table["score_a"][3], table["score_b"][3]
    ]  # fmt: skip


def test_a_finished_matchups_compiled_programs_are_freed(tmp_path, monkeypatch):
    """One batch per matchup: the programs are freed after every matchup. With two batches a
    matchup (rounds), nothing is freed until the last round, when the last lineup finishes."""
    entrants = {"a": "random", "b": "random", "c": "random"}
    freed, played = [], []
    monkeypatch.setattr(T, "forget_compiled", lambda: freed.append(list(played)))

    def fake_play(config, lineup, setups, size):
        played.append(len(setups))
        return [{"winner": "draw"} for _ in setups]

    monkeypatch.setattr(T, "play_sharded", fake_play)
    monkeypatch.setattr(T, "game_row", lambda manifest, matchup, setup, row: {"game": setup.index})
    monkeypatch.setattr(store, "write_part", lambda *args: None)
    for batch, expected in ((None, [[4], [4, 4], [4, 4, 4]]), (2, [[2] * 6])):
        freed.clear(), played.clear()
        manifest = T.new_manifest("t", entrants, "test", 4, 0, RULES)
        items = T.work_items(manifest, manifest["matchups"], set(), batch, 1)
        assert T.play_items(tmp_path, manifest, items, T.Options(batch=batch)) == 12
        assert freed == expected
