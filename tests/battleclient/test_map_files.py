"""Map files by path and maps added to the maps folder: --map FILE, the catalog, the lobby, the
replay of a game on a map file, and the command line's range errors."""

import argparse
import json

import pytest

from battleclient.app import main
from battleclient.cli import id_ranges, map_option, setup_from_args
from battleclient.game_setup import ClientSetup, parse_map_choice, pick_map
from battleclient.map_catalog import (
    find_entry,
    load_choice,
    maps_by_split,
    read_catalog,
    settle_map,
)
from engine import maps as map_files
from evaluation.record import verify_replay
from evaluation.replay import read_replay
from tests.battleclient.driver import GAME_TICKS, frame, setup


def _keep_copy(map_id: int, **changes) -> dict:
    doc = json.loads(map_files.map_path(47).read_text(encoding="utf-8"))
    doc.update(id=map_id, split="custom" if map_id >= 52 else doc["split"], **changes)
    return doc


@pytest.fixture
def my_map(tmp_path):
    """A copy of map 47 (Keep) under a new id, 60, outside the maps folder."""
    path = tmp_path / "my_map.json"
    path.write_text(json.dumps(_keep_copy(60, name="My keep")), encoding="utf-8")
    return path


@pytest.fixture
def maps_folder(tmp_path, monkeypatch):
    """A maps folder with map 47, `061_wide.json` (id 61, loads by id) and `arena.json` (id 60,
    loads by path only)."""
    folder = tmp_path / "maps"
    folder.mkdir()
    (folder / "047_keep.json").write_text(json.dumps(_keep_copy(47)), encoding="utf-8")
    (folder / "061_wide.json").write_text(json.dumps(_keep_copy(61, name="Wide")), "utf-8")
    (folder / "arena.json").write_text(json.dumps(_keep_copy(60, name="Arena")), "utf-8")
    (folder / "broken.json").write_text("{", encoding="utf-8")
    monkeypatch.setattr(map_files, "MAPS_DIR", folder)
    map_files.clear_map_caches()
    yield folder
    map_files.clear_map_caches()  # the real folder again for later tests


def test_a_map_path_is_kept_as_given():
    assert parse_map_choice(" /tmp/My_Map.json ") == "/tmp/My_Map.json"
    assert parse_map_choice("Arena.JSON") == "Arena.JSON"
    assert parse_map_choice("maps/x") == "maps/x"
    assert ClientSetup(map="/tmp/My_Map.json").map == "/tmp/My_Map.json"
    assert pick_map(ClientSetup(map="/tmp/My_Map.json"), {}) == "/tmp/My_Map.json"
    with pytest.raises(ValueError, match="or a map file path"):
        parse_map_choice("moon")


def test_map_option_checks_the_file_now(my_map, tmp_path):
    assert map_option(str(my_map)) == str(my_map)
    assert load_choice(str(my_map)).id == 60
    edited = tmp_path / "edited.json"
    doc = _keep_copy(47)
    doc["obstacles"] = doc["obstacles"][:2]
    edited.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ValueError, match=r"^--map: .*edited\.json: field 'id': 47 is the id of"):
        map_option(str(edited))
    with pytest.raises(ValueError, match=r"^--map: .*gone\.json: cannot read the file: No such"):
        map_option(str(tmp_path / "gone.json"))


def test_bad_map_file_is_one_line_and_exit_2(tmp_path, capsys):
    missing = tmp_path / "none.json"
    assert main(["--headless", "--map", str(missing)]) == 2
    err = capsys.readouterr().err
    reason = "cannot read the file: No such file or directory"
    assert err == f"battleclient: --map: {missing}: {reason}\n"


def _args(**values) -> argparse.Namespace:
    base = dict.fromkeys(
        ("map", "slots", "roster", "seed", "info_regime", "spawn_end", "score_threshold"),
    )
    base |= {"horizon": None, "headless": True, "replay_out": None, "screenshot": None}
    return argparse.Namespace(**(base | {"after_ticks": 0} | values))


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            {"horizon": 2**24 + 1},
            "--horizon 16777217: must be a whole number from 1 to 16,777,216",
        ),  # fmt: skip
        ({"horizon": 0}, "--horizon 0: must be a whole number from 1 to 16,777,216"),
        (
            {"score_threshold": 20_000_000},
            "--score-threshold 20000000: must be a whole number from 1 to 16,777,216",
        ),  # fmt: skip
        ({"seed": -1}, "--seed -1: must be a whole number from 0 to 2,147,483,647"),
    ],
)
def test_number_options_name_the_option_and_the_range(values, message):
    with pytest.raises(ValueError) as caught:
        setup_from_args(_args(**values), None)
    assert str(caught.value) == message
    top = setup_from_args(_args(horizon=2**24, score_threshold=2**24), None)
    assert (top.horizon, top.score_threshold) == (2**24, 2**24)


