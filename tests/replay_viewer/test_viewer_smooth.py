"""The viewer's smooth playback and its Video button / e key, driven by SDL events."""

import pygame
import pytest

from evaluation.replay import write_replay
from replay_viewer import layout as L
from replay_viewer.app import App
from replay_viewer.model import SPEEDS
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import click, frame, key


def arena_pixels(surface):
    return pygame.image.tobytes(surface.subsurface(pygame.Rect(L.ARENA)), "RGB")


def test_playing_draws_in_between_frames_and_m_turns_them_off(app):
    app.model.timeline.seek(10)
    paused = arena_pixels(frame(app))
    frame(app, [key(pygame.K_SPACE, unicode=" ")])  # play at the default 4 ticks/s
    assert app.model.timeline.playing and app.model.tick == 10
    gliding = arena_pixels(frame(app, dt=0.125))  # half a tick later
    assert app.model.tick == 10 and app.model.timeline.phase == pytest.approx(0.5)
    assert gliding != paused
    frame(app, [key(pygame.K_m, unicode="m")])
    assert "Smooth playback: off" in app.message
    app.model.timeline.seek(10)
    app.model.timeline.playing = True
    frame(app, dt=0.125)
    assert arena_pixels(frame(app)) == paused  # the tick itself, no in-between frame


def test_every_speed_preset_still_plays_with_in_between_frames(app):
    for index, speed in enumerate(SPEEDS):
        app.model.timeline.seek(5)
        app.model.timeline.speed_index = index
        app.model.timeline.playing = True
        frame(app, dt=1.5 / speed)  # one and a half ticks of playback
        assert app.model.tick == 6 and app.model.timeline.phase == pytest.approx(0.5)
        assert arena_pixels(frame(app)) != arena_pixels(frame(app, dt=0.2 / speed))


def short_game_app(display, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    viewer = App(L.SIZE)
    assert viewer.open_path(write_replay(tmp_path / "short.mbgr", synthetic_replay(3, seed=2)))
    return viewer


def videos(tmp_path):
    folder = tmp_path / "data" / "marl-battlegrounds" / "videos"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_video_button_exports_the_game_in_the_current_view(display, tmp_path, monkeypatch):
    app = short_game_app(display, tmp_path, monkeypatch)
    frame(app, [key(pygame.K_2, unicode="2")])  # agent A2's point of view
    rect = pygame.Rect(dict((b[0], b[2]) for b in L.BUTTONS)["video"])
    frame(app, click(rect.center))
    assert app.video.running and "Exporting" in app.message
    for _ in range(400):
        if not app.video.running:
            break
        frame(app, dt=0.016)
    assert videos(tmp_path) == ["short_t0000-0003_agent-a2.gif"]
    assert "Saved the video" in app.message
    frame(app, [key(pygame.K_e, unicode="e")])  # again: a new name, never over the first
    while app.video.running:
        frame(app, dt=0.016)
    assert videos(tmp_path) == ["short_t0000-0003_agent-a2-2.gif", "short_t0000-0003_agent-a2.gif"]


def test_escape_stops_an_export_and_leaves_no_file(display, tmp_path, monkeypatch):
    app = short_game_app(display, tmp_path, monkeypatch)
    frame(app, [key(pygame.K_e, mod=pygame.KMOD_CTRL)])
    assert app.video.running
    frame(app, dt=0.016)
    frame(app, [key(pygame.K_ESCAPE)])
    assert not app.video.running and "stopped" in app.message
    assert videos(tmp_path) == []
