"""Matches: schedules, JAX and host Systems on one team, reproducibility, batch == host, CLI.

All games here use one short Config so the engine step compiles once for the whole file.
"""

import json
import sys
from pathlib import Path

import jax
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import constants as C  # noqa: E402
from engine.maps import load_map  # noqa: E402
from engine.types import ROW_DIM, Actions, Config  # noqa: E402
from evaluation.match import play_match, schedule, summary  # noqa: E402
from policies.slotspec import resolve_slots  # noqa: E402
from policies.system import as_system, lineup_from_mapping  # noqa: E402

CONFIG = Config(horizon=24, score_threshold=1)
RANDOM = "*=random"


def test_schedule_pairs_maps_ends_and_seeds():
    setups = schedule("47,48", ["MWHRP/MWHRP", "MW/HR"], games=10, seed=100)
    assert [s.map.id for s in setups] == [47, 47, 48, 48, 47, 47, 48, 48, 47, 47]
    assert [s.spawn_end for s in setups] == [0, 1] * 5
    assert [s.seed for s in setups] == [100, 100, 101, 101, 102, 102, 103, 103, 104, 104]
    assert [s.index for s in setups] == list(range(10))
    # the second roster comes in once both maps have had the first
    assert setups[3].roster.tolist() == [1, 2, 3, 4, 5] * 2
    assert setups[4].roster.tolist() == [1, 2, 0, 0, 0, 3, 4, 0, 0, 0]
    assert [s.spawn_end for s in schedule(47, games=3, swap_ends=False)] == [0, 0, 0]
    with pytest.raises(ValueError, match="at least 1"):
        schedule(47, games=0)


def test_random_rosters_are_mirrored_and_drawn_from_the_pair_seed():
    setups = schedule("validation", ["random"], games=6, seed=3)
    for s in setups:
        assert s.roster[:5].tolist() == s.roster[5:].tolist()
        assert sorted(s.roster[:5].tolist()) == [1, 2, 3, 4, 5]
    assert setups[0].roster.tolist() == setups[1].roster.tolist()
    again = schedule("validation", ["random"], games=6, seed=3)
    assert [s.roster.tolist() for s in setups] == [s.roster.tolist() for s in again]
    assert len({tuple(s.roster) for s in setups}) > 1


def _host_walker(log):
    """Host System: walks North with no target, and gives no answer on every 4th tick."""

    def act(obs, masks, carry, key):
        assert isinstance(obs.units, np.ndarray) and obs.units.shape == (10, 10, ROW_DIM)
        tick = int(obs.context[0, 0])
        log.append(tick)
        if tick % 4 == 3:
            return None, carry + 1
        heads = np.zeros((3, 10), np.int32)
        heads[0] = 1  # North
        return Actions(*heads), carry + 1

    return as_system(act, host=True, initial_carry=lambda: 0, name="walker")


def test_host_and_jax_systems_share_a_team():
    log = []
    walker = _host_walker(log)
    rand = resolve_slots(RANDOM).systems[0]
    lineup = lineup_from_mapping({0: walker, **{s: rand for s in range(1, 10)}})
    traces = []
    setup = schedule(47, games=1, seed=5)
    results = play_match(
        lineup, setup, CONFIG, record=True, on_game=lambda s, r, t: traces.append(t)
    )
    ticks = results["ticks"][0]
    assert log == list(range(ticks))  # asked once a tick, in order
    events = traces[0]["events"]
    answered = np.arange(ticks) % 4 != 3
    assert events["fallback"][:, 0].tolist() == (~answered).tolist()
    assert not events["fallback"][:, 1:].any()
    # slot 0 submitted North when it answered and the no-op when it did not
    assert events["submitted"][answered, 0].tolist() == [[1, 0, 0]] * int(answered.sum())
    assert events["submitted"][~answered, 0].tolist() == [[0, 0, 0]] * int((~answered).sum())
    # the random teammates moved about under their own keys
    assert len(np.unique(events["submitted"][:, 1:5, 0])) > 3