def test_catalog_lists_maps_added_to_the_folder(maps_folder):
    catalog = read_catalog()
    labels = [e.label for e in catalog]
    assert labels == ["047 Keep (test)", "060 Arena (custom) arena.json", "061 Wide (custom)"]
    assert [e.choice for e in catalog] == ["47", str(maps_folder / "arena.json"), "61"]
    by_split = maps_by_split(catalog)
    assert by_split == {"test": [47], "custom": [str(maps_folder / "arena.json"), 61]}
    drawn = {pick_map(ClientSetup(map="custom", seed=s), by_split) for s in range(12)}
    assert drawn == {str(maps_folder / "arena.json"), 61}
    assert find_entry(catalog, "61").name == "Wide" and find_entry(catalog, 60) is None
    assert find_entry(catalog, str(maps_folder / "arena.json")).name == "Arena"
    assert load_choice(61).name == "Wide"
    with pytest.raises(ValueError, match="no maps; add a map file to maps/"):
        pick_map(ClientSetup(map="custom"), {"test": [47]})
    assert map_option("61") == "61"
    with pytest.raises(ValueError, match="unknown map id 60; valid ids: 47, 61;"):
        map_option("60")  # arena.json is chosen by its path, not its id


def test_a_remembered_map_file_that_is_gone_falls_back(tmp_path):
    catalog = read_catalog()
    gone = ClientSetup(map=str(tmp_path / "old.json"))
    settled, note = settle_map(gone, catalog)
    assert settled.map == "47"
    assert note.startswith(f"The map file {tmp_path / 'old.json'} of your last game is gone;")
    kept = tmp_path / "here.json"
    kept.write_text("{}", encoding="utf-8")
    assert settle_map(ClientSetup(map=str(kept)), catalog) == (ClientSetup(map=str(kept)), "")


def test_lobby_offers_added_maps_and_a_map_file(apps, maps_folder, my_map):
    app = apps(setup().replace(map=str(my_map)), start=False)
    frame(app)
    lobby = app.screen
    assert lobby.map_menu.selected_option[0] == "060 My keep (custom) my_map.json"
    assert lobby.map_choices["060 Arena (custom) arena.json"] == str(maps_folder / "arena.json")
    assert lobby.map_choices["Random map from: custom"] == "custom"
    assert "Random map from: train" not in lobby.map_choices  # no train map in this folder
    lobby._menu(lobby.map_menu, "061 Wide (custom)")
    assert lobby.setup.map == "61"
    lobby._menu(lobby.map_menu, "060 Arena (custom) arena.json")
    assert lobby.setup.map == str(maps_folder / "arena.json")
    assert lobby.preview_choice()[0] == str(maps_folder / "arena.json")


def test_headless_game_on_a_map_file_replays_without_it(my_map, tmp_path, capsys):
    out = tmp_path / "game.mbgr"
    argv = ["--headless", "--map", str(my_map), "--slots", "A*=random,B*=random", "--seed", "3"]
    assert main([*argv, "--horizon", str(GAME_TICKS), "--replay-out", str(out)]) == 0
    assert f"after {GAME_TICKS} ticks on map 60 " in capsys.readouterr().out
    my_map.unlink()  # the replay holds the obstacles, pads and Red Zones itself
    replay = read_replay(out)
    header = replay.header["map"]
    assert (header["id"], header["name"], header["split"]) == (60, "My keep", "custom")
    assert replay.ticks == GAME_TICKS and verify_replay(replay) is None


def test_id_ranges_are_runs():
    assert id_ranges([0, 1, 2, 5, 61, 62]) == "0-2, 5, 61-62"
    assert id_ranges(list(range(52))) == "0-51" and id_ranges([]) == ""
