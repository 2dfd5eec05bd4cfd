"""`mbg replay verify` trusts nothing unchecked: the rules version, every header field the
game determines, then every re-simulated tick (evaluation/replay_verify.py)."""

import copy
import hashlib
from pathlib import Path

import pytest

from cli.main import main
from engine import constants as C
from evaluation.replay import read_replay, write_replay
from evaluation.replay_verify import LOCK_FILE, header_differences, provenance, verify

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "replays"
OLD_RULES = FIXTURES / "v1_rules1_real_2v2_no_metrics.mbgr"
SMALL = FIXTURES / "v1_real_2v2_no_metrics.mbgr"


def current_fixtures():
    return [p for p in sorted(FIXTURES.glob("v*.mbgr")) if _rules(p) == C.RULES_VERSION]


def _rules(path):
    return read_replay(path).header["rules_version"]


def test_some_fixtures_are_of_the_current_rules():
    # Re-record them with make_fixtures.py when RULES_VERSION changes.
    names = [p.name for p in current_fixtures()]
    assert "v1_real_2v2_no_metrics.mbgr" in names and "v1_real_5v5_full_metrics.mbgr" in names


@pytest.mark.parametrize("path", current_fixtures(), ids=lambda p: p.name)
def test_every_current_rules_fixture_re_simulates(path):
    assert verify(read_replay(path)) == []


def test_an_old_rules_replay_is_named_as_such(capsys):
    replay = read_replay(OLD_RULES)
    assert replay.header["rules_version"] == "marl-battlegrounds 0.1.0"
    (problem,) = verify(replay)
    assert problem.startswith(
        "recorded under rules version 1 (written 'marl-battlegrounds 0.1.0'); "
        f"this engine runs rules version {C.RULES_VERSION}, so it cannot re-simulate it"
    )
    assert "cannot re-simulate" in problem and "differs" not in problem
    assert main(["replay", "verify", str(OLD_RULES)]) == 1
    assert "recorded under rules version 1 (written 'marl-battlegrounds" in capsys.readouterr().out


EDITS = {
    "result.score": lambda h: h["result"].update(score=[25, 0]),
    "result.outcome": lambda h: h["result"].update(outcome=C.A_WINS, outcome_name="A wins"),
    "result.ticks": lambda h: h["result"].update(ticks=h["result"]["ticks"] + 1),
    "spawn_end": lambda h: h.update(spawn_end=1 - h["spawn_end"]),
    "map.id": lambda h: h["map"].update(id=h["map"]["id"] + 1),
    "map.name": lambda h: h["map"].update(name="Somewhere else"),
    "team_sizes": lambda h: h.update(team_sizes=[2, 1]),
    "roster": lambda h: h.update(roster=[1, 1] + h["roster"][2:]),
    "horizon": lambda h: h.update(horizon=h["horizon"] + 1),
}


@pytest.mark.parametrize("field", list(EDITS))
def test_an_edited_header_field_is_named(field):
    replay = read_replay(SMALL)
    assert header_differences(replay) == []
    edited = copy.copy(replay)
    edited.header = copy.deepcopy(replay.header)
    EDITS[field](edited.header)
    problems = header_differences(edited)
    assert any(p.startswith(f"header.{field} says") for p in problems), problems


