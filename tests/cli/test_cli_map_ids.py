"""Map selections on the command line: an unknown id names itself and the valid ids and splits."""

import pytest

from cli.main import main
from cli.maps import id_ranges, map_ids

VALID = (
    "valid ids: 0-51; splits: curriculum, train, validation, test, custom, all; "
    "or a map file (a path, or NAME.json)"
)
SPLIT_VALID = "valid ids: 0-51; splits: curriculum, train, validation, test, custom, all"


def error_of(capsys, *argv) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def test_play_with_an_unknown_map_names_the_id_and_the_valid_choices(capsys):
    code, err = error_of(capsys, "play", "--map", "99", "--team-a", "random", "--team-b", "random")
    assert code == 2
    assert err.strip() == f"mbg play: error: --map 99: unknown map id 99; {VALID}"
    assert "_*.json" not in err and "maps/" not in err  # no internal file pattern


def test_maps_show_and_list_say_the_same(capsys):
    code, err = error_of(capsys, "maps", "show", "52")
    assert code == 2 and f"map 52: unknown map id 52; {VALID}" in err
    code, err = error_of(capsys, "maps", "list", "--split", "tset")
    assert code == 2 and "--split tset" in err and SPLIT_VALID in err and "file" not in err


def test_map_ids_accepts_ids_ranges_and_splits():
    assert map_ids("47") == [47]
    assert map_ids("3,5,12-14") == [3, 5, 12, 13, 14]
    assert map_ids("validation") == [42, 43, 44, 45, 46]


def test_a_range_lists_each_unknown_id_once():
    with pytest.raises(ValueError) as error:
        map_ids("50-53,53", "--maps")
    assert str(error.value) == f"--maps 50-53,53: unknown map ids 52, 53; {VALID}"


def test_id_ranges():
    assert id_ranges([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8"
    assert id_ranges([]) == ""


def test_a_selection_mixes_splits_ids_and_ranges():
    assert map_ids("validation,47") == [42, 43, 44, 45, 46, 47]
    assert map_ids("1-2,test") == [1, 2, 47, 48, 49, 50, 51]
    with pytest.raises(ValueError, match=r"--map validation,99: unknown map id 99; valid ids"):
        map_ids("validation,99")
