"""What a human sees: by default its own agents' observation (the agent POV, RULES 5.2, 5.7), so
an enemy only a bot teammate sees arrives a tick late as a relayed row; `--view team` (or the
lobby's *Your view*) shows the whole team's sight at once. Board, log and side panel follow.

The ticks come from tests.helpers.replays.synthetic_replay(40, seed=4), whose masks follow
RULES 5.2 and 5.7: at state 5 Team A's bots see Priest B4 (slot 9) and A0 neither sees it nor
has it relayed; at state 6 A0 has B4 only as a relayed row (its state 5 row, 100 HP), and the
transition into state 6 is B4's Holy Word on Rogue B3.
"""

import json

import pygame
import pytest

from battleclient import layout as L
from battleclient import panels
from battleclient.cli import parse_args, setup_from_args
from battleclient.game_setup import setup_from_dict
from battleclient.session import Snapshot
from battleclient.settings import config_dir
from battleclient.views import fair_scene, log_lines, viewer_label
from tests.battleclient.driver import click, frame, key, post_events, setup, wait_for
from tests.helpers.replays import synthetic_replay

B4 = 9
HUMAN = "A0=human,A1-A4=random,B*=random"


@pytest.fixture(scope="module")
def snaps():
    r = synthetic_replay(40, seed=4)

    def snap(t):
        return Snapshot(
            {k: v[t] for k, v in r.states.items()},
            {k: v[t - 1] for k, v in r.states.items()},
            {k: v[t - 1] for k, v in r.events.items()},
            r.visible[t],
            r.relayed[t],
            None,
            None,
        )

    return {t: snap(t) for t in (4, 5, 6)}, r


def test_the_replay_has_the_tick_this_file_is_about(snaps):
    _, r = snaps
    assert r.visible[5, 1:5, B4].any() and not r.visible[5, 0, B4] and not r.relayed[5, 0, B4]
    assert r.relayed[6, 0, B4] and not r.visible[6, 0, B4]


def test_by_default_a_bots_sighting_reaches_the_human_a_tick_late(snaps):
    by_tick, r = snaps
    agent5, team5 = fair_scene(by_tick[5], (0,)), fair_scene(by_tick[5], (0,), sight="team")
    assert B4 not in agent5.known
    assert team5.unit(B4) is not None and not team5.unit(B4).relayed
    agent6 = fair_scene(by_tick[6], (0,))
    seen = agent6.unit(B4)
    assert seen is not None and seen.relayed
    assert seen.health == pytest.approx(float(r.states["health"][5][B4])) == 100.0
    assert fair_scene(by_tick[6], (0,), sight="team").unit(B4).relayed is False


def test_the_log_tells_what_the_view_saw(snaps):
    by_tick, _ = snaps
    snap6, snap5 = by_tick[6], by_tick[5]
    agent = log_lines(snap6, (0,), fair_scene(snap6, (0,)), fair_scene(snap5, (0,)))
    assert "Rogue B3 was healed by a unit out of view: 200 healing (0 restored)" in agent
    assert not any("Priest B4" in line for line in agent)
    team = log_lines(
        snap6,
        (0,),
        fair_scene(snap6, (0,), sight="team"),
        fair_scene(snap5, (0,), sight="team"),
        "team",
    )
    assert "Priest B4 cast Holy Word on Rogue B3: 200 healing (0 restored)" in team


class Recording:
    """A pygame font that keeps every text it renders."""

    def __init__(self, font, texts):
        self.font, self.texts = font, texts

    def render(self, text, *args):
        self.texts.append(text)
        return self.font.render(text, *args)

    def __getattr__(self, name):
        return getattr(self.font, name)


def side_texts(snap, sight) -> list[str]:
    texts: list[str] = []
    fonts = tuple(Recording(pygame.font.Font(None, size), texts) for size in (20, 16, 26))
    scene = fair_scene(snap, (0,), sight=sight)
    label = viewer_label((0,), sight)
    panels.draw_side(pygame.Surface(L.SIZE), L.SIDE, scene, snap, 300, fonts, label)
    return texts


def test_the_side_panel_names_the_view_and_lists_only_its_units(display, snaps):
    snap5 = snaps[0][5]
    agent, team = side_texts(snap5, "agent"), side_texts(snap5, "team")
    assert "Priest B4" not in agent and "Priest B4" in team
    assert any(t.startswith("View: Team A (A0): your agents' own sight + relayed") for t in agent)
    assert any(t.startswith("View: Team A (A0): the whole team's sight") for t in team)
    relayed = side_texts(snaps[0][6], "agent")
    assert "Priest B4  (relayed: last tick)" in relayed and "100/100" in relayed


def test_view_option_and_setup_field():
    assert setup_from_args(parse_args([]), None).view == "agent"
    assert setup_from_args(parse_args(["--view", "team"]), None).view == "team"
    with pytest.raises(SystemExit):
        parse_args(["--view", "oracle"])
    with pytest.raises(ValueError, match="last_setup.json: setup field 'view': 'oracle' is not"):
        setup_from_dict({"view": "oracle"}, "last_setup.json")


def test_the_play_screen_takes_the_view_from_the_setup(apps):
    app = apps(setup(HUMAN, view="team"))
    wait_for(app, lambda: getattr(app.screen, "snap", None) is not None)
    assert app.screen.sight == "team"
    snap = app.screen.snap
    assert app.screen.scenes[0] == fair_scene(snap, (0,), sight="team")
    plain = apps(setup(HUMAN))
    wait_for(plain, lambda: getattr(plain.screen, "snap", None) is not None)
    assert plain.screen.sight == "agent"
    assert plain.screen.scenes[0] == fair_scene(plain.screen.snap, (0,), sight="agent")


def test_the_lobby_view_menu_chooses_the_view_by_clicks(apps):
    app = apps(setup(HUMAN), start=False)
    frame(app)
    menu = pygame.Rect(L.VIEW_MENU)
    post_events(app, click(menu.center))  # opens the list under the menu
    frame(app)
    listed = app.screen.view.current_state.options_selection_list.item_list_container.elements
    team = next(item for item in listed if item.text == "team")  # where pygame_gui drew it
    assert team.rect.top >= menu.bottom  # below the menu, over the hint, clear of the boxes
    post_events(app, click(team.rect.center))
    frame(app)
    assert app.screen.current_setup().view == "team"
    post_events(app, [key(pygame.K_RETURN)])
    assert type(app.screen).__name__ == "PlayScreen" and app.screen.sight == "team"
    assert json.loads((config_dir() / "last_setup.json").read_text())["view"] == "team"
