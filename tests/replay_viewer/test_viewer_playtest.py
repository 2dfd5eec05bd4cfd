"""Replay Viewer details: slot labels in --view, "n/a"
sorted last, status messages that expire, folder rows that fit the list."""

import math

import polars as pl
import pygame

from evaluation.replay import write_replay
from replay_viewer import layout as L
from replay_viewer.app import MESSAGE_SECONDS, RESTING_HINT, App
from replay_viewer.cli import main
from replay_viewer.folder_list import LIST_ROOM
from replay_viewer.metrics_table import MetricsTable
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame, key


def test_view_takes_the_slot_labels_both_apps_show(tmp_path, display):
    path = write_replay(tmp_path / "g.mbgr", synthetic_replay(6, seed=3))
    by_label, by_number = tmp_path / "label.png", tmp_path / "number.png"
    assert (
        main([str(path), "--tick", "4", "--view", "agent:B3", "--screenshot", str(by_label)]) == 0
    )
    assert (
        main([str(path), "--tick", "4", "--view", "agent:8", "--screenshot", str(by_number)]) == 0
    )
    first, second = (pygame.image.load(str(p)) for p in (by_label, by_number))
    assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(second, "RGB")


def test_sorting_values_puts_n_a_last_both_ways():
    frame_ = pl.DataFrame(
        {
            "topic": ["t"] * 4,
            "metric": ["t.a", "t.b", "t.c", "t.d"],
            "source": [""] * 4,
            "target": [""] * 4,
            "value": [2.0, math.nan, 7.0, None],
            "hay": ["a", "b", "c", "d"],
        }
    )
    table = MetricsTable(frame_)
    table.toggle_sort("value")  # largest first
    assert table.rows["metric"].to_list() == ["t.c", "t.a", "t.b", "t.d"]
    table.toggle_sort("value")  # smallest first
    assert table.rows["metric"].to_list()[:2] == ["t.a", "t.c"]


def test_a_status_message_gives_way_to_the_resting_hint(app):
    frame(app, [key(pygame.K_s)])
    assert app.message == "Overlay sight: on"
    frame(app, dt=MESSAGE_SECONDS / 2)
    assert app.message == "Overlay sight: on"
    frame(app, dt=MESSAGE_SECONDS / 2 + 0.1)
    assert app.message == RESTING_HINT[1]


def test_folder_rows_fit_the_list(tmp_path, display):
    long = "tournament_round07_checkpoint-vs-scripted-kiter_" + "very_long_name_" * 6
    for k in range(3):
        write_replay(tmp_path / f"{long}{k}.mbgr", synthetic_replay(2, seed=k))
    app = App(L.SIZE)
    assert app.open_path(tmp_path)
    font = app.manager.get_theme().get_font(["selection_list.@selection_list_item"])
    rows = [item["text"] for item in app.list_widget.item_list]
    assert len(rows) == 3 and all("..." in r for r in rows)
    assert all(font.size(r)[0] <= L.LIST[2] - LIST_ROOM for r in rows)
    assert [r.split()[0] for r in rows] == ["1", "2", "3"] and rows[0].endswith("ticks")


def test_both_apps_number_the_same_moment_alike(tmp_path):
    from battleclient.panels import tick_heading as client_heading
    from replay_viewer.model import ViewerModel
    from replay_viewer.panels import info_lines, log_history

    replay = synthetic_replay(12, seed=2)
    replay.states["outcome"][-1] = 1  # the game ended with its last tick, tick 11
    model = ViewerModel(replay, "g.mbgr")
    for t, over in ((0, False), (5, False), (12, True)):
        model.timeline.seek(t)
        client = client_heading(t, 12, over).lower()
        assert client in info_lines(model)[0].lower(), (t, client)
    model.timeline.seek(5)
    assert log_history(model)[0][0] == "Tick 4 (state 4 -> 5)"  # the client's "Tick 4 resolved"
