"""The point-of-view leak test (issue 6): two replays that differ only in what a view could not
see give identical POV frames, every panel included; the Oracle frames do differ."""

import copy

import numpy as np
import pygame
import pytest

from evaluation.replay import Replay, write_replay
from replay_viewer import layout as L
from replay_viewer.app import App
from replay_viewer.model import ViewerModel
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import demo_metrics, frame

TABS = ("log", "agent", "metrics", "heat")


def hidden_twin(replay: Replay, view) -> Replay:
    """A copy of `replay` changed only where `view` saw nothing.

    A unit's state at tick k is shown if it is seen at k or relayed at k+1 (a relayed row shows
    the tick before); an event pair is told if either side was known at k or k+1.
    """
    twin = copy.deepcopy(replay)
    direct, relay = ViewerModel(replay).all_masks(view)
    known = direct | relay
    shown = direct.copy()
    shown[:-1] |= relay[1:]
    hidden = ~shown & replay.states["active"]
    s = twin.states
    s["pos"][hidden] = np.clip(s["pos"][hidden] + [0.37, -0.29], 0.5, [19.5, 9.5])
    alive_hidden = hidden & s["alive"]
    s["health"][alive_hidden] = np.maximum(s["health"][alive_hidden] * 0.9, 1.0)
    s["status"][hidden, 4] += 2
    s["cooldown"][hidden] = 7
    around = known[:-1] | known[1:]  # (T, 10) known at either end of transition k
    secret = ~around[:, :, None] & ~around[:, None, :]  # [k, source, recipient]
    for name in ("damage_raw", "damage_source", "damage_recipient", "damage_realised"):
        twin.events[name][secret] *= 1.5
    twin.events["regen"][~around] += 1.0
    return twin


def pov_frames(app, view, ticks):
    out = []
    app.model.set_view(view)
    app.model.overlays |= {"sight", "ranges", "los", "trails"}
    for t in ticks:
        app.model.timeline.seek(t)
        app.model.selected = view[1] * (5 if view[0] == "team" else 1)
        for tab in TABS:
            app.side.tab = tab
            surface = frame(
                app,
                [
                    pygame.event.Event(
                        pygame.MOUSEMOTION, pos=(430, 300), rel=(0, 0), buttons=(0, 0, 0)
                    )
                ],
            )
            out.append(pygame.image.tobytes(surface, "RGB"))
    return out


def open_app(replay, folder):
    app = App(L.SIZE)
    assert app.open_path(write_replay(folder / "game.mbgr", replay))
    return app


@pytest.mark.parametrize("view", [("agent", 2), ("agent", 8), ("team", 1)])
def test_pov_frames_ignore_what_the_view_could_not_see(display, tmp_path, view):
    base = synthetic_replay(24, seed=4)
    base.metrics = demo_metrics(base)
    twin = hidden_twin(base, view)
    twin.metrics = demo_metrics(twin)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = open_app(base, tmp_path / "a"), open_app(twin, tmp_path / "b")
    ticks = [0, 3, 9, 16, 24]
    assert pov_frames(first, view, ticks) == pov_frames(second, view, ticks)
    # the twin really differs: the Oracle frames and metrics are not the same
    oracle = [pov_frames(app, view, ticks) for app in (first, second)]
    first.model.set_view("oracle")
    second.model.set_view("oracle")
    differs = []
    for t in ticks:
        for app in (first, second):
            app.model.timeline.seek(t)
        differs.append(
            pygame.image.tobytes(frame(first), "RGB") != pygame.image.tobytes(frame(second), "RGB")
        )
    assert any(differs) and oracle[0] == oracle[1]
