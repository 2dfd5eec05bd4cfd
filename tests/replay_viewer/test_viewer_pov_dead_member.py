"""A view's own dead members (RULES 5.2, 5.6, 5.7): a dead agent sees nothing, not even itself,
and no teammate sees it, so no observation of the view holds its state; only a relayed row of
the tick before does. The Replay Viewer must show exactly that: that it is dead (public), not its
corpse, Ultimate cooldown or statuses, on the board, the tooltip, the panels or the plots."""

import copy

import numpy as np
import pygame
import pytest

from evaluation.replay import Replay, write_replay
from replay_viewer import layout as L
from replay_viewer.app import App
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import demo_metrics, frame

TABS = ("log", "agent", "metrics", "heat")


def members(view) -> np.ndarray:
    out = np.zeros(10, bool)
    if view[0] == "agent":
        out[view[1]] = True
    else:
        out[5 * view[1] : 5 * view[1] + 5] = True
    return out


def observed_rows(replay: Replay, view) -> np.ndarray:
    """(T+1, 10) bool: slots whose state some observation of the view holds, straight from the
    recorded masks (RULES 5.2, 5.7): seen directly at t by a living member, or relayed at t+1
    (a relayed row shows state t)."""
    observers = members(view)[None, :] & replay.states["alive"]  # (T+1, 10)
    direct = (replay.visible & observers[:, :, None]).any(axis=1)
    relay = (replay.relayed & observers[:, :, None]).any(axis=1)
    shown = direct.copy()
    shown[:-1] |= relay[1:]
    return shown


def dead_member_ticks(replay: Replay, view) -> list[tuple[int, int]]:
    """(tick, slot) of the view's members dead at tick and held by no observation of it."""
    dead = members(view)[None, :] & replay.states["active"] & ~replay.states["alive"]
    hidden = dead & ~observed_rows(replay, view)
    return [(int(t), int(s)) for t, s in zip(*np.nonzero(hidden), strict=True)]


def dead_twin(replay: Replay, view) -> Replay:
    """A copy whose view's dead, unobserved members have another corpse position, Ultimate
    cooldown and statuses."""
    twin = copy.deepcopy(replay)
    s = twin.states
    for t, slot in dead_member_ticks(replay, view):
        s["pos"][t, slot] = np.clip(s["pos"][t, slot] + [1.3, -0.9], 0.5, [19.5, 9.5])
        s["cooldown"][t, slot] += 5
        s["status"][t, slot, 4] += 3
    return twin


def open_app(replay: Replay, folder) -> App:
    folder.mkdir()
    replay.metrics = demo_metrics(replay)
    app = App(L.SIZE)
    assert app.open_path(write_replay(folder / "game.mbgr", replay))
    return app


def frames(app: App, view, cases, corpses: np.ndarray) -> list[bytes]:
    """Every tab at each (tick, dead slot), the dead slot selected and the mouse on its corpse
    in `corpses` ((T+1, 10, 2) positions of one game, the same for both apps: the tooltip)."""
    app.model.set_view(view)
    out = []
    for t, slot in cases:
        app.model.timeline.seek(t)
        app.model.selected = slot
        corpse = app.renderer.world_to_screen(corpses[t, slot], L.ARENA)
        for tab in TABS:
            app.side.tab = tab
            move = pygame.event.Event(pygame.MOUSEMOTION, pos=corpse, rel=(0, 0), buttons=(0,) * 3)
            out.append(pygame.image.tobytes(frame(app, [move]), "RGB"))
    return out


@pytest.mark.parametrize("view", [("team", 0), ("team", 1), ("agent", 4)])
def test_a_dead_members_state_is_not_shown(display, tmp_path, view):
    base = synthetic_replay(24, seed=4)
    cases = dead_member_ticks(base, view)
    assert cases, "the test needs a dead, unobserved member"
    pos = base.states["pos"]
    first = open_app(base, tmp_path / "a")
    second = open_app(dead_twin(base, view), tmp_path / "b")
    assert frames(first, view, cases, pos) == frames(second, view, cases, pos)
    first.model.set_view(view)
    unseen = 0
    for t, slot in cases:
        first.model.timeline.seek(t)
        assert np.isnan(first.model.health_series()[t, slot])
        unit = first.model.scene().unit(slot)
        if unit is not None:  # relayed: as a living teammate saw it last tick (RULES 5.7)
            assert unit.relayed and unit.alive
            assert unit.cooldown == base.states["cooldown"][t - 1, slot]
            continue
        unseen += 1
        lines = " ".join(first.model.agent_lines(slot))
        assert "ready" not in lines and "Statuses" not in lines  # no cooldown, no statuses
    assert unseen > 0
    # the twin really differs: the Oracle shows the dead units' state
    for app in (first, second):
        app.model.set_view("oracle")
    assert frames(first, "oracle", cases, pos) != frames(second, "oracle", cases, pos)
