"""Map selections on the command line: an unknown id names itself and the valid ids and splits."""

import re

import pytest

from cli.main import _innermost, build_parser, main
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
    code, err = error_of(capsys, "play", "--maps", "99", "--team-a", "random", "--team-b", "random")
    assert code == 2
    assert err.strip() == f"mbg play: error: --maps 99: unknown map id 99; {VALID}"
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
    with pytest.raises(ValueError, match=r"--maps validation,99: unknown map id 99; valid ids"):
        map_ids("validation,99")


def test_play_takes_maps_and_the_older_map_still(capsys):
    """--maps, as in eval, tournament run and crossplay run; --map, its older name, sets the
    same selection, is left out of --help, and an error names --maps."""
    parser = build_parser()
    # its own option string: argparse's prefix match of --maps would take --map too, until
    # another option beginning --map made the prefix ambiguous
    assert "--map" in _innermost(parser, ["play"])._option_string_actions
    parse = parser.parse_args
    assert parse(["play", "--slots", "*=random"]).maps == "validation"
    assert parse(["play", "--map", "48,test", "--slots", "*=random"]).maps == "48,test"
    assert parse(["play", "--map", "48", "--maps", "49", "--slots", "*=random"]).maps == "49"
    code, err = error_of(capsys, "play", "--map", "99", "--slots", "*=random")
    assert code == 2
    assert err.strip() == f"mbg play: error: --maps 99: unknown map id 99; {VALID}"
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    shown = capsys.readouterr().out
    assert "--maps SELECTION" in shown and re.search(r"--map\b", shown) is None


@pytest.mark.parametrize(
    ("command", "default"),
    [
        (["play"], "validation"),
        (["eval"], "validation"),
        (["tournament", "run"], "test"),
        (["crossplay", "run"], "validation"),
        (["maps", "atlas"], "all"),
    ],
)
def test_every_maps_option_is_shown_in_the_same_words(command, default, capsys):
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    shown = " ".join(capsys.readouterr().out.split())  # argparse wraps to the terminal width
    assert f"--maps SELECTION map ids, ranges, splits or map files ({default})" in shown


@pytest.mark.parametrize(
    "argv",
    [
        ["play", "--slots", "*=random"],
        ["eval", "policies/released/ippo_v1.msgpack", "--vs", "random"],
        ["tournament", "run", "--entrants", "a=random", "b=random", "--out", "{out}"],
        ["crossplay", "run", "--teams", "a=random", "--opponents", "b=random", "--out", "{out}"],
    ],
)
def test_every_maps_option_names_a_bad_selection_in_the_same_words(argv, tmp_path, capsys):
    out = tmp_path / "run"
    code, err = error_of(capsys, *[a.format(out=out) for a in argv], "--maps", "12,99")
    assert code == 2
    assert err.strip().endswith(f": error: --maps 12,99: unknown map id 99; {VALID}")
    assert not out.exists()  # refused before the run folder is made
