"""The Metrics tab by mouse: hide rows of value 0, each metric's definition
on hover, and the rows shown exported to CSV (never over a file)."""

import polars as pl
import pygame

from replay_viewer import layout as L
from replay_viewer.metric_values import definitions
from tests.helpers.viewer import frame
from tests.helpers.viewer import post as viewer_post


def post(app, *events):
    viewer_post(app, *events, frames=2)


def click(app, pos):
    post(
        app,
        pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1),
        pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1),
    )


def metrics_tab(app):
    pygame.event.clear()
    frame(app)
    click(app, app.side.tab_buttons["metrics"].rect.center)
    assert app.side.tab == "metrics"
    return app.side.table


def test_hide_zero_and_csv_export_by_mouse(app, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    table = metrics_tab(app)
    values = table.all["value"]
    zeros = int((values == 0).sum())
    assert zeros > 0, "the test needs rows of value 0"
    click(app, app.side.hide_zero_button.rect.center)
    assert table.rows.height == table.all.height - zeros
    assert (table.rows["value"] != 0).all() and app.side.hide_zero_button.text == "Show 0"
    drawn = [row[0] for _, row in table.row_rects]  # the panel drew the new rows
    assert drawn == table.rows["metric"].to_list()[: len(drawn)] and len(drawn) == table.rows.height
    click(app, app.side.csv_button.rect.center)
    folder = tmp_path / "data" / "marl-battlegrounds" / "metrics"
    written = pl.read_csv(folder / "game_metrics.csv")
    assert written.columns == ["metric", "source", "target", "value"]
    assert written["metric"].to_list() == table.rows["metric"].to_list()
    assert app.message.startswith(f"Saved {table.rows.height} rows to ")
    click(app, app.side.csv_button.rect.center)  # a second export: a new file
    assert sorted(p.name for p in folder.iterdir()) == ["game_metrics-2.csv", "game_metrics.csv"]
    click(app, app.side.hide_zero_button.rect.center)
    assert table.rows.height == table.all.height


def test_hovering_a_row_shows_its_definition(app):
    metrics_tab(app)
    frame(app)
    rect, row = app.side.table.row_rects[0]
    centre = (rect.centerx + L.SIDE_BODY[0], rect.centery + L.SIDE_BODY[1])  # body -> window
    post(app, pygame.event.Event(pygame.MOUSEMOTION, pos=centre, rel=(0, 0), buttons=(0, 0, 0)))
    lines = app.side.hover_lines(app.mouse)
    assert lines == [row[0], definitions()[row[0]]]
