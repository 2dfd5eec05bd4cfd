"""The shipped scenarios: every stored line wins, the controller's own play loses, mirrors agree."""

import copy
import dataclasses

import numpy as np
import pytest

from cli.main import main
from evaluation import scenario_lines as L
from evaluation import scenario_search as Q
from evaluation import scenarios as S
from evaluation.replay_verify import header_differences


@pytest.fixture(scope="module")
def shipped():
    return S.load_scenarios()


def test_the_shipped_scenarios_and_lines(shipped):
    # The paper's bar (seed 000, section 5.1): eight scenarios, nine lines, two in scenario 1.
    assert [s.id for s in shipped] == list(range(1, 9))
    assert sum(len(s.lines) for s in shipped) == 9
    skills = {s.skill for s in shipped}
    assert skills == {
        "teammate modelling",
        "opponent modelling",
        "sacrifice",
        "multi-step planning",
    }
    first = shipped[0]
    assert [len(table) for _, table in first.lines] == [3, 3]
    for s in shipped:
        assert s.arena.split == "scenario" and 5 <= s.horizon <= 10 and s.lines
        assert s.controller == S.DEFAULT_CONTROLLER


def test_every_line_wins_and_the_controller_loses_from_the_focal_side(shipped):
    for s in shipped:
        for name, played in L.verify(s):
            assert L.line_holds(s, name, played), (s.id, name, played)
        lineup = L.scenario_lineup(s, s.controller)
        (own,) = L.play_games(s, lineup, [L.start_rollout(s, lineup)])
        assert not own.solved, (s.id, own)


def test_together_they_use_every_class_ultimate_red_zone_and_wave(shipped):
    classes, ults, red_zone_kills, waves = set(), set(), 0, 0
    for s in shipped:
        classes |= {int(c) for c in np.asarray(s.start.class_id) if c}
        for _, table in s.lines:
            ults |= {int(s.start.class_id[slot]) for slot in np.flatnonzero(table[..., 2].any(0))}
        for _, played in L.verify(s, record=True):
            alive, score = played.replay.states["alive"], played.replay.states["score"]
            focal = s.focal_team
            for t in range(played.ticks):
                kills = int(np.sum(alive[t] & ~alive[t + 1]))
                foes = int(np.sum((alive[t] & ~alive[t + 1])[list(L.team_slots(1 - focal))]))
                gained = int(score[t + 1][focal] - score[t][focal])
                red_zone_kills += gained > foes and kills > 0  # 2 points a kill (RULES 1.6)
                waves += int(np.sum(~alive[t] & alive[t + 1]))  # a respawn (RULES 4.2)
    assert classes == set(range(1, 6)) and ults == set(range(1, 6))  # Burst to Holy Word
    assert red_zone_kills >= 2 and waves >= 2, (red_zone_kills, waves)


def _mirrored(doc: dict) -> dict:
    doc = copy.deepcopy(doc)
    doc["start"]["spawn_end"] = 1 - doc["start"]["spawn_end"]
    for agent in doc["start"]["agents"].values():
        if "pos" in agent:
            agent["pos"] = [20.0 - agent["pos"][0], agent["pos"][1]]
    return doc


def test_swapped_spawn_ends_give_the_mirrored_game(shipped):
    s = shipped[0]
    mirror = S.scenario_from_dict(_mirrored(s.doc), s.source)
    assert mirror.start_hash != s.start_hash
    plain = L.verify(s, record=True)
    flipped = L.verify(mirror, record=True)
    for (name, a), (_, b) in zip(plain, flipped, strict=True):
        assert a.solved and b.solved and a.ticks == b.ticks and a.score == b.score, name
        pa, pb = a.replay.states["pos"], b.replay.states["pos"]
        alive = a.replay.states["alive"]
        np.testing.assert_allclose(pa[..., 1][alive], pb[..., 1][alive], atol=1e-4)
        np.testing.assert_allclose(pa[..., 0][alive], 20.0 - pb[..., 0][alive], atol=1e-4)
        assert a.replay.header["scenario"]["start_hash"] == s.start_hash
        # `mbg replay verify` finds the arena's name and split (ids 900-999), not "custom"
        assert header_differences(a.replay) == header_differences(b.replay) == []
        assert a.replay.header["map"]["split"] == "scenario"
    # An edited scenario claim is caught like an edited score (scenarios/README.md).
    edited = copy.deepcopy(a.replay.header)
    edited["scenario"] |= {"solved": False, "start_hash": "0" * 64, "horizon": 9}
    found = header_differences(dataclasses.replace(a.replay, header=edited))
    assert [line.split(" says ")[0] for line in found] == [
        "header.scenario.start_hash",
        "header.scenario.horizon",
        "header.scenario.solved",
    ], found


def test_cli_list_validate_verify(capsys):
    assert main(["scenarios", "list"]) == 0
    out = capsys.readouterr().out
    assert "8 scenarios" in out
    assert main(["scenarios", "validate", "1", "2"]) == 0
    assert main(["scenarios", "verify", "1"]) == 0
    assert "2 of 2 lines win" in capsys.readouterr().out


def test_verify_names_every_broken_file_and_fails(tmp_path, capsys):
    truncated, listed = tmp_path / "truncated.json", tmp_path / "listed.json"
    truncated.write_text('{"format": 1, "id": ')
    listed.write_text("[1, 2]")
    assert main(["scenarios", "verify", str(truncated), str(listed)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out[:2]] == [f"FAIL {truncated}", f"FAIL {listed}"]
    assert out[2] == "0 of 0 lines win; 2 files did not load"


@pytest.mark.slow
def test_the_finder_finds_both_lines_of_scenario_1(shipped):
    s = shipped[0]
    report = Q.solve(s, depth=3)
    assert report.exhaustive and report.first_win_depth == 3
    plans = {Q._plan(table, s.focal_slots) for _, table in s.lines}
    assert plans <= set(report.lines)
    assert 0 < report.first_tick_winning < report.first_tick_actions


@pytest.mark.slow
def test_verify_systems_reruns_a_scenario_replay_on_its_arena(shipped, tmp_path):
    import dataclasses as dc

    from evaluation import scenario_run as R
    from evaluation.replay import read_replay
    from evaluation.replay_verify import systems_difference

    s = shipped[0]
    R.run_system(s, "scripted:kiter", 1, tmp_path)
    (path,) = tmp_path.iterdir()
    replay = read_replay(path)
    assert systems_difference(replay) is None  # arena 905 is found beside the scenarios
    header = copy.deepcopy(replay.header)
    header["systems"][5] = "random"  # the controller's slot B0
    assert "submit other actions" in systems_difference(dc.replace(replay, header=header))
