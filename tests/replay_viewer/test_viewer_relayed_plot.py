"""The health plot's tooltip agrees with the board in a point of view: a unit known only from a
relayed row shows that row's health marked relayed (RULES 5.7), one the view never received
"?"; a quiet tick reads "Nothing happened this tick." only in the Oracle view.

synthetic_replay(40, seed=4) (the app fixture): at state 6 agent A0 has Priest B4 (slot 9,
100 HP at state 5) only as a relayed row; at state 5 it had no row of B4 at all. Transition 1
is quiet for everyone; at state 19 A0 is dead, so its view sees nothing of what happened.
"""

import pygame

from replay_viewer import layout as L
from replay_viewer.panels import tooltip_lines
from tests.helpers.viewer import motion, post

B4 = 9


def health_hover(app, index):
    rect = pygame.Rect(L.PLOTS["health"])
    area = pygame.Rect(rect.x + 4, rect.y + 16, rect.width - 8, rect.height - 20)
    x = area.x + round(index * area.width / app.model.ticks)
    post(app, motion((x, area.centery)))
    return app.hover_lines((x, area.centery))


def test_a_relayed_unit_shows_its_relayed_health_in_the_plot_tooltip(app):
    app.model.set_view(("agent", 0))
    app.model.timeline.seek(6)
    lines = health_hover(app, 6)
    assert lines[0].startswith("Health, state 6")
    cells = lines[1].split(", ")
    assert "B4 100 (relayed)" in cells and "A0 80" in cells
    assert "B0 ?" in cells  # never received by A0 by then
    unit = app.model.scene().unit(B4)
    assert unit.relayed and tooltip_lines(unit)[:2] == ["Priest B4 (relayed, last tick)",
                                                        "health 100/100"]  # fmt: skip
    app.model.timeline.seek(5)
    assert "B4 ?" in health_hover(app, 5)[1].split(", ")  # no row of B4 at state 5


def test_quiet_ticks_say_what_the_view_knows(app):
    model = app.model
    model.set_view("oracle")
    assert model.log_lines(1) == ["Nothing happened this tick."]
    assert model.log_lines(19) != ["Nothing happened this tick."]
    model.set_view(("agent", 0))
    assert model.log_lines(1) == ["Nothing this view could see happened."]
    assert model.log_lines(19) == ["Nothing this view could see happened."]
