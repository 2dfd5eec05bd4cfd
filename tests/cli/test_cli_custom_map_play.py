"""`mbg play --maps FILE` plays a user's map file, and its replays re-simulate without the file."""

import json

import pytest

from cli.main import main
from engine import maps as M


def custom_map(folder, name="my_map.json", **changes):
    doc = json.loads(M.map_path(5).read_text())
    doc.pop("preview", None)
    doc.update(id=60, split="custom", team_size=None, name="My Cover", **changes)
    path = folder / name
    path.write_text(json.dumps(doc))
    return path


def test_play_a_map_file_and_verify_its_replays(tmp_path, capsys):
    path = custom_map(tmp_path)
    out = tmp_path / "out"
    argv = ["play", "--maps", str(path), "--slots", "*=random", "--games", "2", "--json"]
    assert main([*argv, "--horizon", "12", "--out", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [row["map_id"] for row in report["results"]] == [60, 60]
    assert [row["map_name"] for row in report["results"]] == ["My Cover", "My Cover"]
    path.unlink()  # the replay holds the layout: no map file is needed to check it
    assert main(["replay", "info", "--json", str(out / "game0000_map60_Awest.mbgr")]) == 0
    facts = json.loads(capsys.readouterr().out)
    assert facts["map"] == {"id": 60, "name": "My Cover", "split": "custom"}
    assert main(["replay", "verify", str(out)]) == 0
    assert capsys.readouterr().out.count("ticks reproduce") == 2


@pytest.fixture
def never_plays(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("games were played")

    monkeypatch.setattr("cli.play._play", fail)


def test_a_bad_map_file_is_one_line_naming_file_field_and_value(tmp_path, capsys, never_plays):
    path = custom_map(tmp_path, red_zone=[0, 0, 12, 10])
    assert main(["play", "--maps", f"validation,{path}", "--slots", "*=random"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"mbg play: error: {path}: field 'red_zone': needs 0 <= x0 <= x1 <= 10 and "
        "0 <= y0 < y1 <= 10 (west end), got [0, 0, 12, 10]\n"
    )


def test_eval_names_a_missing_map_file_before_loading_anything(tmp_path, capsys):
    missing = tmp_path / "nope.json"
    assert main(["eval", "no_such.msgpack", "--vs", "random", "--maps", str(missing)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mbg eval: error: {missing}: cannot read the file: No such")


def test_unknown_ids_are_named_before_any_file_is_read(tmp_path, capsys, never_plays):
    missing = tmp_path / "nope.json"
    assert main(["play", "--maps", f"99,{missing}", "--slots", "*=random"]) == 2
    assert f"--maps 99,{missing}: unknown map id 99; valid ids: 0-51" in capsys.readouterr().err