def test_matches_reproduce_from_their_seed_and_batch_equals_host():
    lineup = resolve_slots(RANDOM)
    setups = schedule(47, ["MW/HR"], games=2, seed=11)
    runs = {}
    for mode in ("host", "batch", "host"):
        traces = []
        results = play_match(
            lineup, setups, CONFIG, record=True, mode=mode,
            on_game=lambda s, r, t, keep=traces: keep.append(t),
        )  # fmt: skip
        runs.setdefault(mode, []).append((results, traces))
    (first, t1), (second, t2) = runs["host"]
    (batch, tb) = runs["batch"][0]
    assert first.equals(second) and first.equals(batch)
    for a, b in ((t1, t2), (t1, tb)):
        for game_a, game_b in zip(a, b, strict=True):
            for group in ("states", "events"):
                for name, values in game_a[group].items():
                    assert np.array_equal(values, game_b[group][name]), (group, name)
            assert np.array_equal(game_a["visible"], game_b["visible"])
            assert np.array_equal(game_a["relayed"], game_b["relayed"])
    other = []
    play_match(lineup, schedule(47, ["MW/HR"], games=1, seed=12), CONFIG, record=True,
               on_game=lambda s, r, t: other.append(t))  # fmt: skip
    assert not np.array_equal(other[0]["events"]["submitted"], t1[0]["events"]["submitted"])


def test_batch_mode_refuses_host_systems():
    lineup = lineup_from_mapping({s: _host_walker([]) for s in range(10)})
    with pytest.raises(ValueError, match="needs JAX Systems only"):
        play_match(lineup, schedule(47, games=1), CONFIG, mode="batch")
    with pytest.raises(ValueError, match="use auto, batch or host"):
        play_match(lineup, schedule(47, games=1), CONFIG, mode="fast")


def test_summary_counts():
    results = play_match(resolve_slots(RANDOM), schedule(47, ["MW/HR"], games=2), CONFIG)
    facts = summary(results)
    assert facts["games"] == 2
    assert facts["a_wins"] + facts["b_wins"] + facts["draws"] == 2
    assert set(results.columns) >= {"winner", "score_a", "score_b", "ticks", "map_id", "seed"}
    assert results["map_name"].to_list() == [load_map(47).name] * 2
    assert all(0 < t <= CONFIG.horizon for t in results["ticks"])


def test_mbg_play_json_and_replays(tmp_path, capsys):
    from cli.main import main

    out = tmp_path / "games"
    argv = ["play", "--maps", "47", "--team-a", "random", "--team-b", "random", "--games", "2"]
    argv += ["--roster", "MW/HR", "--horizon", "24", "--score-threshold", "1", "--seed", "4"]
    assert main([*argv, "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 2 and len(report["replays"]) == 2
    assert sorted(p.name for p in out.iterdir()) == [
        "game0000_map47_Awest.mbgr",
        "game0001_map47_Aeast.mbgr",
    ]
    assert report["systems"] == ["random", "random", "", "", "", "random", "random", "", "", ""]
    # a second run into the same folder refuses to overwrite
    assert main([*argv, "--out", str(out)]) == 2
    assert "already holds replays" in capsys.readouterr().err
    assert main(["replay", "verify", str(out)]) == 0
    assert capsys.readouterr().out.count("ticks reproduce") == 2


def test_mbg_play_errors(capsys):
    from cli.main import main

    assert main(["play", "--maps", "47", "--team-a", "random"]) == 2
    assert "--team-a needs --team-b" in capsys.readouterr().err
    assert main(["play", "--maps", "47", "--slots", "A*=wizard,B*=random"]) == 2
    assert "unknown kind 'wizard'" in capsys.readouterr().err
    argv = ["play", "--maps", "47", "--team-a", "random", "--team-b", "random"]
    assert main([*argv, "--metrics", "full"]) == 2
    assert "--metrics needs --out" in capsys.readouterr().err


def test_keys_depend_on_seed_tick_and_system_only():
    from evaluation.match import system_keys

    key = jax.random.key(3)
    a, b = system_keys(key, 5, 2), system_keys(key, 5, 3)
    assert np.array_equal(jax.random.key_data(a[:2]), jax.random.key_data(b[:2]))
    assert not np.array_equal(jax.random.key_data(a[0]), jax.random.key_data(a[1]))
    assert C.NUM_SLOTS == 10
