"""Cross-play: matched games equal `play_match`, an identical stranger costs exactly zero,
spacing is the hand-computed mean teammate distance, and a killed run resumes to the same table."""

import numpy as np
import polars as pl
import pytest

from engine import constants as C
from evaluation import crossplay, crossplay_report, crossplay_run
from evaluation.match import play_match, schedule
from policies.random_system import random_system
from policies.slotspec import register_kind, resolve_slots
from policies.system import as_system, noop_actions

MAP = "47"  # one test map keeps every game cheap


def _idle(obs, masks, carry, key):
    return noop_actions(obs.mask.move.shape[:-2]), carry


register_kind("idle", lambda arg, slots: as_system(_idle, name="idle"), "idle")
register_kind("dice", lambda arg, slots: random_system(f"dice:{arg}"), "dice:NAME")


def _plan(**changes) -> crossplay.Plan:
    terms = dict(
        teams={"rnd": "random"},
        strangers={"same": "random", "other": "dice:x"},
        opponents={"idle": "idle"},
        maps=MAP,
        pairs=1,
    )
    return crossplay.Plan(**(terms | changes))


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("xp") / "run"
    crossplay_run.run(out, _plan())
    return out


def test_owners_table_gives_the_replaced_positions_to_the_stranger():
    owners = crossplay.owners_table(3, 2, (1, 3))
    expected = np.zeros((3, C.NUM_SLOTS), bool)
    expected[0, [0, 2, 4]] = True
    expected[1, 5:] = True
    expected[2, [1, 3]] = True
    np.testing.assert_array_equal(owners, expected)
    np.testing.assert_array_equal(crossplay.owners_table(3, None, ())[0], [True] * 5 + [False] * 5)


def test_class_sets_are_every_k_subset_of_the_team():
    roster = np.array([1, 2, 3, 4, 5, 1, 2, 3, 4, 5])
    assert len(crossplay.class_sets(roster, 1)) == 5
    assert len(crossplay.class_sets(roster, 2)) == 10
    assert crossplay.positions_of(np.array([3, 1, 5, 2, 4] * 2), (1, 4)) == (1, 4)
    with pytest.raises(ValueError, match="fewer than 3 classes"):
        crossplay.class_sets(np.array([1, 1, 2, 0, 0] * 2), 3)


def test_plan_refuses_bad_fields():
    with pytest.raises(ValueError, match="replace 5"):
        _plan(replace=5).check()
    with pytest.raises(ValueError, match="strangers is empty"):
        _plan(strangers={}).check()


def test_spacing_is_the_mean_distance_to_living_teammates():
    pos = np.zeros((3, C.NUM_SLOTS, 2), np.float32)
    alive = np.zeros((3, C.NUM_SLOTS), bool)
    pos[:, 1] = (3.0, 4.0)  # A1 is 5 units from A0
    pos[:, 2] = (6.0, 8.0)  # A2 is 10 from A0, 5 from A1
    alive[0, :3] = True  # tick 0: A0, A1, A2 alive
    alive[1, :2] = True  # tick 1: A2 dead
    alive[2, :] = True  # the final state is not a decision tick: ignored
    sums = crossplay.replay_spacing(pos, alive)
    np.testing.assert_allclose(sums[0], [(5 + 10) / 2 + 5, 2])
    np.testing.assert_allclose(sums[1], [(5 + 5) / 2 + 5, 2])
    np.testing.assert_allclose(sums[2], [(10 + 5) / 2, 1])
    np.testing.assert_array_equal(sums[3:], 0.0)  # no living teammate, or dead


def test_matched_games_equal_play_match(folder):
    results = crossplay_run.read_parts(folder)
    matched = results.filter(pl.col("stranger") == "").sort("game")
    setups = schedule(MAP, ["MWHRP"], 2, 0)
    direct = play_match(resolve_slots("A*=random,B*=idle"), setups, mode="batch", batch=2)
    assert matched["margin"].to_list() == (direct["score_a"] - direct["score_b"]).to_list()
    assert matched["ticks"].to_list() == direct["ticks"].to_list()


def test_a_stranger_with_the_teams_own_spec_costs_exactly_zero(folder):
    cost = crossplay_report.cost_table(crossplay_run.read_parts(folder))
    same = cost.filter(pl.col("stranger") == "same")
    assert same.height == 5 and same["cost"].to_list() == [0.0] * 5
    other = cost.filter(pl.col("stranger") == "other")
    assert other.height == 5 and other["cost"].abs().sum() > 0  # its own dice change games


