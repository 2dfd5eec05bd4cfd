"""A fresh status is named once over a unit: while the resolution's in-between frames mark it
under the unit (ui.animation), the BattleClient's status float above it waits; afterwards the
float alone names it, with one word for a Trap and a Poison stun landing together."""

from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pygame

from battleclient import layout as L
from battleclient.resolution import TWEEN_S, draw_resolution
from battleclient.session import Snapshot
from battleclient.views import ORACLE, fair_scene
from evaluation.replay import read_replay
from ui.animation import HALF
from ui.arena import ArenaRenderer
from ui.scene import FloatText

# map 47, tactician vs kiter; transition 50 Traps and Poison-stuns B1 (slot 6) at once
REAL = (
    Path(__file__).resolve().parents[1] / "fixtures" / "replays" / "v1_real_5v5_full_metrics.mbgr"
)


def snapshot(replay, t: int) -> Snapshot:
    """State t of the replay as the play screen gets it (Oracle view: no masks needed)."""
    state = {k: np.asarray(v[t]) for k, v in replay.states.items()}
    prev = {k: np.asarray(v[t - 1]) for k, v in replay.states.items()} if t else None
    events = {k: np.asarray(v[t - 1]) for k, v in replay.events.items()} if t else None
    none = np.zeros((10, 10), bool)
    return Snapshot(state, prev, events, none, none, np.zeros((10, 9), bool), np.zeros(0))


class Recording(ArenaRenderer):
    """The shared renderer, keeping the floats of every Scene it draws."""

    def __init__(self):
        super().__init__()
        self.drawn = []

    def draw(self, surface, scene, rect):
        self.drawn.append(scene.floats)
        return super().draw(surface, scene, rect)


def test_a_double_stun_floats_once_and_never_beside_the_resolution_marks(display):
    replay = read_replay(REAL)
    snap, prior = snapshot(replay, 51), snapshot(replay, 50)
    scene, before = fair_scene(snap, ORACLE), fair_scene(prior, ORACLE)
    status = [f for f in scene.floats if f.kind == "status"]
    assert FloatText(6, "slow trap anti-heal", "status") in status  # one stun word, not two
    renderer = Recording()
    app = SimpleNamespace(animate=True, small=renderer.font(16))
    screen = SimpleNamespace(phase="orders", paused=True, speed_index=0, snap=snap, app=app,
                             renderer=renderer, logs={}, viewer_key=ORACLE)  # fmt: skip
    for since, floated in ((0.8 * TWEEN_S, False), (1.2 * TWEEN_S, True)):
        assert since / TWEEN_S >= HALF  # the half that marks statuses, then after the tween
        screen.since, renderer.drawn = since, []
        draw_resolution(pygame.Surface(L.SIZE), screen, scene, before)
        (floats,) = renderer.drawn
        assert any(f.kind == "damage" for f in floats)  # the numbers show either way
        assert (FloatText(6, "slow trap anti-heal", "status") in floats) == floated
        assert floated or not any(f.kind == "status" for f in floats)
