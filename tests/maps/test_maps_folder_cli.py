"""`mbg maps list / validate` see every JSON file in maps/, not only the 52 shipped maps;
`mbg maps show / validate FILE` check a file's id against the folder."""

import json

import pytest

from cli.main import main
from engine import maps as M


def custom_doc(map_id: int, name: str, **changes) -> dict:
    doc = json.loads(M.map_path(5).read_text())
    doc.pop("preview", None)
    doc.update(id=map_id, split="custom", team_size=None, name=name, **changes)
    return doc


@pytest.fixture
def folder(tmp_path, monkeypatch):
    """A maps/ folder: the 52 shipped files (links) and a user's two maps and one broken file."""
    for path in sorted(M.MAPS_DIR.glob("*.json")):
        (tmp_path / path.name).symlink_to(path)
    (tmp_path / "052_mine.json").write_text(json.dumps(custom_doc(52, "Mine")))
    (tmp_path / "arena.json").write_text(json.dumps(custom_doc(53, "Arena")))
    (tmp_path / "broken.json").write_text(json.dumps(custom_doc(54, "Broken", red_zone=[0, 0])))
    monkeypatch.setattr(M, "MAPS_DIR", tmp_path)
    M.clear_map_caches()
    yield tmp_path
    M.clear_map_caches()


def run(capsys, *argv):
    code = main(["maps", *argv])
    out, err = capsys.readouterr()
    return code, out, err


BROKEN = "field 'red_zone': expected a list of 4 numbers, got [0, 0]"


def test_list_shows_the_added_files_as_custom(folder, capsys):
    code, out, err = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert len(rows) == 54 and [r["id"] for r in rows[-2:]] == [52, 53]
    assert [(r["name"], r["split"], r["file"]) for r in rows[-2:]] == [
        ("Mine", "custom", "052_mine.json"),
        ("Arena", "custom", "arena.json"),
    ]
    assert code == 1  # the broken file is named, not silently left out
    assert (
        err.strip()
        == f"mbg maps list: skipped {folder / 'broken.json'}: {BROKEN} (see mbg maps validate)"
    )


def test_list_of_the_custom_split_alone(folder, capsys):
    code, out, _ = run(capsys, "list", "--split", "custom", "--json")
    assert code == 1 and [r["id"] for r in json.loads(out)] == [52, 53]
    code, out, _ = run(capsys, "list", "--split", "custom")
    assert "Arena" in out and "arena.json" in out and "Keep" not in out


def test_validate_goes_through_every_json_file(folder, capsys):
    code, out, _ = run(capsys, "validate")
    assert code == 1
    assert f"ok    {folder / 'arena.json'}  (map 53 (custom), 7 obstacles)" in out
    assert f"ok    {folder / '052_mine.json'}  (map 52 (custom)" in out
    assert f"FAIL  {folder / 'broken.json'}: {BROKEN}" in out
    assert out.strip().endswith("54 of 55 map files valid")


def test_validate_checks_names_and_ids_in_the_folder(folder, capsys):
    (folder / "060_wrong.json").write_text(json.dumps(custom_doc(61, "Wrong")))
    keep = json.loads(M.map_path(47).read_text())
    keep["obstacles"] = keep["obstacles"][:-1]
    (folder / "keep_edit.json").write_text(json.dumps(keep))
    (folder / "mine_too.json").write_text(json.dumps(custom_doc(52, "Mine again")))
    code, out, _ = run(capsys, "validate")
    assert code == 1
    wrong = f"FAIL  {folder / '060_wrong.json'}: field 'id': the file name says map 60, the field"
    assert wrong in out
    assert f"FAIL  {folder / 'keep_edit.json'}: field 'id': 47 is the id of 047_keep.json" in out
    assert f"ok    {folder / 'mine_too.json'}" in out  # the same layout as 052_mine.json
    assert f"ok    {folder / '047_keep.json'}" in out  # the shipped file keeps its id
    assert out.strip().endswith("55 of 58 map files valid")


def test_show_and_validate_a_file_given_by_path(tmp_path, capsys):
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(custom_doc(60, "Mine")))
    code, out, _ = run(capsys, "show", str(mine))
    assert code == 0 and out.startswith("map 60: Mine (custom, 7 obstacles)")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(custom_doc(60, "Bad", pads=[[1.5, 1.5]] * 4 + [[12, 5]])))
    code, out, _ = run(capsys, "validate", str(mine), str(bad))
    assert code == 1
    assert f"FAIL  {bad}: field 'pads[4]': pads are the west end's: x must be < 10, got 12" in out
    code, _, err = run(capsys, "show", str(bad))
    assert code == 2 and err.strip().startswith(f"mbg maps: error: {bad}: field 'pads[4]'")


def test_custom_selects_the_added_files(folder, capsys):
    from cli.maps import map_specs

    with pytest.raises(M.MapError, match="broken.json: field 'red_zone'"):
        map_specs("custom")
    (folder / "broken.json").unlink()
    assert [s.id for s in map_specs("47,custom")] == [47, 52, 53]
    assert [s.source.name for s in M.load_maps("custom")] == ["052_mine.json", "arena.json"]
    with pytest.raises(ValueError, match="'custom': the added map files; here only ids"):
        M.resolve_maps("custom")
