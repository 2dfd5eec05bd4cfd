"""The timeline that tells the story, driven as a person drives it (SDL events through the
queue): marks for deaths, Ultimates and points, hover names them, a click jumps; the kill feed;
the plots' hover values and click-to-seek."""

import numpy as np
import pygame
import pytest

from replay_viewer import layout as L
from replay_viewer import story
from replay_viewer.timeline import mark_x, slider_track
from tests.helpers.viewer import click, frame, motion, post
from ui.rules import hp_text


def test_oracle_marks_are_every_death_ultimate_and_score_change(app):
    ev = app.model.replay.events
    marks = story.game_marks(app.model)
    by_kind = {k: [m for m in marks if m.kind == k] for k in story.KINDS}
    deaths = np.argwhere(ev["died"])  # (transition, victim)
    assert [(m.tick, m.team) for m in by_kind["death"]] == [(t + 1, s // 5) for t, s in deaths]
    ults = np.argwhere(ev["lane"] == 2)
    assert [(m.tick, m.team) for m in by_kind["ultimate"]] == [(t + 1, s // 5) for t, s in ults]
    points = np.argwhere(ev["score_delta"] != 0)
    assert [(m.tick, m.team) for m in by_kind["score"]] == [(t + 1, k) for t, k in points]
    t, k = points[0]
    a, b = app.model.replay.states["score"][t + 1]
    assert by_kind["score"][0].text == f"+{ev['score_delta'][t][k]} Team {'AB'[k]} (A {a} : B {b})"


def test_a_point_of_view_has_only_past_marks(app):
    app.model.set_view(("agent", 2))
    app.model.timeline.seek(10)
    marks = story.game_marks(app.model)
    assert marks and max(m.tick for m in marks) <= 10
    app.model.set_view("oracle")
    every = {(m.tick, m.kind, m.team) for m in story.game_marks(app.model)}
    assert {(m.tick, m.kind, m.team) for m in marks} <= every


def _first_death(app):
    return next(m for m in story.game_marks(app.model) if m.kind == "death")


def test_hover_names_a_mark_and_a_click_jumps_to_it(app):
    pygame.event.clear()
    frame(app)
    death = _first_death(app)
    x = mark_x(death.tick, app.model.ticks, slider_track(app.slider, L.SCRUB))
    y = L.MARKS[1] + L.MARKS[3] // 4 + death.team * (L.MARKS[3] // 2)
    post(app, motion((x, y)))
    lines = app.hover_lines((x, y))
    assert lines[0].startswith(f"Tick {death.tick - 1} (state {death.tick})")
    assert death.text in lines
    post(app, *click((x, y)))
    assert app.model.tick == death.tick
    assert death.text in app.message
    # the note names the tick as the hover, the log and the strip do: the tick that led there
    assert app.message.startswith(f"Tick {death.tick - 1} (state {death.tick}): ")


def test_the_kill_feed_lists_recent_deaths_newest_first(app):
    death = _first_death(app)
    app.model.timeline.seek(death.tick)
    feed = story.kill_feed(app.model)
    assert feed[0] == death
    app.model.timeline.seek(death.tick - 1)
    assert death not in story.kill_feed(app.model)
    app.model.timeline.seek(min(app.model.ticks, death.tick + story.FEED_TICKS))
    assert death not in story.kill_feed(app.model)  # older than FEED_TICKS: gone


def test_feed_pixels_change_when_a_death_happens(app):
    death = _first_death(app)
    app.model.timeline.seek(death.tick - 1)
    before = frame(app).subsurface(L.FEED).copy()
    app.model.timeline.seek(death.tick)
    after = frame(app).subsurface(L.FEED).copy()
    assert pygame.image.tobytes(before, "RGB") != pygame.image.tobytes(after, "RGB")


@pytest.mark.parametrize("plot", ["health", "score"])
def test_a_click_on_a_plot_seeks_and_hover_gives_values(app, plot):
    pygame.event.clear()
    rect = pygame.Rect(L.PLOTS[plot])
    area = pygame.Rect(rect.x + 4, rect.y + 16, rect.width - 8, rect.height - 20)
    x = area.x + round(30 * area.width / app.model.ticks)  # state 30 of 40
    post(app, motion((x, area.centery)), *click((x, area.centery)))
    assert app.model.tick == 30
    lines = app.hover_lines((x, area.centery))
    assert lines[0].startswith(("Health, state 30", "Score, state 30"))
    if plot == "score":
        a, b = app.model.replay.states["score"][30]
        assert lines[1] == f"A {a}, B {b}"
    else:
        health = app.model.replay.states["health"][30]
        assert lines[1].startswith(f"A0 {hp_text(health[0])}, A1 {hp_text(health[1])}")


def test_a_death_with_many_killers_lists_them_as_english_does(display, tmp_path):
    """Four killers read "Mage B0, Warrior B1, Hunter B2 and Rogue B3 killed ...", not
    "... and Warrior B1 and Hunter B2 and ..."; the kill feed tells it in the same words."""
    from evaluation.replay import write_replay
    from replay_viewer.app import App
    from tests.helpers.replays import synthetic_replay
    from ui.explain import listed
    from ui.rules import unit_name

    replay = synthetic_replay(40, seed=4)
    t, victim = (int(v) for v in np.argwhere(replay.events["died"])[0])
    killers = [s for s in range(10) if s // 5 != victim // 5][:4]
    replay.events["lethal"][t, :, victim] = False
    replay.events["lethal"][t, killers, victim] = True
    viewer = App(L.SIZE)
    assert viewer.open_path(write_replay(tmp_path / "four_killers.mbgr", replay))
    cls = [int(c) for c in replay.states["class_id"][0]]
    a, b, c, d = (unit_name(k, cls[k]) for k in killers)
    text = next(m.text for m in story.game_marks(viewer.model) if m.tick == t + 1)
    assert text.startswith(f"{a}, {b}, {c} and {d} killed {unit_name(victim, cls[victim])}")
    viewer.model.timeline.seek(t + 1)
    assert story.kill_feed(viewer.model)[0].text == text
    assert listed([a, b]) == f"{a} and {b}" and listed([a]) == a and listed([]) == ""
