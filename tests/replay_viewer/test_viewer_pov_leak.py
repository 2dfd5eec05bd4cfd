"""The point-of-view leak test (RULES 5.2): two replays that differ only in what a view could not
see (or only after the tick shown) give identical POV frames, every panel, the story strip and
the kill feed included; the Oracle frames do differ."""

import copy

import numpy as np
import pygame
import pytest

from evaluation.replay import Replay, write_replay
from evaluation.replay_verify import result_facts
from replay_viewer import layout as L
from replay_viewer import story
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


def unobserved_twin(replay: Replay, view) -> Replay:
    """hidden_twin, also changed in every fact of a transition k -> k+1 that the view's
    observation of state k+1 does not hold (RULES 5.3-5.7): this tick's damage, healing,
    statuses, regeneration and cooldowns of units not seen directly in k+1 (relayed rows show
    state k), and the submitted, rejected and fallback orders of other agents (5.5)."""
    twin = hidden_twin(replay, view)
    direct, relay = ViewerModel(replay).all_masks(view)
    unseen = ~direct[1:]  # (T, 10): not seen directly after transition k
    ev = twin.events
    lost = unseen | ev["died"]  # this tick's damage and healing on the dead: no row (5.2)
    for name in ("damage_raw", "damage_source", "damage_recipient", "damage_realised"):
        ev[name][lost[:, None, :].repeat(10, 1)] *= 1.5
    for name in ("heal_raw", "heal_recipient", "heal_realised"):
        ev[name][lost[:, None, :].repeat(10, 1)] += 2.0
    for name in ("status_applied", "status_refreshed", "status_broken"):
        ev[name][unseen] ^= True
    ev["regen"][unseen] += 1.0
    ev["cooldown_ready"][unseen] ^= True
    own = np.zeros(10, bool)
    own[view[1]] = view[0] == "agent"
    if view[0] == "team":
        own[5 * view[1] : 5 * view[1] + 5] = True
    # deaths of units the view knew at neither end of the tick, and Ultimates of units it
    # did not see directly after it on units it did not see either (story strip, kill feed)
    known = direct | relay
    ev["died"] |= ~(known[:-1] | known[1:]) & replay.states["active"][1:]
    blind = unseen & np.array([[r < 0 or unseen[k, r] for r in row] for k, row in
                               enumerate(ev["recipient"])])  # fmt: skip
    ev["lane"][blind & (ev["lane"] == 2)] = 1
    ev["lane"][blind & (ev["lane"] == 0)] = 2
    ev["rejected"][:, ~own] ^= True
    ev["fallback"][:, ~own] ^= True
    ev["submitted"][:, ~own, 0] = (ev["submitted"][:, ~own, 0] + 1) % 9
    return twin


@pytest.mark.parametrize("view", [("agent", 3), ("team", 1)])
def test_pov_surfaces_say_no_more_than_the_observation(display, tmp_path, view):
    """Board, tooltips, log, Agent panel, metrics and heat-map tabs, the plots, the story strip
    and the kill feed are the same for two games whose only differences the view's
    observations do not hold."""
    base = synthetic_replay(24, seed=4)
    direct, relay = ViewerModel(base).all_masks(view)
    assert (relay & ~direct).any(), "the test needs relayed rows"
    twin = unobserved_twin(base, view)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = open_app(base, tmp_path / "a"), open_app(twin, tmp_path / "b")
    ticks = list(range(0, 25, 2))
    assert pov_frames(first, view, ticks) == pov_frames(second, view, ticks)
    first.model.set_view("oracle")
    second.model.set_view("oracle")
    logs = [[app.model.log_lines(t) for t in ticks] for app in (first, second)]
    assert logs[0] != logs[1]  # the twin really differs where the view was blind
    marks = [story.game_marks(app.model) for app in (first, second)]
    assert len(marks[0]) < len(marks[1])  # ... in deaths and Ultimates too


def future_twin(replay: Replay, tick: int) -> Replay:
    """A copy of `replay` whose game after `tick` goes otherwise: other deaths, Ultimates and
    points in every transition past `tick` (the scores from there on follow the new points)."""
    twin = copy.deepcopy(replay)
    ev, s = twin.events, twin.states
    ev["died"][tick:] = ~ev["died"][tick:] & s["active"][tick + 1 :]
    ev["lane"][tick:] = 2
    ev["score_delta"][tick:] += 1
    s["score"][tick + 1 :] += np.cumsum(
        ev["score_delta"][tick:] - replay.events["score_delta"][tick:], axis=0
    )
    # a game that went otherwise records its own result (else the viewer flags the header)
    twin.header["result"] = {k.split(".")[1]: v for k, v in result_facts(twin).items()}
    return twin


@pytest.mark.parametrize("view", [("agent", 1), ("team", 0)])
def test_a_point_of_view_shows_no_future(display, tmp_path, view):
    """At tick t a view knows nothing of later ticks: its frames at t are the same for two
    games that part after t; in the Oracle view (the whole game) they differ."""
    base = synthetic_replay(24, seed=4)
    twin = future_twin(base, 12)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = open_app(base, tmp_path / "a"), open_app(twin, tmp_path / "b")
    ticks = [0, 6, 12]
    assert pov_frames(first, view, ticks) == pov_frames(second, view, ticks)
    first.model.set_view("oracle")
    second.model.set_view("oracle")
    assert pygame.image.tobytes(frame(first), "RGB") != pygame.image.tobytes(frame(second), "RGB")
