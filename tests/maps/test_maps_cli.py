"""`mbg maps list / show / validate / atlas` (offscreen pygame)."""

import json
import os

import pytest

from cli.main import main
from engine import maps as M

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def run(capsys, *argv):
    code = main(["maps", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_list_json_has_52_maps_in_four_splits(capsys):
    code, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert code == 0 and len(rows) == 52
    assert [r["id"] for r in rows] == list(range(52))
    counts = {s: sum(r["split"] == s for r in rows) for s in M.SPLITS}
    assert counts == {"curriculum": 12, "train": 30, "validation": 5, "test": 5}
    assert rows[47]["file"] == M.map_path(47).name
    assert rows[0]["team_size"] == 1 and rows[0]["obstacles"] == 0


def test_list_table_of_a_split(capsys):
    code, out, _ = run(capsys, "list", "--split", "test")
    assert code == 0 and "Keep" in out and "Open Field" not in out


def test_show_ascii_and_png(capsys, tmp_path):
    import pygame

    png = tmp_path / "x.png"
    code, out, _ = run(capsys, "show", "47", "--png", str(png), "--scale", "10")
    assert code == 0
    assert out.startswith("map 47: Keep (test, 13 obstacles)")
    assert "\n".join(M.render_ascii(M.load_map(47))) in out
    image = pygame.image.load(str(png))
    assert image.get_size() == (200, 100)
    # The centre pillar (10, 5) is drawn in the pillar colour; a Red Zone pixel is not.
    assert tuple(image.get_at((100, 50)))[:3] == (112, 168, 204)
    assert tuple(image.get_at((5, 5)))[:3] == (78, 38, 44)
    # An existing file is never replaced without --force.
    code, out, err = run(capsys, "show", "47", "--png", str(png))
    assert code == 2 and "exists; pass --force" in err
    assert out == ""  # refused before the map is printed, so the error is not lost above it
    assert run(capsys, "show", "47", "--png", str(png), "--force")[0] == 0


def test_show_a_map_file(capsys):
    code, out, _ = run(capsys, "show", str(M.map_path(3)))
    assert code == 0 and out.startswith("map 3: Centre Wall (curriculum, 2v2, 3 obstacles)")


def test_show_something_neither_id_nor_file_says_so(capsys):
    code, _, err = run(capsys, "show", "abc")
    assert (
        code == 2 and "map 'abc': not a map id (0-51) nor a map file (a path, or NAME.json)" in err
    )


def test_validate_reports_each_file(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": 1}))
    code, out, _ = run(capsys, "validate", str(M.map_path(0)), str(bad))
    assert code == 1
    assert "ok    " in out and f"FAIL  {bad}: field 'id': missing" in out
    assert "1 of 2 map files valid" in out


def test_validate_all_shipped(capsys):
    code, out, _ = run(capsys, "validate")
    assert code == 0 and "52 of 52 map files valid" in out


def test_atlas(capsys, tmp_path):
    import pygame

    png = tmp_path / "atlas.png"
    code, out, _ = run(capsys, "atlas", "--png", str(png), "--maps", "validation")
    assert code == 0 and f"wrote {png}" in out
    width, height = pygame.image.load(str(png)).get_size()
    assert width == 6 * (320 + 12) + 12 and height == (182 + 12) + (22 + 12) + 12


@pytest.mark.parametrize("command", [["atlas", "--maps", "validation"], ["show", "47"]])
def test_png_errors_name_the_option_before_drawing(command, capsys, tmp_path, monkeypatch):
    def never(*args, **kwargs):
        raise AssertionError("drawn before --png was checked")

    monkeypatch.setattr("cli.maps._pygame", never)
    png = tmp_path / "taken.png"
    png.write_bytes(b"keep")
    code, out, err = run(capsys, *command, "--png", str(png))
    assert (code, out) == (2, "")
    assert err == f"mbg maps: error: --png {png}: exists; pass --force to replace it\n"
    assert png.read_bytes() == b"keep"
    code, out, err = run(capsys, *command, "--png", str(tmp_path), "--force")
    assert (code, out) == (2, "")
    assert err == f"mbg maps: error: --png {tmp_path}: is a folder; give a file name\n"
    code, out, err = run(capsys, *command, "--png=")
    assert (code, out, err) == (2, "", "mbg maps: error: --png: is empty; give a path\n")


def test_an_unwritable_png_names_the_option(capsys, tmp_path):
    parent = tmp_path / "file"
    parent.write_text("")
    code, _, err = run(capsys, "atlas", "--maps", "validation", "--png", str(parent / "a.png"))
    assert code == 2
    assert err == f"mbg maps: error: --png {parent / 'a.png'}: {parent} is a file, not a folder\n"


@pytest.mark.parametrize("argv", [["show", "99"], ["list", "--split", "dev"]])
def test_bad_arguments_exit_2(capsys, argv):
    code, _, err = run(capsys, *argv)
    assert code == 2 and "mbg maps: error:" in err
