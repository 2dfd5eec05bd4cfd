"""`mbg metrics`'s printed table names its replays once: one replay's path in the heading and no
game column; several, each by the shortest end of its path that tells it apart."""

import io

import polars as pl
import pytest

from cli.main import main
from cli.metrics import NAME_CHARS, short_names
from engine.constants import RULES_VERSION
from evaluation.replay import write_replay
from tests.helpers.replays import synthetic_replay

LONG = "a_game_whose_file_name_runs_past_forty_characters.mbgr"


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """Seeds 0 and 1 as `a/game.mbgr`, `b/game.mbgr` and a long name beside them."""
    root = tmp_path_factory.mktemp("named")
    paths = [root / "a" / "game.mbgr", root / "b" / "game.mbgr", root / LONG]
    for seed, path in zip((0, 1, 1), paths, strict=True):
        path.parent.mkdir(exist_ok=True)
        replay = synthetic_replay(ticks=10, seed=seed)
        replay.header["rules_version"] = RULES_VERSION  # no "other rules" warning
        write_replay(path, replay)
    return root, paths


def _rows(out: str) -> list[list[str]]:
    """The column names and the body rows of a printed polars table, as cells."""
    lines = out.splitlines()
    body = lines.index(next(line for line in lines if line.startswith("╞")))
    kept = [lines[body - 3], *(line for line in lines[body + 1 :] if line.startswith("│"))]
    return [[cell.strip() for cell in line.strip("│").split("┆")] for line in kept]


def _value(path, capsys) -> str:
    main(["metrics", str(path), "--search", "given_raw @9", "--format", "csv"])
    (value,) = pl.read_csv(io.StringIO(capsys.readouterr().out))["value"].to_list()
    return str(value)


def test_one_replay_is_named_once_above_the_table(games, capsys):
    root, (first, *_) = games
    expected = _value(first, capsys)  # the CSV keeps the path on each row, for programs
    assert main(["metrics", str(first), "--search", "given_raw"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == f"replay: {first}" and out.count(str(first)) == 1
    header, *rows = _rows(out)
    assert header == ["topic", "metric", "source", "target", "value"]
    assert len(rows) == 10 and [r[2] for r in rows] == [str(s) for s in range(10)]
    assert rows[9] == ["healing", "healing.given_raw", "9", "-1", expected]


def test_several_replays_get_short_distinct_names(games, capsys):
    root, paths = games
    values = [_value(path, capsys) for path in paths]
    assert main(["metrics", *map(str, paths), "--search", "given_raw @9"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == (
        f"replays: 3 under {root} (game: the end of its path that tells it apart)"
    )
    assert str(root) not in "\n".join(out.splitlines()[1:])
    header, *rows = _rows(out)
    assert header[0] == "game"
    elided = "a_game_whose_file_...rty_characters.mbgr"  # elide_path: start and end kept
    assert [(r[0], r[-1]) for r in rows] == list(
        zip(["a/game.mbgr", "b/game.mbgr", elided], values, strict=True)
    )


def test_short_names_by_hand():
    assert short_names(["x/a/g.mbgr", "x/b/g.mbgr", "y/h.mbgr"]) == {
        "x/a/g.mbgr": "a/g.mbgr",
        "x/b/g.mbgr": "b/g.mbgr",
        "y/h.mbgr": "h.mbgr",
    }
    assert short_names(["/r/g.mbgr", "/s/r/g.mbgr"]) == {
        "/r/g.mbgr": "/r/g.mbgr",
        "/s/r/g.mbgr": "s/r/g.mbgr",
    }
    long = short_names([f"runs/{LONG}", "runs/b.mbgr"])[f"runs/{LONG}"]
    assert len(long) == NAME_CHARS and long.endswith("characters.mbgr")
    twins = ["p" * 30 + "1" + "q" * 30, "p" * 30 + "2" + "q" * 30]  # equal once cut
    assert short_names(twins) == {t: t for t in twins}
