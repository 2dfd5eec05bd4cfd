"""The curriculum runner (training.curriculum_runner): stage advance on a window win rate or a
step budget, team_change flips, and no stage or pool ever drawing a held-out or scenario map;
validation selection (training.validation) on hand-made records."""

import json

import jax.numpy as jnp
import numpy as np
import pytest

from cli.main import main as mbg
from engine import curriculum as engine_curriculum
from engine.maps import split_of
from training import curriculum_runner as cr
from training import validation

TRAINING_SPLITS = ("curriculum", "train")


RULE = cr.AdvanceRule(win_rate=0.6, games=10)


def runner(rule=RULE, team_change=0):
    stages = cr.load_stages("builtin", (), (), 20)
    return cr.CurriculumRunner(stages, rule, team_change)


def test_builtin_curriculum_grows_from_1v1_to_5v5_on_maps_0_to_11():
    stages = cr.load_stages("builtin", (), (), 20)
    assert [s.name for s in stages] == ["1v1", "2v2", "3v3", "4v4", "5v5"]
    assert sorted(i for s in stages for i in s.map_ids) == list(range(12))
    assert stages[0].rosters[0] == "M/M" and stages[-1].rosters[0] == "MWHRP/MWHRP"
    assert [s.score_threshold for s in stages] == [5, 8, 12, 16, 20]


def test_window_win_rate_uses_the_fewest_latest_chunks_with_enough_games():
    window = np.zeros((cr.WINDOW_CHUNKS, 2))
    window[:3] = [(4, 5), (1, 4), (0, 6)]  # newest first
    assert cr.window_win_rate(window, 5) == pytest.approx(4 / 5)
    assert cr.window_win_rate(window, 6) == pytest.approx(5 / 9)
    assert cr.window_win_rate(window, 16) is None


def test_a_stage_advances_on_its_win_rate_and_only_then():
    run = runner()
    state = cr.initial_state()
    state, changed = run.after_chunk(state, wins=5, games=8, env_steps=100, trainer_steps=0)
    assert changed == "" and int(state.stage) == 0  # 8 games < 10: too few to judge
    state, changed = run.after_chunk(state, wins=1, games=4, env_steps=200, trainer_steps=0)
    assert changed == "" and int(state.stage) == 0  # 6 / 12 = 0.5 < 0.6
    state, changed = run.after_chunk(state, wins=7, games=10, env_steps=300, trainer_steps=0)
    assert changed == "stage" and int(state.stage) == 1 and int(state.stage_start) == 300
    assert float(np.asarray(state.window).sum()) == 0.0  # the new stage starts a new window
    assert run.stage(state).name == "2v2"
    assert set(np.asarray(run.pool(state).map_ids)[:2].tolist()) == {2, 3}


def test_a_stage_advances_on_its_budget_and_the_last_never_does():
    run = runner(cr.AdvanceRule(win_rate=2.0, games=1, budget=1000))
    state = cr.initial_state()
    for steps in (500, 999):
        state, changed = run.after_chunk(state, 10, 10, steps, 0)
        assert changed == ""
    stages = []
    for k in range(1, 8):
        state, _ = run.after_chunk(state, 10, 10, 1000 * k, 0)
        stages.append(int(state.stage))
    assert stages == [1, 2, 3, 4, 4, 4, 4]


def test_team_change_flips_which_roster_learns():
    stages = (cr.Stage("2v3", (0, 1), ("MW/MWH",), 8),)
    run = cr.CurriculumRunner(stages, cr.AdvanceRule(), team_change=100)
    state = cr.initial_state()
    assert np.asarray(run.pool(state).rosters)[0].tolist() == [1, 2, 0, 0, 0, 1, 2, 3, 0, 0]
    sides = []
    for total in (50, 120, 199, 200, 330):
        state, changed = run.after_chunk(state, 0, 0, total, trainer_steps=total)
        sides.append((int(state.side), changed))
    assert sides == [(0, ""), (1, "side"), (1, ""), (0, "side"), (1, "side")]
    assert np.asarray(run.pool(state).rosters)[0].tolist() == [1, 2, 3, 0, 0, 1, 2, 0, 0, 0]


