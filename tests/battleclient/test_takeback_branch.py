"""Takeback and branching in the game session: the kept line is what the replay holds and
re-simulates; a game played on from a replay's tick is that game from then on (RULES 0)."""

import numpy as np
import pytest

from tests.battleclient.driver import GAME_TICKS, RANDOM, setup

HUMAN_A0 = "A0=human,A1-A4=random,B*=random"


@pytest.fixture(scope="module")
def maps():
    from battleclient.map_catalog import maps_by_split, read_catalog

    return maps_by_split(read_catalog())


def move_head(session, slot, world_move):
    from battleclient.orders import to_team_move

    return (to_team_move(world_move, slot, int(session.snapshot.state["spawn_end"])), 0, 0)


def test_take_back_restores_the_tick_and_the_replay_keeps_the_new_line(maps, tmp_path):
    from battleclient.session import GameSession
    from evaluation.replay import ReplayError, read_replay, validate_replay
    from evaluation.replay_verify import verify

    game = GameSession(setup(HUMAN_A0, metrics="none"), maps)
    game.resolve({0: move_head(game, 0, 1)})  # tick 0: A0 north
    before = game.snapshot
    north = game.resolve({0: move_head(game, 0, 1)})  # tick 1: north again
    undone = north.events["submitted"].tolist()
    assert game.take_back() is before and game.snapshot.tick == 1
    again = game.resolve({0: move_head(game, 0, 1)})
    for name, value in north.state.items():  # the same orders give the same tick again
        np.testing.assert_array_equal(again.state[name], value, err_msg=name)
    game.take_back()
    south = game.resolve({0: move_head(game, 0, 2)})  # the kept line: A0 south
    assert south.state["pos"][0, 1] < north.state["pos"][0, 1]  # y grows northward
    while not game.snapshot.over:
        game.resolve({})
    path = game.save(tmp_path / "kept.mbgr")
    replay = read_replay(path)
    assert replay.ticks == GAME_TICKS
    assert replay.header["takebacks"] == [
        {"tick": 1, "submitted": undone},
        {"tick": 1, "submitted": undone},
    ]
    np.testing.assert_array_equal(replay.states["pos"][2], south.state["pos"])
    assert verify(replay) == []  # the kept line re-simulates bit for bit
    replay.header["takebacks"] = [{"tick": 1, "submitted": [[0, 0, 0]]}]  # 1 slot, not 10
    with pytest.raises(ReplayError, match="header.takebacks"):
        validate_replay(replay, "kept.mbgr")
    del replay.header["takebacks"]  # a replay without one (any older replay) still checks out
    validate_replay(replay, "kept.mbgr")
    with pytest.raises(RuntimeError, match="over"):
        game.take_back()


def test_state_at_tick_rebuilds_every_recorded_state(maps, tmp_path):
    from battleclient.session import GameSession
    from evaluation.replay import read_replay
    from evaluation.replay_states import state_at_tick

    game = GameSession(setup(RANDOM, metrics="none"), maps)
    while not game.snapshot.over:
        game.resolve({})
    replay = read_replay(game.save(tmp_path / "r.mbgr"))
    for tick in (0, 3, GAME_TICKS):
        state = state_at_tick(replay, tick)
        for name in ("pos", "health", "status", "score", "tick", "seen", "prev_action"):
            np.testing.assert_array_equal(getattr(state, name), replay.states[name][tick])
    with pytest.raises(ValueError, match=f"outside its ticks 0-{GAME_TICKS}"):
        state_at_tick(replay, GAME_TICKS + 1)
    broken = read_replay(tmp_path / "r.mbgr")
    broken.states["health"] = broken.states["health"].copy()
    broken.states["health"][2, 0] += 1.0
    with pytest.raises(ValueError, match="states.health"):
        state_at_tick(broken, 2)


def test_a_branch_with_the_same_slots_plays_the_parent_game_on(maps, tmp_path):
    from battleclient.branching import file_sha256, load_branch
    from battleclient.session import GameSession
    from evaluation.replay import read_replay
    from evaluation.replay_verify import verify

    parent = GameSession(setup(RANDOM, metrics="none", seed=5), maps)
    while not parent.snapshot.over:
        parent.resolve({})
    path = parent.save(tmp_path / "parent.mbgr")
    branch_setup, branch = load_branch(path, 3)
    assert branch_setup.slots == "A*=random,B*=random" and branch_setup.seed == 5
    child = GameSession(branch_setup.replace(metrics="none"), maps, start=branch)
    assert child.snapshot.tick == 3
    while not child.snapshot.over:
        child.resolve({})
    old, new = read_replay(path), read_replay(child.save(tmp_path / "child.mbgr"))
    assert new.header["parent"] == {
        "replay": str(path.resolve()),
        "sha256": file_sha256(path),
        "tick": 3,
    }
    for name in ("pos", "health", "score", "tick", "outcome"):
        np.testing.assert_array_equal(new.states[name], old.states[name][3:], err_msg=name)
    assert verify(new) == []
    with pytest.raises(ValueError, match="holds ticks 0-6"):
        load_branch(path, 9)