def test_cli_verify_reports_an_edited_result(tmp_path, capsys):
    replay = read_replay(SMALL)
    replay.header = copy.deepcopy(replay.header)
    truth = list(replay.header["result"]["score"])
    replay.header["result"]["score"] = [25, 0]
    path = write_replay(tmp_path / "edited.mbgr", replay)
    assert main(["replay", "verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"header.result.score says [25, 0]; the game gives {truth}" in out


def test_replays_carry_their_provenance():
    header = read_replay(SMALL).header
    assert header["rules_version"] == C.RULES_VERSION
    recorded = header["provenance"]
    assert recorded["rules_version"] == C.RULES_VERSION
    assert recorded["packages"]["jax"] and recorded["packages"]["jaxlib"]
    now = provenance()
    assert now["lock_sha256"] == hashlib.sha256(LOCK_FILE.read_bytes()).hexdigest()


@pytest.mark.slow
def test_systems_re_run_from_the_seed_check_the_seed(tmp_path, capsys):
    # A short random-vs-random game: the random Systems' actions come from the seed's keys.
    from engine.types import Config
    from evaluation.match import schedule
    from evaluation.record import record_games
    from policies.slotspec import parse_slots, resolve_slots, team_spec

    setup = schedule(3, ["MP/RH"], games=1, seed=11)
    lineup = resolve_slots(parse_slots(team_spec("random", "random")), setup[0].roster)
    _, (replay,) = record_games(lineup, setup, Config(horizon=6), mode="host")
    assert verify(replay, systems=True) == []
    edited = copy.copy(replay)
    edited.header = copy.deepcopy(replay.header)
    edited.header["seeds"]["game"] += 1
    (problem,) = verify(edited, systems=True)
    assert problem.startswith("header.seeds / systems: the Systems submit other actions")
    ticks = replay.ticks
    kept, changed = write_replay(tmp_path / "kept.mbgr", replay), tmp_path / "edited.mbgr"
    write_replay(changed, edited)
    assert main(["replay", "verify", "--systems", str(kept)]) == 0
    assert capsys.readouterr().out == (
        f"{kept}: ok, header, {ticks} ticks and the Systems re-run from header.seeds reproduce\n"
    )
    assert main(["replay", "verify", str(changed)]) == 0  # the edit needs --systems to show
    assert capsys.readouterr().out == (
        f"{changed}: ok, header and {ticks} ticks reproduce; header.seeds and systems not "
        "checked (--systems re-runs them)\n"
    )
    assert main(["replay", "verify", "--systems", str(changed)]) == 1


@pytest.mark.parametrize("seed", ["x", -1, 1.5, True, 2**63])
def test_a_seed_that_is_not_a_whole_number_is_named(seed, tmp_path, capsys):
    from evaluation.replay import ReplayError, validate_replay

    edited = copy.copy(read_replay(SMALL))
    edited.header = copy.deepcopy(edited.header)
    edited.header["seeds"]["root"] = seed
    with pytest.raises(ReplayError) as caught:
        validate_replay(edited, "game.mbgr")
    assert str(caught.value) == (
        f"game.mbgr: header.seeds.root: {seed!r} is not a seed (a whole number, 0 to 2**63 - 1)"
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"drop": "game"}, "header.seeds.game: missing (the seed the game's Systems draw their "
         "keys from (evaluation.match.system_keys))"),
        ({"add": ("gmae", 3)}, "header.seeds.gmae: not a seed key (known: game, index, root, "
         "matchup, client)"),
    ],
)  # fmt: skip
def test_a_missing_game_seed_or_an_unknown_seed_key_is_named(edit, message):
    from evaluation.replay import ReplayError, validate_replay

    edited = copy.copy(read_replay(SMALL))
    edited.header = copy.deepcopy(edited.header)
    if "drop" in edit:
        del edited.header["seeds"][edit["drop"]]
    else:
        edited.header["seeds"].__setitem__(*edit["add"])
    with pytest.raises(ReplayError) as caught:
        validate_replay(edited, "game.mbgr")
    assert str(caught.value) == f"game.mbgr: {message}"


HEADS = [[0, 0, 0]] * 10
TAKEBACK = "a tick (a whole number, 0 or more)"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("takebacks", [{"tick": 3, "submitted": HEADS}, {"tick": -1, "submitted": HEADS}],
         f"header.takebacks[1].tick: -1 is not {TAKEBACK}"),
        ("takebacks", [{"tick": 3, "submitted": [[0, 0, 0]]}],
         "header.takebacks[0].submitted: [[0, 0, 0]] is not 10 rows [move, target, ult] of "
         "whole numbers"),
        ("takebacks", [{"tick": 3}], "header.takebacks[0].submitted: missing"),
        ("takebacks", [{"tick": 3, "submitted": HEADS}] * 2 + [5],
         "header.takebacks[2]: 5 is not a map {tick, submitted}"),
        ("takebacks", {"tick": 3}, "header.takebacks: {'tick': 3} is not a list of "
         "{tick, submitted}"),
        ("parent", {"replay": "old.mbgr", "tick": 2}, "header.parent.sha256: missing"),
        ("parent", {"replay": "old.mbgr", "sha256": "ab", "tick": "2"},
         f"header.parent.tick: '2' is not {TAKEBACK}"),
        ("takebacks", [{"tick": 3, "submitted": HEADS}, {"tick": 4, "submitted": HEADS, "by": 1}],
         "header.takebacks[1].by: not a takeback key (known: tick, submitted)"),
        ("takebacks", [{"tik": 3, "submitted": HEADS}],
         "header.takebacks[0].tik: not a takeback key (known: tick, submitted)"),
        ("parent", {"replay": "old.mbgr", "sha256": "ab", "tick": 0, "hash": "ab"},
         "header.parent.hash: not a parent key (known: replay, sha256, tick)"),
    ],
)  # fmt: skip
def test_a_bad_takeback_or_parent_entry_is_named_with_its_value(field, value, message):
    from evaluation.replay import ReplayError, validate_replay

    edited = copy.copy(read_replay(SMALL))
    edited.header = copy.deepcopy(edited.header) | {field: value}
    with pytest.raises(ReplayError) as caught:
        validate_replay(edited, "game.mbgr")
    assert str(caught.value) == f"game.mbgr: {message}"