def test_batched_spacing_equals_the_recorded_game(folder):
    plan = _plan()
    lineup, index = crossplay.build_cast(plan, "rnd", "idle")
    game = crossplay.block_games(plan, "rnd")[-1]  # a mixed game with the "other" stranger
    owners = crossplay.owners_table(len(lineup.systems), index[game.stranger], game.positions)
    from dataclasses import replace

    from engine.types import Config
    from evaluation.match import host_game

    state, trace, _ = host_game(Config(), replace(lineup, owners=owners), game.setup, True)
    recorded = crossplay.replay_spacing(trace["states"]["pos"], trace["states"]["alive"])
    ((row, sums),) = crossplay.play_games(Config(), lineup, index, [game], 1)
    assert row["score_a"] == int(state.score[0]) and row["ticks"] == int(state.tick)
    np.testing.assert_allclose(sums, recorded, rtol=1e-5)


def test_matrix_diagonal_is_the_matched_games(folder):
    results = crossplay_run.read_parts(folder)
    table = crossplay_report.matrix(results)
    diagonal = table.filter(pl.col("team") == pl.col("stranger")).row(0, named=True)
    matched = results.filter(pl.col("stranger") == "")
    assert diagonal["margin_mixed"] == pytest.approx(matched["margin"].mean())
    assert diagonal["cost"] == 0.0 and diagonal["games"] == matched.height


def test_a_killed_run_resumes_to_the_same_table(folder, tmp_path):
    out = tmp_path / "resumed"

    class Killed(Exception):
        pass

    def kill(_count):
        raise Killed

    with pytest.raises(Killed):
        crossplay_run.run(out, _plan(), batch=4, on_games=kill)
    assert len(list((out / "results").glob("part-*"))) == 1
    crossplay_run.run(out, _plan(), batch=4)
    resumed, whole = crossplay_run.read_parts(out), crossplay_run.read_parts(folder)
    spacing = [c for c in whole.columns if c.startswith("spacing_sum_")]
    assert resumed.drop(spacing).equals(whole.drop(spacing))  # the same games, exactly
    # Batches of 4 and of 22 vectorise the float32 distance sums differently (last ulp).
    np.testing.assert_allclose(resumed.select(spacing), whole.select(spacing), rtol=1e-6)


def test_a_folder_of_another_plan_is_refused(folder):
    with pytest.raises(ValueError, match="manifest.json: plan.pairs is 1, this command asks for 2"):
        crossplay_run.run(folder, _plan(pairs=2))


def test_cost_and_stray_on_a_hand_made_table():
    base = {"team": "t", "opponent": "o", "map_id": 47, "spawn_end": 0, "roster": "MWHRP/MWHRP"}
    spacing = {f"spacing_sum_{p}": 10.0 for p in range(5)} | {
        f"spacing_ticks_{p}": 5 for p in range(5)
    }  # home spacing 2.0 for every class
    rows = []
    for seed, (matched, mixed) in enumerate([(4, 1), (2, 1), (0, -3)]):
        rows.append(
            base
            | spacing
            | {
                "seed": seed,
                "stranger": "",
                "classes": "",
                "positions": "",
                "margin": matched,
                "result": 1.0,
            }
        )
        far = spacing | {"spacing_sum_0": 20.0}  # the stranger in position 0 stands at 4.0
        rows.append(
            base
            | far
            | {
                "seed": seed,
                "stranger": "s",
                "classes": "M",
                "positions": "0",
                "margin": mixed,
                "result": 0.0,
            }
        )
    results = pl.DataFrame(rows)
    cost = crossplay_report.cost_table(results).row(0, named=True)
    assert cost["cost"] == pytest.approx((3 + 1 + 3) / 3)
    assert cost["win_rate_matched"] == 1.0 and cost["win_rate_mixed"] == 0.0
    stray = crossplay_report.stranger_spacing(results).row(0, named=True)
    assert (stray["stranger_spacing"], stray["home_spacing"], stray["stray"]) == (4.0, 2.0, 2.0)


def test_a_refused_plan_names_the_term_that_differs(tmp_path):
    crossplay_run.open_folder(tmp_path / "run", _plan())
    with pytest.raises(ValueError, match=r"manifest.json: plan.strangers is \{'same'"):
        crossplay_run.open_folder(tmp_path / "run", _plan(strangers={"same": "dice:y"}))
    with pytest.raises(
        ValueError, match="manifest.json: plan.pairs is 1, this command asks for 2;"
    ):
        crossplay_run.open_folder(tmp_path / "run", _plan(pairs=2))
