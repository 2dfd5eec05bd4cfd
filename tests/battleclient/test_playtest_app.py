"""The BattleClient window: the lobby's "Ready" line while new
rules are typed or queued, and Replay Viewers that would linger as zombie processes."""

import os
import subprocess
import sys

import pygame

from battleclient.app import App
from tests.battleclient.driver import frame, lobby_with_fake_compiles, setup, wait_for
from tests.helpers import sdl_queue


def post_click(app, pos):
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        pygame.event.post(pygame.event.Event(kind, pos=pos, button=1))
    frame(app)


def post_key(app, key, char=""):
    """One key through SDL's queue (tests.helpers.sdl_queue), then a frame."""
    sdl_queue.post_key(key, char)
    frame(app)


def test_the_lobby_never_says_ready_for_rules_not_compiled(monkeypatch, display):
    compiled, jobs = {6}, []
    app = lobby_with_fake_compiles(monkeypatch, compiled, jobs)
    try:
        lobby = app.screen
        line = lambda: app.progress_text(lobby.rules_shown())  # noqa: E731
        assert line() == "Ready: the engine is compiled for Max ticks 6"
        pygame.event.clear()
        post_click(app, lobby.entries["horizon"].rect.center)
        post_key(app, pygame.K_BACKSPACE)
        for ch in "50":
            post_key(app, ord(ch), ch)
        assert lobby.entries["horizon"].get_text() == "50" and jobs == []
        assert line().startswith("Not compiled yet for Max ticks 50")
        post_key(app, pygame.K_RETURN)
        wait_for(app, lambda: jobs, 60)
        assert line() == "Compiling the engine for Max ticks 50: waiting for the engine thread"
        compiled.add(50)
        assert line() == "Ready: the engine is compiled for Max ticks 50"
    finally:
        app.close()


def test_a_closed_replay_viewer_is_reaped(display, tmp_path):
    app = App(setup(), start=False, warm=False)
    app.launch = lambda command, **kw: subprocess.Popen([sys.executable, "-c", "pass"], **kw)
    try:
        assert app.open_viewer(tmp_path / "game.mbgr").startswith("Opening")
        process = app.viewers[0]
        # the player closed it: wait for its exit without reaping it (the app must)
        os.waitid(os.P_PID, process.pid, os.WEXITED | os.WNOWAIT)
        frame(app)
        assert app.viewers == [] and process.returncode == 0
    finally:
        app.close()
