"""Playtesting a scenario headlessly: the exact start, the winning line, Try again, the record."""

import json
import time

import numpy as np
import pytest

from battleclient import scenario_record as record
from battleclient.scenario_session import ScenarioSession, slot_spec, winning_line_replay
from engine import constants as C
from evaluation import scenarios as S


@pytest.fixture(scope="module")
def patient_hunter():
    return S.load_scenario(6)  # A0 Hunter and A1 Priest against B0 Priest, B1 Mage


def _play(session, orders_by_tick):
    for orders in orders_by_tick:
        if session.snapshot.over:
            break
        session.resolve(orders)


def test_slot_spec_gives_the_person_focal_slots_and_the_controller_the_rest(patient_hunter):
    s = patient_hunter
    assert slot_spec(s, [0]) == "A0=human,A1=scripted:tactician,B*=scripted:tactician"
    assert slot_spec(s, [0, 1], "random") == "A0=human,A1=human,B*=scripted:tactician"
    assert slot_spec(s, [1], "random") == "A1=human,A0=random,B*=scripted:tactician"
    with pytest.raises(ValueError, match="slot B0: not a focal agent"):
        slot_spec(s, [5])


@pytest.mark.slow  # compiles the engine (110-240 s at a load average of 40)
def test_the_line_wins_waiting_loses_and_try_again_is_the_exact_start(patient_hunter, tmp_path):
    s = patient_hunter
    session = ScenarioSession(s, [0, 1])
    start = {k: np.copy(v) for k, v in session.snapshot.state.items()}
    assert session.snapshot.tick == 294 and session.ticks_left == 6
    assert session.setup.roster == "HP/PM" and session.setup.map == "902"
    (_, table) = s.lines[0]
    orders = [{k: tuple(int(v) for v in table[t, k]) for k in (0, 1)} for t in range(len(table))]
    _play(session, orders)
    assert session.solved and session.snapshot.outcome == C.A_WINS
    assert session.ticks_left == 3  # the Basic on the third tick ends it (RULES 4.3)
    replay = session.replay()
    assert replay.header["scenario"]["start_hash"] == s.start_hash
    assert replay.header["scenario"]["solved"] and replay.header["scenario"]["ticks_played"] == 3
    assert session.save(tmp_path / "win.mbgr").exists()

    began = time.perf_counter()
    session.try_again()
    session.decide()  # the controller's answer for the first orders screen
    again = time.perf_counter() - began
    assert again < 0.5, again  # issue 17 target: the next orders screen within 0.5 s
    for key, value in start.items():
        np.testing.assert_array_equal(session.snapshot.state[key], value, err_msg=key)
    assert session.attempt == 1 and session.replay() is None

    _play(session, [{0: (0, 0, 0), 1: (0, 0, 0)}] * s.horizon)  # standing still: the Mage wins
    assert session.snapshot.over and not session.solved
    assert session.replay().header["scenario"]["solved"] is False


@pytest.mark.slow  # compiles the engine and verify's batched scan (~200 s on a loaded machine)
def test_the_winning_line_as_a_replay_is_verifys_game_and_compiles_nothing(patient_hunter):
    from evaluation import scenario_lines

    s = patient_hunter
    session = ScenarioSession(s, [0])
    session.compile_step()
    session.decide(ask_hosts=False)  # as the play screen's build job does
    session.resolve({0: (0, 0, 0)})  # one tick played and the next orders screen's decision,
    session.decide()  # as on the end card: the controller has run on a later tick's carry too
    began = time.perf_counter()
    replay = winning_line_replay(s, 0, session.controller)
    seconds = time.perf_counter() - began
    assert seconds < 10, seconds  # the playtest's compiled step and controller: nothing compiles
    assert replay.header["scenario"]["solved"] and replay.header["scenario"]["ticks_played"] == 3
    assert int(replay.states["tick"][-1]) == 297 and int(replay.states["outcome"][-1]) == C.A_WINS
    verified = dict(scenario_lines.verify(s, record=True))[s.lines[0][0]].replay
    for field in ("systems", "scenario", "map", "roster"):
        assert replay.header.get(field) == verified.header.get(field), field
    for part in ("states", "events", "visible", "relayed"):
        ours, theirs = getattr(replay, part), getattr(verified, part)
        if isinstance(theirs, dict):
            assert ours.keys() == theirs.keys(), part
            for key in theirs:
                np.testing.assert_array_equal(ours[key], theirs[key], err_msg=f"{part}.{key}")
        else:
            np.testing.assert_array_equal(ours, theirs, err_msg=part)
    with pytest.raises(IndexError):
        winning_line_replay(s, 1, session.controller)


def test_the_record_counts_attempts_and_solves_and_keeps_a_bad_file(patient_hunter, tmp_path):
    s, path = patient_hunter, tmp_path / "record.json"
    assert record.entry_text(record.load_record(path).get(s.start_hash)) == "not tried yet"
    record.record_attempt(s, False, 6, "2026-12-01T10:00", path)
    entry = record.record_attempt(s, True, 2, "2026-12-01T10:05", path)
    assert entry == {
        "id": 6, "title": s.title, "attempts": 2, "solves": 1, "best_ticks": 2,
        "last": "2026-12-01T10:05",
    }  # fmt: skip
    assert json.loads(path.read_text())[s.start_hash] == entry
    assert record.entry_text(entry) == "2 attempts, 1 solved (best 2 ticks)"
    assert [p.name for p in tmp_path.iterdir()] == ["record.json"]  # no temporary left
    path.write_text('{"x": {"attempts": 1}}')
    with pytest.raises(ValueError, match="entry 'x': needs the fields"):
        record.record_attempt(s, True, 1, "now", path)
    assert path.read_text() == '{"x": {"attempts": 1}}'  # nothing lost
