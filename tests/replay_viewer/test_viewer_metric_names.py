"""The Metrics tab shows whole metric names and coded values in words."""

import polars as pl
import pygame
import pytest

from evaluation.replay import write_replay
from evaluation.replay_codec import METRIC_SCHEMA
from replay_viewer import layout as L
from replay_viewer.app import App
from replay_viewer.metric_values import value_text
from replay_viewer.metrics_table import COLUMNS
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame, key

LONG = "teamwork.an_unusually_long_metric_name_that_no_column_could_hold_on_one_line"
ROWS = [
    ("g", "outcome", "outcome.result", -1, -1, 2.0),
    ("g", "outcome", "outcome.terminated", -1, -1, 1.0),
    ("g", "outcome", "outcome.truncated", -1, -1, 0.0),
    ("g", "tempo", "tempo.first_blood_tick", -1, -1, -1.0),
    ("g", "damage", "damage.team_dealt_realised", 0, -1, 842.0),
    ("g", "damage", "damage.team_dealt_realised", 1, -1, 723.5),
    ("g", "positioning", "positioning.team_alone_ticks", 0, -1, 9.0),
    ("g", "positioning", "positioning.team_alone_ticks", 1, -1, 8.0),
    ("g", "teamwork", LONG, 3, -1, 0.25),
]


@pytest.fixture
def shown(display, tmp_path):
    """{metric: [(column, text, font, lines)]} of the Metrics tab as drawn in the Oracle view."""
    replay = synthetic_replay(10, seed=3)
    replay.metrics = pl.DataFrame(ROWS, schema=METRIC_SCHEMA, orient="row")
    replay.header["metrics_level"] = "full"
    viewer = App(L.SIZE)
    assert viewer.open_path(write_replay(tmp_path / "m.mbgr", replay))
    frame(viewer, [key(pygame.K_o, unicode="o")])
    viewer.side.tab = "metrics"
    frame(viewer)
    table, out = viewer.side.table, {}
    widths = [int(f * (L.TABLE[2] - 8)) - 4 for _, f in COLUMNS]
    for (_, row), cells in zip(table.row_rects, table.cells, strict=True):
        for (column, _), value, (font, lines), width in zip(
            COLUMNS, row, cells, widths, strict=True
        ):
            assert all(font.size(line)[0] <= width for line in lines), (column, lines)
            out.setdefault(row[0], []).append((column, value, "".join(lines), len(lines)))
    return out


def test_metric_names_are_whole_even_when_they_wrap(shown):
    assert len(shown) == 7  # every row drawn
    for metric, cells in shown.items():
        assert all(text == metric for column, _, text, _ in cells if column == "metric")
    assert [c[3] for c in shown[LONG] if c[0] == "metric"] == [3]  # wrapped onto three lines
    names = [c for c in shown["damage.team_dealt_realised"] if c[0] == "metric"]
    assert names == [("metric", "damage.team_dealt_realised", "damage.team_dealt_realised", 1)] * 2


def test_coded_values_are_words(shown):
    def value(metric):
        return [c[2] for c in shown[metric] if c[0] == "value"]

    assert value("outcome.result") == ["B wins"]
    assert value("outcome.terminated") == ["yes"] and value("outcome.truncated") == ["no"]
    assert value("tempo.first_blood_tick") == ["never"]
    assert value("damage.team_dealt_realised") == ["842", "724"]  # 723.5 rounds half to even
    assert value(LONG) == ["0.25"]


@pytest.mark.parametrize(
    ("metric", "value", "text"),
    [
        ("outcome.result", 0, "ongoing"),
        ("outcome.result", 1, "A wins"),
        ("outcome.result", 3, "draw"),
        ("outcome.result", 7, "code 7"),
        ("outcome.ticks", 40, "40"),
        ("deaths.first_tick", 12, "12"),
        ("deaths.first_tick", float("nan"), "n/a"),
        ("outcome.points", 0.5, "0.5"),
    ],
)
def test_value_text(metric, value, text):
    assert value_text(metric, value) == text
