"""What a point of view is told about a kill, driven as a person drives the viewer (SDL events
through the queue): the death (public, RULES 5.6) and what its observations hold, never who dealt
the lethal damage (no observation holds damage to a unit dead after the tick, and the game never
attributes a kill, RULES 4 step 16). The Oracle view still names them."""

import numpy as np
import pygame

from evaluation.replay import write_replay
from replay_viewer import layout as L
from replay_viewer import story
from replay_viewer.app import App
from replay_viewer.timeline import mark_x, slider_track
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import click, frame, key, motion, post
from ui.rules import unit_name


def kill_with_assists(tmp_path):
    """A replay whose first death has three lethal sources on the killing team, the agent
    `pov` among them; `pov` also hit the victim with 17.25 damage that tick.
    Returns (app, tick index into events, victim, pov, killers)."""
    replay = synthetic_replay(40, seed=4)
    t, victim = (int(v) for v in np.argwhere(replay.events["died"])[0])
    enemies = [s for s in range(10) if s // 5 != victim // 5]
    killers, pov = enemies[:3], enemies[1]
    ev = replay.events
    ev["lethal"][t, :, victim] = False
    ev["lethal"][t, killers, victim] = True
    ev["lane"][t, pov], ev["recipient"][t, pov] = 1, victim
    for name in ("damage_raw", "damage_source", "damage_recipient", "damage_realised"):
        ev[name][t, pov, victim] = 17.25
    app = App(L.SIZE)
    assert app.open_path(write_replay(tmp_path / "assists.mbgr", replay))
    return app, t, victim, pov, killers


def strip_point(app, mark):
    x = mark_x(mark.tick, app.model.ticks, slider_track(app.slider, L.SCRUB))
    return x, L.MARKS[1] + L.MARKS[3] // 4 + mark.team * (L.MARKS[3] // 2)


def test_agent_pov_kill_lines_name_no_lethal_sources(display, tmp_path):
    app, t, victim, pov, killers = kill_with_assists(tmp_path)
    cls = [int(c) for c in app.model.replay.states["class_id"][0]]
    names = [unit_name(k, cls[k]) for k in killers]
    victim_name = unit_name(victim, cls[victim])
    pygame.event.clear()
    frame(app)
    # the Oracle: a click on the death's mark jumps there; its tooltip names the killers
    death = next(m for m in story.game_marks(app.model) if m.kind == "death")
    assert death.tick == t + 1 and death.text.startswith(f"{names[0]}, {names[1]} and")
    post(app, *click(strip_point(app, death)))
    assert app.model.tick == t + 1
    assert any("lethal damage: " + ", ".join(names) in line for line in app.model.log_lines())
    # the killing agent's point of view (key 0-9), at the same tick
    post(app, key(pygame.K_0 + pov, unicode=str(pov)))
    assert app.model.view == ("agent", pov)
    x, y = strip_point(app, death)
    post(app, motion((x, y)))
    tooltip = app.hover_lines((x, y))
    feed = [m.text for m in story.kill_feed(app.model)]
    log = app.model.log_lines()
    told = tooltip + feed + log
    assert f"{victim_name} died" in tooltip and feed[0].startswith(f"{victim_name} died"), told
    assert any(line.startswith(f"{victim_name} died") for line in log), log
    seen = set(np.flatnonzero(app.model.masks(t + 1)[0]).tolist())
    for line in told:
        assert "killed" not in line and "lethal" not in line, line
        if victim_name not in line:
            continue
        named = [k for k, n in zip(killers, names, strict=True) if n in line]
        if line.startswith(f"{victim_name} died"):
            assert not named, line
        else:  # a unit seen after the tick: its chosen target is in its observed row (5.5)
            assert all(k in seen for k in named) and line.endswith("who died this tick"), line
    # its own attack: the target it chose (observed, 5.5) and the public death, no amounts
    own = [line for line in log if line.startswith(unit_name(pov, cls[pov]))]
    assert own == [own[0]] and own[0].endswith(f"{victim_name}, who died this tick"), log
    assert "17" not in "\n".join(log) and "out of view" not in own[0]
