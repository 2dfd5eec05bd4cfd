"""Map files by path: selections mix ids, splits and files; a file's id names one layout."""

import json
import os

import pytest

from engine import maps as M


def custom_doc(**changes) -> dict:
    """Map 5's document turned into a user's map (id 60, split custom)."""
    doc = json.loads(M.map_path(5).read_text())
    doc.pop("preview", None)
    doc.update(id=60, split="custom", team_size=None, name="My Cover")
    doc.update(changes)
    return doc


def write(folder, doc, name="my_map.json"):
    path = folder / name
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    ("part", "expected"),
    [
        ("my_map.json", True),
        ("MY_MAP.JSON", True),
        ("maps/x", True),
        (f"x{os.sep}y", True),
        ("47", False),
        ("12-15", False),
        ("validation", False),
        (47, False),
    ],
)
def test_is_map_path(part, expected):
    assert M.is_map_path(part) is expected


def test_load_maps_takes_a_file_and_mixes_it_with_ids(tmp_path):
    path = write(tmp_path, custom_doc())
    (spec,) = M.load_maps(str(path))
    assert (spec.id, spec.name, spec.split, spec.source) == (60, "My Cover", "custom", path)
    assert spec.num_obstacles == M.load_map(5).num_obstacles
    mixed = M.load_maps(f"validation,{path},47")
    assert [s.id for s in mixed] == [42, 43, 44, 45, 46, 60, 47]
    assert [s.id for s in M.load_maps([path, 3])] == [60, 3]


def test_a_file_keeps_its_commas(tmp_path):
    path = write(tmp_path, custom_doc(), "a,b.json")
    assert [s.id for s in M.load_maps(str(path))] == [60]


def test_a_bad_file_names_the_file_the_field_and_the_value(tmp_path):
    path = write(tmp_path, custom_doc(pads=[[1.5, 1.5]] * 4 + [[12, 5]]))
    with pytest.raises(M.MapError) as error:
        M.load_maps(f"47,{path}")
    expected = f"{path}: field 'pads[4]': pads are the west end's: x must be < 10, got 12"
    assert str(error.value) == expected
    missing = tmp_path / "absent.json"
    with pytest.raises(M.MapError, match=f"^{missing}: cannot read the file: No such file"):
        M.load_maps(str(missing))


def test_a_shipped_id_must_be_the_shipped_map(tmp_path):
    # A copy of map 47 is map 47; an edited copy that keeps id 47 is refused, with the fix.
    keep = json.loads(M.map_path(47).read_text())
    assert M.load_map_path(write(tmp_path, keep, "copy.json")).id == 47
    keep["obstacles"] = keep["obstacles"][:-1]
    edited = write(tmp_path, keep, "edited.json")
    with pytest.raises(M.MapError) as error:
        M.load_maps(str(edited))
    text = str(error.value)
    assert text.startswith(f"{edited}: field 'id': 47 is the id of {M.map_path(47).name} (Keep)")
    assert 'unused id of 52 or more (e.g. 52) and split "custom"' in text


def test_two_layouts_cannot_share_an_id_in_one_selection(tmp_path):
    one = write(tmp_path, custom_doc(), "one.json")
    other = custom_doc(obstacles=custom_doc()["obstacles"][:-1])
    two = write(tmp_path, other, "two.json")
    assert len(M.load_maps([one, one])) == 2  # the same map twice is fine
    with pytest.raises(M.MapError, match=f"{two}: field 'id': 60 is also the id of {one}"):
        M.load_maps([one, two])


def test_resolve_maps_says_a_file_is_not_an_id():
    with pytest.raises(ValueError, match="maps 'my_map.json': a map file; here only ids"):
        M.resolve_maps("my_map.json")
    with pytest.raises(ValueError, match="'x/y.json': a map file"):
        M.resolve_maps("3,x/y.json")


def test_custom_map_files_are_the_extra_json_files(tmp_path, monkeypatch):
    for name in ("000_a.json", "051_b.json", "052_mine.json", "arena.json", "notes.txt"):
        (tmp_path / name).write_text("{}")
    monkeypatch.setattr(M, "MAPS_DIR", tmp_path)
    M.clear_map_caches()
    try:
        names = [p.name for p in M.custom_map_files()]
        assert names == ["052_mine.json", "arena.json"]
        assert M.free_id() == 53
    finally:
        M.clear_map_caches()
