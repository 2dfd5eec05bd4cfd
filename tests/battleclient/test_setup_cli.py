"""Setups, the remembered last setup, replay file names and the command line (no JAX)."""

import datetime
import json

import pytest

from battleclient.cli import HEADLESS_SLOTS, parse_args, setup_from_args
from battleclient.game_setup import (
    ClientSetup,
    parse_map_choice,
    parse_roster,
    pick_map,
    roster_text,
    setup_from_dict,
    slots_text,
    spawn_end_code,
)
from battleclient.map_catalog import maps_by_split, read_catalog
from battleclient.settings import load_last_setup, new_replay_path, save_last_setup


def test_roster_text_round_trip_with_empty_slots():
    roster = parse_roster("MW---/h")
    assert roster.tolist() == [1, 2, 0, 0, 0, 3, 0, 0, 0, 0]
    assert roster_text(roster) == "MW/H"
    assert parse_roster("MWH").tolist() == [1, 2, 3, 0, 0, 1, 2, 3, 0, 0]
    for bad, words in (
        ("MWHRPM/M", "more than 5"),
        ("MX/M", "'X'"),
        ("--/M", "needs 1-5"),
        ("MW-RP/H-R", "slot A2 is empty"),
        ("MWH/H-R", "slot B1 is empty"),
    ):
        with pytest.raises(ValueError, match=words):
            parse_roster(bad)


def test_slots_text_is_the_shortest_spec():
    specs = ["human"] + ["scripted:kiter"] * 4 + ["random"] * 5
    assert slots_text(specs) == "A0=human,A1-A4=scripted:kiter,B*=random"
    mixed = ["a", "b", "b", "", "a", "c", "c", "c", "c", "d"]
    assert slots_text(mixed) == "A0=a,A1-A2=b,A4=a,B0-B3=c,B4=d"


def test_setup_checks_name_the_field():
    with pytest.raises(ValueError, match="map 'moon'"):
        ClientSetup(map="moon")
    with pytest.raises(ValueError, match="'info_regime'"):
        ClientSetup(info_regime="telepathy")
    with pytest.raises(ValueError, match="'seed'"):
        ClientSetup(seed=-1)
    with pytest.raises(ValueError, match="settings.json: setup field 'horizon'"):
        setup_from_dict({"horizon": "long"}, source="settings.json")
    assert parse_map_choice(" Test ") == "test" and parse_map_choice(7) == "7"


def test_random_map_and_spawn_end_follow_the_seed():
    ids = maps_by_split(read_catalog())
    assert ids["test"] == [47, 48, 49, 50, 51] and len(ids["train"]) == 30
    drawn = [pick_map(ClientSetup(map="test", seed=s), ids) for s in range(20)]
    assert set(drawn) <= set(ids["test"]) and len(set(drawn)) > 1
    assert drawn == [pick_map(ClientSetup(map="test", seed=s), ids) for s in range(20)]
    assert pick_map(ClientSetup(map="12"), ids) == 12
    ends = {spawn_end_code(ClientSetup(spawn_end="random", seed=s)) for s in range(20)}
    assert ends == {0, 1}
    assert spawn_end_code(ClientSetup(spawn_end="east")) == 1


def test_last_setup_round_trip_and_bad_file(tmp_path):
    path = tmp_path / "cfg" / "last_setup.json"
    setup = ClientSetup(map="train", roster="MW/HR", slots="A*=human,B*=random", seed=9)
    save_last_setup(setup, path)
    assert load_last_setup(path) == (setup, "")
    assert json.loads(path.read_text())["roster"] == "MW/HR"
    assert [p.name for p in path.parent.iterdir()] == ["last_setup.json"]  # no temp file left
    path.write_text('{"seed": "nine"}')
    loaded, message = load_last_setup(path)
    assert loaded is None and str(path) in message and "'seed'" in message
    assert load_last_setup(tmp_path / "none.json") == (None, "")
    path.write_text('{"seed": 9, "map')  # cut short: not JSON, the file is still named
    assert load_last_setup(path) == (
        None,
        f"Last setup not used: {path}: Unterminated string starting at: line 1 column 13 (char 12)",
    )


def test_replay_names_never_collide(tmp_path):
    now = datetime.datetime(2025, 3, 4, 5, 6, 7)
    first = new_replay_path(tmp_path, 47, 3, now)
    assert first.name == "20250304-050607_map047_seed3.mbgr"
    first.write_bytes(b"x")
    assert new_replay_path(tmp_path, 47, 3, now).name == "20250304-050607_map047_seed3-2.mbgr"


