"""The recorder: replays of real games round-trip through files and re-simulate tick by tick.

One short Config for the whole file, so the engine step compiles once.
"""

import sys
from pathlib import Path

import jax.numpy as jnp
import msgpack
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import engine  # noqa: E402
from engine import constants as C  # noqa: E402
from engine.maps import load_map  # noqa: E402
from engine.types import Actions, Config  # noqa: E402
from evaluation.match import GameSetup, schedule  # noqa: E402
from evaluation.record import first_difference, record_games, verify_replay  # noqa: E402
from evaluation.replay import ReplayError, read_replay, write_replay  # noqa: E402
from policies.slotspec import resolve_slots  # noqa: E402
from policies.system import as_system, lineup_from_mapping  # noqa: E402

CONFIG = Config(horizon=24, score_threshold=1)


def _random_replay(seed: int, roster: str = "MW/HR"):
    _, replays = record_games(resolve_slots("*=random"), schedule(47, [roster], 1, seed), CONFIG)
    return replays[0]


def _same(a, b):
    assert a.header == b.header
    for group in ("states", "events"):
        x, y = getattr(a, group), getattr(b, group)
        assert set(x) == set(y)
        for name in x:
            assert np.array_equal(x[name], y[name]) and x[name].dtype == y[name].dtype, name
    assert np.array_equal(a.visible, b.visible) and np.array_equal(a.relayed, b.relayed)


@settings(
    max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 2**31 - 1))
def test_recorded_games_round_trip_and_resimulate(tmp_path, seed):
    replay = _random_replay(seed)
    assert replay.ticks == replay.header["result"]["ticks"] > 0
    path = write_replay(tmp_path / f"g{seed}.mbgr", replay)
    back = read_replay(path)
    _same(replay, back)
    assert verify_replay(back) is None


def test_header_describes_the_game():
    replay = _random_replay(7)
    header = replay.header
    assert header["map"]["id"] == 47 and header["map"]["split"] == "test"
    assert np.array_equal(np.array(header["map"]["obstacles"]), replay.states["obstacles"][0])
    assert header["roster"] == [1, 2, 0, 0, 0, 3, 4, 0, 0, 0]
    assert header["team_sizes"] == [2, 2]
    assert header["systems"] == ["random", "random", "", "", "", "random", "random", "", "", ""]
    assert header["seeds"]["game"] == 7 and header["spawn_end"] == 0
    assert header["score_threshold"] == 1 and header["horizon"] == 24
    assert header["info_regime"] == "shared_obs"
    # visible[t] is each slot's direct sight in states[t]
    assert np.array_equal(replay.visible, replay.states["seen"])


def test_tampering_is_found_at_the_right_tick():
    replay = _random_replay(9)
    assert replay.ticks >= 10
    moved = replay.states["pos"].copy()
    moved[7, 1, 0] += 0.25
    replay.states["pos"] = moved
    assert first_difference(replay) == (7, "states.pos")
    replay = _random_replay(9)
    submitted = replay.events["submitted"].copy()
    submitted[4, 0] = [0, 0, 0] if submitted[4, 0, 0] else [1, 0, 0]  # change slot 0's move
    replay.events["submitted"] = submitted
    assert verify_replay(replay) == 5


def test_cli_verify_names_the_tick(tmp_path, capsys):
    from cli.main import main

    replay = _random_replay(9)
    health = replay.states["health"].copy()
    health[6, 5] -= 1.0
    replay.states["health"] = health
    path = write_replay(tmp_path / "bad.mbgr", replay)
    assert main(["replay", "verify", str(path)]) == 1
    assert "differs first at tick 6 (states.health)" in capsys.readouterr().out
    assert main(["replay", "info", str(path), "--json"]) == 0
    assert '"ticks": ' in capsys.readouterr().out


