"""The line finder (`evaluation.scenario_search.solve`) gives its first version's exhaustive report:
the same per-depth counts of joint actions, wins and games decided otherwise, first-tick rarity
and lines (the first line of each combat plan, in order). The expected figures were printed by
the first version (every child stepped, frozensets of first-tick roots) on a frozen copy of
scenario 1 "Hold the Trap" (start hash 9bdc072eb851, arena 905), so redesigns of the shipped
scenarios do not move them; the finder now steps 455 of the first version's 4,230 children
(`evaluation.search_probe`: one child per combat class and combat view, no move variants of a
decided class), so equal counts are a differential test of those reductions. The searches here
step 64-game batches, the first version 512: batching must not change the game."""

from pathlib import Path

import pytest

from evaluation import scenario_lines as L
from evaluation import scenario_search as Q
from evaluation import scenarios as S

FIXTURE = (
    Path(__file__).resolve().parents[1] / "fixtures" / "scenarios" / "hold_the_trap_finder.json"
)
NOTHING = "A1 Stay - none / A2 Stay - none"


def _depths(*rows):
    keys = ("depth", "frontier", "children", "wins", "decided_otherwise", "unique_open", "stepped")
    return [dict(zip(keys, row, strict=True)) for row in rows]


def _texts(report, scenario):
    out = []
    for table in report.lines.values():
        ticks = L.line_document("", table, scenario.focal_slots)["ticks"]
        out.append([" / ".join(f"{slot} {text}" for slot, text in t.items()) for t in ticks])
    return out


def _line(*a0):
    return [f"A0 {order} / {NOTHING}" for order in a0]


@pytest.fixture(scope="module")
def frozen():
    scenario = S.load_scenario(str(FIXTURE))
    assert scenario.start_hash.startswith("9bdc072eb851")
    return scenario


@pytest.mark.slow
def test_exhaustive_search_gives_the_first_versions_report(frozen):
    report = Q.solve(frozen, depth=3, chunk=Q.SMALL_CHUNK)
    assert report.exhaustive and not report.pruned_at and report.first_win_depth == 3
    assert report.depths == _depths(
        (1, 1, 18, 0, 0, 18, 20), (2, 18, 234, 0, 0, 234, 250), (3, 234, 3978, 288, 360, None, 185)
    )  # the first version: the same but 3,330 distinct open positions at depth 3 (not stepped now)
    assert (report.first_tick_winning, report.first_tick_actions) == (11, 18)
    assert _texts(report, frozen) == [
        _line("Stay - none", "Stay - none", "Stay B0 ult"),
        _line("Stay - none", "Stay B0 basic", "Stay B0 ult"),
        _line("E B0 basic", "Stay - none", "Stay B0 ult"),
        _line("E B0 basic", "Stay B0 basic", "Stay B0 basic"),
        _line("E B0 basic", "Stay B0 basic", "Stay B0 ult"),
    ]
    assert {Q._plan(t, frozen.focal_slots) for _, t in frozen.lines} <= set(report.lines)
    assert 0 < report.peak_rss_mib and 0 < report.seconds


@pytest.mark.slow
def test_pruned_searches_keep_the_hold_fire_lines(frozen):
    # Budget 100: depth 2 expands 6 of the 18 positions (taken in turn by score lead, focal HP,
    # closeness, stunned enemies and spread) and depth 3 probes 78 of 99. Both "hold" plans
    # (no hit on the first tick) are found; the first version's cut by score lead alone found
    # only one of them even at budget 1000 (with two that open with a Basic).
    report = Q.solve(frozen, depth=3, budget=100, chunk=Q.SMALL_CHUNK)
    assert not report.exhaustive and report.pruned_at == [(2, 18, 6), (3, 99, 78)]
    assert report.hidden_from == 3 and report.shortest_proven  # depths 1 and 2 in full
    assert report.depths == _depths(
        (1, 1, 18, 0, 0, 18, 20), (2, 18, 234, 0, 0, 99, 115), (3, 99, 1530, 81, 108, None, 99)
    )
    assert (report.first_tick_winning, report.first_tick_actions) == (3, 18)
    assert _texts(report, frozen) == [
        _line("Stay - none", "Stay - none", "Stay B0 ult"),
        _line("Stay - none", "Stay B0 basic", "Stay B0 ult"),
        _line("NE B0 basic", "S B0 basic", "Stay B0 basic"),
        _line("NE B0 basic", "S B0 basic", "Stay B0 ult"),
    ]
    # Budget 10: more children than the budget on the first tick, so only 10 of its 18
    # positions are stored (about `budget`); their probe on the second tick covers 81 joint
    # actions, one is expanded, and 8 positions (198 joint actions) are probed on the third.
    report = Q.solve(frozen, depth=3, budget=10, chunk=Q.SMALL_CHUNK)
    assert report.pruned_at == [(2, 18, 1), (3, 18, 8)] and report.first_win_depth is None
    assert report.hidden_from == 2  # 8 of depth 1's 18 children were not stored
    assert report.depths == _depths(
        (1, 1, 18, 0, 0, 18, 20), (2, 18, 81, 0, 0, 18, 27), (3, 18, 198, 0, 0, None, 10)
    )
    assert (report.first_tick_winning, report.lines) == (0, {})


def test_a_cut_at_or_after_the_winning_depth_hides_no_shorter_line():
    assert Q.SearchReport(first_win_depth=2, hidden_from=2).shortest_proven
    assert Q.SearchReport(first_win_depth=2).shortest_proven
    assert not Q.SearchReport(first_win_depth=3, hidden_from=2).shortest_proven
    assert not Q.SearchReport().shortest_proven  # no win found
    report = Q.SearchReport()
    Q._record_cut(report, 2, 243, 26, 3)  # an expansion cut on depth 2 hides depth 3 on
    Q._record_cut(report, 3, 900, 40, 3)  # a probe cut on depth 3 hides depth 3 on
    assert report.hidden_from == 3 and report.pruned_at == [(2, 243, 26), (3, 900, 40)]
    assert not report.exhaustive


@pytest.mark.slow
def test_cli_solve_reports_the_search_and_its_peak_memory(capsys, monkeypatch):
    import cli.train
    from cli.main import main

    monkeypatch.setattr(cli.train, "enable_compile_cache", lambda: None)  # keep the tests' cache
    assert main(["scenarios", "solve", str(FIXTURE), "--depth", "2", "--budget", "1000"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert (
        out[0].startswith("scenario 1 Hold the Trap (9bdc072eb851), ") and "MiB resident" in out[0]
    )
    assert out[1:] == [
        "  depth 1: 1 positions, 18 joint actions (20 stepped), 0 win, 0 decided otherwise, "
        "18 distinct open positions",
        "  depth 2: 18 positions, 234 joint actions (16 stepped), 0 win, 0 decided otherwise, "
        "open positions not counted (the last depth searched)",
        "search: exhaustive",
        "no winning line found",
    ]