def test_command_line_over_the_last_setup(tmp_path):
    base = ClientSetup(map="3", seed=4)
    args = parse_args(
        ["--map", "test", "--slots", "A*=human,B*=random", "--roster", "MWHRP/MW",
         "--seed", "8", "--info-regime", "no_shared_obs", "--spawn-end", "east",
         "--score-threshold", "5", "--horizon", "40"]
    )  # fmt: skip
    setup = setup_from_args(args, base)
    assert setup == ClientSetup(
        map="test",
        roster="MWHRP/MW",
        slots="A*=human,B*=random",
        info_regime="no_shared_obs",
        spawn_end="east",
        seed=8,
        score_threshold=5,
        horizon=40,
    )
    assert setup_from_args(parse_args([]), base) == base
    assert setup_from_args(parse_args(["--headless"]), None).slots == HEADLESS_SLOTS
    taken = tmp_path / "taken.mbgr"
    taken.write_bytes(b"")
    with pytest.raises(FileExistsError) as error:
        setup_from_args(parse_args(["--replay-out", str(taken)]), None)
    assert str(error.value) == f"--replay-out {taken}: the file exists; refusing to overwrite it"
    with pytest.raises(ValueError, match="roster"):
        setup_from_args(parse_args(["--roster", "MZ"]), None)


def test_the_horizon_is_horizon_and_the_older_max_ticks_still_runs(capsys):
    """--horizon, as in `mbg play` and `mbg tournament run` (RULES.md's term); --max-ticks,
    its older name, sets the same field, is left out of --help and is named when wrong."""
    assert setup_from_args(parse_args(["--max-ticks", "40"]), None).horizon == 40
    with pytest.raises(SystemExit):
        parse_args(["--help"])
    shown = capsys.readouterr().out
    assert "--horizon HORIZON" in shown and "max-ticks" not in shown
    with pytest.raises(ValueError) as error:
        setup_from_args(parse_args(["--max-ticks", "0"]), None)
    assert str(error.value) == (
        "--max-ticks (--horizon) 0: must be a whole number from 1 to 16,777,216"
    )
    with pytest.raises(ValueError) as error:
        setup_from_args(parse_args(["--horizon", "0"]), None)
    assert str(error.value) == "--horizon 0: must be a whole number from 1 to 16,777,216"


@pytest.mark.parametrize("order", [("--horizon", "--max-ticks"), ("--max-ticks", "--horizon")])
def test_horizon_and_max_ticks_together_are_refused(order, capsys):
    """Both names of one option: the last typed would win unsaid, so neither does."""
    with pytest.raises(SystemExit) as stop:
        parse_args([order[0], "4", order[1], "6"])
    assert stop.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last == "battleclient: error: --max-ticks is the old name of --horizon: give one"


def test_a_branch_names_max_ticks_as_typed(tmp_path):
    from battleclient.cli import branch_from_args

    args = parse_args(["--from-replay", str(tmp_path / "g.mbgr"), "--tick", "3",
                       "--max-ticks", "40"])  # fmt: skip
    with pytest.raises(ValueError) as error:
        branch_from_args(args)
    assert str(error.value) == (
        "--max-ticks (--horizon): a game played on from a replay keeps the replay's"
    )


@pytest.mark.parametrize("option", ["--replay-out", "--screenshot"])
def test_an_output_file_through_a_file_or_empty_is_refused_before_the_game(option, tmp_path):
    afile = tmp_path / "afile.txt"
    afile.write_text("keep me")
    inside = afile / "out.mbgr"
    with pytest.raises(FileExistsError) as error:
        setup_from_args(parse_args([option, str(inside)]), None)
    assert str(error.value) == f"{option} {inside}: {afile} is a file, not a folder"
    with pytest.raises(IsADirectoryError) as error:
        setup_from_args(parse_args([option, str(tmp_path)]), None)
    assert str(error.value) == f"{option} {tmp_path}: is a folder; give a file name"
    with pytest.raises(ValueError) as error:
        setup_from_args(parse_args([f"{option}="]), None)
    assert str(error.value) == f"{option}: is empty; give a path"
    assert afile.read_text() == "keep me"


def test_unknown_map_id_names_the_valid_ids_and_splits():
    with pytest.raises(ValueError) as error:
        setup_from_args(parse_args(["--map", "99"]), None)
    assert str(error.value) == (
        "--map 99: unknown map id 99; valid ids: 0-51; "
        "splits: curriculum, train, validation, test, custom, all; or a map file's path (.json)"
    )
    assert setup_from_args(parse_args(["--map", "051"]), None).map == "51"