def test_the_largest_seed_is_still_a_seed():
    from evaluation.replay import validate_replay

    edited = copy.copy(read_replay(SMALL))
    edited.header = copy.deepcopy(edited.header)
    edited.header["seeds"]["game"] = 2**63 - 1
    assert validate_replay(edited).header["seeds"]["game"] == 2**63 - 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("parent", {"replay": "old.mbgr", "sha256": "ab", "tick": 12},
         "header.parent.tick: 12, but the body starts at tick 2"),
        ("takebacks", [{"tick": 3, "submitted": HEADS}, {"tick": 1, "submitted": HEADS}],
         "header.takebacks[1].tick: 1 is before the body's first tick, 2"),
    ],
)  # fmt: skip
def test_a_parent_or_takeback_tick_the_body_does_not_hold_is_named(field, value, message):
    """SMALL's body, shifted to start at tick 2 as a branched game's would, with a parent
    claiming tick 12 or a takeback undoing tick 1, which the game never held."""
    from evaluation.replay import ReplayError, validate_replay

    edited = copy.copy(read_replay(SMALL))
    edited.states = dict(edited.states, tick=edited.states["tick"] + 2)
    parent = {"replay": "old.mbgr", "sha256": "ab", "tick": 2}
    edited.header = copy.deepcopy(edited.header) | {"parent": parent, field: value}
    with pytest.raises(ReplayError) as caught:
        validate_replay(edited, "game.mbgr")
    assert str(caught.value) == f"game.mbgr: {message}"
    late = [{"tick": 2, "submitted": HEADS}, {"tick": 99, "submitted": HEADS}]  # undone, then
    kept = edited.header | {"parent": parent, "takebacks": late}  # stopped: past the end is fine
    edited.header = kept
    assert validate_replay(edited).header["takebacks"] == late


def test_systems_that_cannot_be_built_name_the_field_and_the_spec():
    from evaluation.replay_verify import systems_difference

    edited = copy.copy(read_replay(SMALL))
    edited.header = copy.deepcopy(edited.header)
    edited.header["systems"][5:7] = ["scripted:zz", "scripted:zz"]
    assert systems_difference(edited) == (
        "header.systems 'scripted:zz': cannot be re-run: scripted bot 'zz' does not exist; "
        "choose one of brawler, kiter, tactician"
    )


def test_a_game_a_human_played_passes_with_its_seeds_named_unchecked(tmp_path, capsys):
    # A person's orders cannot be re-run: that is no failure of the replay (it said "1 of 1 did
    # not pass" before), but the ok line must say what was not checked.
    edited = copy.copy(read_replay(SMALL))
    edited.header = copy.deepcopy(edited.header)
    edited.header["systems"][0] = "human"
    assert verify(edited, systems=True) == []
    path = write_replay(tmp_path / "human.mbgr", edited)
    assert main(["replay", "verify", "--systems", str(path)]) == 0
    assert capsys.readouterr().out == (
        f"{path}: ok, header and {edited.ticks} ticks reproduce; header.seeds and systems not "
        "checked: a human played in this game\n"
    )


def test_a_rules_version_is_named_as_one_and_a_legacy_name_as_its_version():
    from evaluation.replay_verify import rules_name, rules_number

    # RULES.md 8: version 1 was written "marl-battlegrounds 0.1.0" in replays.
    assert rules_number("marl-battlegrounds 0.1.0") == "1"
    assert rules_name("marl-battlegrounds 0.1.0") == (
        "rules version 1 (written 'marl-battlegrounds 0.1.0')"
    )
    assert rules_name("2") == "rules version 2"
    assert rules_name("test") == "rules version 'test'" and rules_number(None) == "None"