def test_cli_info_reads_a_folder_one_replay_a_json_line(tmp_path, capsys):
    import json

    from cli.main import main

    for seed in (3, 4):
        write_replay(tmp_path / f"g{seed}.mbgr", _random_replay(seed))
    assert main(["replay", "info", str(tmp_path), "--json"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2 and all("ticks" in json.loads(line) for line in lines)
    assert main(["replay", "info", str(tmp_path)]) == 0
    assert capsys.readouterr().out.count("== ") == 2  # a heading a file
    assert main(["replay", "info", str(tmp_path / "none")]) == 2
    assert "no such file or folder" in capsys.readouterr().err


def _future(data: bytes) -> bytes:
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    preamble = unpacker.unpack()
    rest = data[unpacker.tell() :]
    preamble["format_version"] += 1
    return msgpack.packb(preamble, use_bin_type=True) + rest


@pytest.mark.parametrize(
    "damage, words",
    [
        (_future, "newer than this reader"),
        (lambda data: data[: len(data) // 2], "truncated"),
        (lambda data: data[:-200] + bytes(b ^ 0x5A for b in data[-200:]), "corrupted"),
    ],
)
def test_damaged_files_give_clear_errors(tmp_path, damage, words):
    path = write_replay(tmp_path / "good.mbgr", _random_replay(3))
    bad = tmp_path / "bad.mbgr"
    bad.write_bytes(damage(path.read_bytes()))
    with pytest.raises(ReplayError, match=words) as error:
        read_replay(bad)
    assert str(bad) in str(error.value)


def _striker(skip_ticks=()):
    """Host System: stands still and uses the first legal Basic; no answer on skip_ticks."""

    def act(obs, masks, carry, key):
        if int(obs.context[0, 0]) in skip_ticks:
            return None, carry
        basic = masks.pair[:, :, 0].copy()
        basic[:, 0] = False
        target = np.where(basic.any(axis=1), basic.argmax(axis=1), 0).astype(np.int32)
        zeros = np.zeros(10, np.int32)
        return Actions(move=zeros, target=target, ult=zeros), carry

    return as_system(act, host=True, name="striker")


def _duel(hp: float) -> GameSetup:
    """A Rogue (A0) face to face with a Mage (B0) of `hp` hit points on map 47."""
    spec = load_map(47)
    table = np.zeros((32, 8), np.float32)
    table[: len(spec.obstacles)] = spec.obstacles
    pads = np.concatenate([spec.pads[0], spec.pads[1]])
    pads[0], pads[5] = (10.0, 2.0), (11.0, 2.0)
    roster = np.array([C.ROGUE, 0, 0, 0, 0, C.MAGE, 0, 0, 0, 0], np.int32)
    zones = np.stack([spec.red_zones[0], spec.red_zones[1]])
    state = engine.initial_state(CONFIG, table, pads, zones, roster, 0, 47)
    state = state.replace(health=state.health.at[5].set(jnp.float32(hp)))
    return GameSetup(map=spec, roster=roster, spawn_end=0, seed=0, state=state)


def test_a_game_whose_last_tick_kills_and_one_with_fallbacks(tmp_path):
    # The Rogue's Basic does 12 a tick: 30 -> 18 -> 6 -> dead on the third tick, which ends
    # the game (threshold 1). On tick 1 Team A gives no answer, so the kill comes a tick later.
    striker = _striker()
    lazy = _striker(skip_ticks=(1,))
    cases = ((striker, [30, 18, 6, 0], []), (lazy, [30, 18, 18, 6, 0], [1]))
    for system, health, fallback in cases:
        ticks = len(health) - 1
        lineup = lineup_from_mapping({0: system, 5: striker})
        results, replays = record_games(lineup, [_duel(30.0)], CONFIG)
        replay = replays[0]
        assert results["ticks"][0] == replay.ticks == ticks
        assert results["winner"][0] == "A" and replay.header["result"]["score"] == [1, 0]
        assert replay.events["died"][-1].tolist() == [False] * 5 + [True] + [False] * 4
        assert not replay.states["alive"][-1, 5] and replay.states["health"][-1, 5] == 0
        assert np.flatnonzero(replay.events["fallback"][:, 0]).tolist() == fallback
        assert replay.events["fallback"][:, 5].sum() == 0
        assert replay.states["health"][:, 5].tolist() == health
        back = read_replay(write_replay(tmp_path / f"duel{ticks}.mbgr", replay))
        _same(replay, back)
        assert verify_replay(back) is None


def test_a_game_started_mid_way_records_only_what_was_played():
    setup = _duel(30.0)
    setup = GameSetup(**{**vars(setup), "state": setup.state.replace(tick=jnp.int32(10))})
    lineup = lineup_from_mapping({0: _striker(), 5: _striker()})
    results, replays = record_games(lineup, [setup], CONFIG)
    replay = replays[0]
    assert results["ticks"][0] == 13  # the final tick of the game
    assert replay.ticks == replay.header["result"]["ticks"] == 3
    assert replay.states["tick"].tolist() == [10, 11, 12, 13]
    assert verify_replay(replay) is None