@pytest.mark.parametrize("map_id", [*range(52), 900, 950, 999])
def test_no_stage_can_hold_a_held_out_or_scenario_map(map_id):
    if split_of(map_id) in TRAINING_SPLITS:
        assert cr.Stage("s", (map_id,), ("M/M",), 5).map_ids == (map_id,)
    else:
        with pytest.raises(ValueError, match="validation/test|scenario"):
            cr.Stage("s", (map_id,), ("M/M",), 5)


def test_stage_files_and_pools_draw_training_maps_only(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"stages": [
        {"name": "peek", "maps": "40-43", "team_sizes": [2], "score_threshold": 8}]}))  # fmt: skip
    with pytest.raises(ValueError, match=r"\[42, 43\] are validation/test maps"):
        cr.load_stages(str(bad), (), (), 20)
    with pytest.raises(ValueError, match="validation/test"):
        cr.load_stages("", ("validation",), ("MWHRP/MWHRP",), 20)
    for stage_list in (engine_curriculum.CURRICULUM,):
        run = cr.CurriculumRunner([cr.from_engine_stage(s) for s in stage_list], cr.AdvanceRule())
        for i in range(len(run.stages)):
            state = cr.initial_state()._replace(stage=jnp.int32(i))
            pool = run.pool(state)
            ids = np.asarray(pool.map_ids)[: int(pool.num_maps)]
            assert {split_of(int(m)) for m in ids} <= set(TRAINING_SPLITS)


def _record(out, steps, margin):
    policy = out / "validation" / f"policy_{steps}.msgpack"
    policy.parent.mkdir(parents=True, exist_ok=True)
    policy.write_bytes(f"policy {steps}".encode())
    return {"env_steps": steps, "policy": str(policy), "margin": margin, "by_opponent": {}}


def test_selection_picks_the_best_margin_and_never_overwrites(tmp_path, capsys):
    out = tmp_path / "run"
    out.mkdir()
    (out / "config.json").write_text("{}")
    checks = [_record(out, 100, 1.5), _record(out, 200, 4.0), _record(out, 300, 4.0),
              _record(out, 400, -2.0)]  # fmt: skip
    (out / validation.RECORDS).write_text("".join(json.dumps(c) + "\n" for c in checks))
    dest = tmp_path / "released" / "sp.msgpack"
    selection = validation.select_policy(out, dest)
    assert selection["selected"]["env_steps"] == 300  # the later of the two best
    assert dest.read_bytes() == b"policy 300"
    assert json.loads(dest.with_name("sp.selection.json").read_text())["checks"][1]["margin"] == 4.0
    assert dest.with_name("sp.config.json").read_text() == "{}"
    with pytest.raises(FileExistsError, match="sp.msgpack: exists"):
        validation.select_policy(out, dest)
    code = mbg(["train", "ippo", "--out", str(out), "--select", str(tmp_path / "cli.msgpack")])
    assert code == 0 and (tmp_path / "cli.msgpack").read_bytes() == b"policy 300"
    assert "300 env-steps, validation margin +4.00" in capsys.readouterr().out
    validation.forget_after(out, 250)  # a resume from env-step 250 redoes the later checks
    assert [c["env_steps"] for c in validation.read_checks(out)] == [100, 200]


def test_selection_refuses_a_run_without_checks(tmp_path):
    with pytest.raises(ValueError, match="no validation checks"):
        validation.select_policy(tmp_path, tmp_path / "x.msgpack")
    (tmp_path / validation.RECORDS).write_text('{"env_steps": 1}\n')
    with pytest.raises(ValueError, match="line 1: not a validation record"):
        validation.read_checks(tmp_path)
