"""A selected unit that dies leaves the view (a dead unit is in no observation, RULES 5.2): the
Agent panel says it is dead (public, 5.6), when its team's wave brings it back (the wave
clocks are public, 5.4, 4.2) and when it died only where this view's log told that death.

The replay is the `app` fixture's, synthetic_replay(40, seed=4): Agent A4 sees Rogue B3 at
tick 20 and sees it die in that tick; Agent A3 does not see Hunter B2 die in tick 28 and sees
it again at tick 34; Agent A3 itself dies in tick 27."""

import numpy as np
import pygame

from replay_viewer import layout as L
from tests.helpers import sdl_queue
from tests.helpers.viewer import click, frame


def press(app, key, char="", times=1):
    for _ in range(times):
        sdl_queue.post_key(key, char)
        frame(app)


def goto(app, tick: int) -> None:
    """g, the tick typed, Enter: the tick box, as a person jumps to a tick."""
    press(app, pygame.K_g, "g")
    for ch in str(tick):
        press(app, ord(ch), ch)
    press(app, pygame.K_RETURN)
    assert app.model.tick == tick


def select_at(app, slot: int) -> None:
    """A left click on `slot`'s body in the arena, where the view draws it now."""
    unit = app.model.scene().unit(slot)
    assert unit is not None and not unit.relayed, "the view must draw the unit to click it"
    for event in click(app.renderer.world_to_screen(unit.pos, L.ARENA)):
        pygame.event.post(event)
    frame(app)
    assert app.model.selected == slot and app.side.tab == "agent"


def back_at(replay, slot: int, state: int) -> int:
    """The first state after `state` in which `slot` is alive again."""
    return state + int(np.argmax(replay.states["alive"][state:, slot]))


def test_a_seen_death_is_told_with_its_tick_and_the_wave_that_brings_it_back(app):
    pygame.event.clear()
    press(app, pygame.K_4, "4")  # Agent A4's point of view
    goto(app, 20)
    select_at(app, 8)
    press(app, pygame.K_RIGHT)
    model = app.model
    assert model.view == ("agent", 4) and model.tick == 21 and 8 not in model.known(21)
    back = back_at(model.replay, 8, 21)
    assert back == 25 and int(model.state(21)["wave_clock"][1]) + 1 == 4
    assert model.agent_lines(8) == [
        "Rogue B3 is dead (public, RULES 5.6): this view holds none of its state (5.2).",
        "It died in tick 20 (state 20 -> 21).",
        "Team B's next wave brings it back, shielded, in 4 ticks (state 25).",
        "Click a unit shown in this view to select it.",
        "Keys 0-9 switch to another agent's point of view, o back to the Oracle.",
    ]
    assert "Rogue B3 died" in model.log_lines(21)  # the log told the same death
    press(app, pygame.K_RIGHT)
    assert model.agent_lines(8)[2].endswith("in 3 ticks (state 25).")  # the clock counts down


def test_an_unseen_death_is_not_dated(app):
    pygame.event.clear()
    press(app, pygame.K_3, "3")  # Agent A3's point of view
    goto(app, 34)
    select_at(app, 7)
    press(app, pygame.K_LEFT, times=5)  # back to tick 29, the state after B2's death
    model = app.model
    assert model.tick == 29 and model.replay.events["died"][28, 7]
    assert not model.state(29)["alive"][7] and back_at(model.replay, 7, 29) == 30
    lines = model.agent_lines(7)
    assert lines[:3] == [
        "Hunter B2 is dead (public, RULES 5.6): this view holds none of its state (5.2).",
        "This view did not see it die.",
        "Team B's next wave brings it back, shielded, in 1 tick (state 30).",
    ]
    assert not any("B2 died" in line for line in model.log_lines(29))  # nor did its log
    press(app, pygame.K_o, "o")  # the Oracle knows every unit: the panel shows B2's state
    assert model.agent_lines(7)[0] == "Hunter B2" and "(dead)" in model.agent_lines(7)[2]


def test_an_agent_is_told_its_own_death(app):
    pygame.event.clear()
    press(app, pygame.K_3, "3")
    goto(app, 27)
    select_at(app, 3)
    press(app, pygame.K_RIGHT)
    model = app.model
    assert model.tick == 28 and 3 not in model.known(28)  # a dead agent sees nothing
    assert back_at(model.replay, 3, 28) == 30
    assert model.agent_lines(3)[:3] == [
        "Rogue A3 is dead (public, RULES 5.6): this view holds none of its state (5.2).",
        "It died in tick 27 (state 27 -> 28).",
        "Team A's next wave brings it back, shielded, in 2 ticks (state 30).",
    ]


def test_a_unit_alive_out_of_sight_is_not_named(app):
    pygame.event.clear()
    press(app, pygame.K_3, "3")
    goto(app, 34)
    select_at(app, 7)
    model = app.model
    gone = next(t for t in range(33, 29, -1) if 7 not in model.known(t))
    goto(app, gone)
    assert model.state(gone)["alive"][7]
    assert model.agent_lines(7)[0].startswith("The selected unit is out of this view's sight")
    assert "B2" not in " ".join(model.agent_lines(7))
