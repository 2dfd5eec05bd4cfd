"""Edges of the BattleClient: move-ring dots past the map, a long replay path on the end
card, a remembered map that is gone, lobby errors in field names, and a busy idle loop."""

from types import SimpleNamespace

import numpy as np
import pygame
import pytest

from battleclient import layout as L
from battleclient import panels
from battleclient.game_setup import ClientSetup
from battleclient.map_catalog import read_catalog, settle_map
from battleclient.orders import OrderBook
from battleclient.play_draw import PlayDrawing, end_score_line, path_lines, replay_lines
from battleclient.wording import player_words
from tests.battleclient.driver import GAME_TICKS, RANDOM, frame, setup, wait_for
from ui.arena import ArenaRenderer
from ui.rules import C


def drawing_with_unit_at(pos):
    """A PlayDrawing over a stand-in screen: Team A's A0 at world `pos`, every move legal."""
    unit = SimpleNamespace(slot=0, pos=pos, alive=True)
    book = OrderBook((0,), np.ones((10, 9), bool), np.ones((10, 11, 2), bool), 0)
    font = pygame.font.Font(None, 18)
    screen = SimpleNamespace(
        books={0: book},
        team=0,
        renderer=ArenaRenderer(),
        app=SimpleNamespace(font=font, small=font, big=font),
    )
    scene = SimpleNamespace(unit=lambda slot: unit if slot == 0 else None)
    return PlayDrawing(screen), scene


# Map 20 x 10 units in ARENA (0, 40, 880, 450): 43.2 px a unit, map from x 8, y 49.
@pytest.mark.parametrize(
    ("pos", "kept"),
    [
        ((10.0, 5.0), {"N", "NE", "E", "SE", "S", "SW", "W", "NW"}),  # open ground: all 8
        ((0.5, 0.5), {"N", "NE", "E"}),  # south-west corner: nothing points off the map
        ((19.5, 5.0), {"N", "S", "SW", "W", "NW"}),  # east edge, by the side panel
        ((1.5, 1.5), {"N", "NE", "E", "SE", "SW", "W", "NW", "S"}),  # a pad: pulled in, kept
    ],
)
def test_ring_dots_stay_inside_the_map(display, pos, kept):
    drawing, scene = drawing_with_unit_at(pos)
    dots = drawing.ring(scene, 0)
    assert {C.MOVE_NAMES[d] for d, _ in dots} == kept
    inside = ArenaRenderer().map_rect(L.ARENA).inflate(-2 * panels.DOT_R, -2 * panels.DOT_R)
    for _, point in dots:
        assert inside.collidepoint(point)  # the whole dot is on the map, clear of the panels


def test_ring_dots_keep_full_radius_in_the_open_and_come_nearer_at_an_edge(display):
    drawing, scene = drawing_with_unit_at((10.0, 5.0))
    centre = (8 + 10 * 43.2, 49 + 5 * 43.2)
    radius = 1.7 * 43.2  # RING_UNITS
    north = dict(drawing.ring(scene, 0))[C.MOVE_NAMES.index("N")]
    assert north == (round(centre[0]), round(centre[1] - radius))
    drawing, scene = drawing_with_unit_at((1.5, 1.5))
    west = dict(drawing.ring(scene, 0))[C.MOVE_NAMES.index("W")]
    left_limit = 8 + panels.DOT_R  # the dot's centre may come this close to the map's edge
    assert west[0] == left_limit and west[1] == round(49 + 8.5 * 43.2)


def test_end_card_replay_path_is_whole_on_lines_that_fit_the_card(display, monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    font = pygame.font.Font(None, 18)
    width = L.OVER_CARD[2] - 32 - 8
    deep = tmp_path / ".local/share/marl-battlegrounds/replays/tournament-of-the-long-evening"
    path = deep / "20261130-053617_map047_seed1234567890.mbgr"
    lines = replay_lines(path, font, width)
    assert all(font.size(line)[0] <= width for line in lines)
    expected = "Replay: ~/.local/share/marl-battlegrounds/replays/tournament-of-the-long-evening/"
    assert "".join(lines) == expected + "20261130-053617_map047_seed1234567890.mbgr"
    assert len(lines) == 2 and lines[1] == "20261130-053617_map047_seed1234567890.mbgr"
    outside = "/tmp/x/data/marl-battlegrounds/replays/" + "r" * 150 + ".mbgr"
    lines = replay_lines(outside, font, width)  # a name wider than a line is cut inside it
    assert "".join(lines) == "Replay: " + outside and len(lines) == 3
    assert all(font.size(line)[0] <= width for line in lines)
    assert replay_lines(tmp_path / "g.mbgr", font, width) == ["Replay: ~/g.mbgr"]
    assert replay_lines("/srv/g.mbgr", font, width) == ["Replay: /srv/g.mbgr"]
    assert replay_lines(None, font, width) == ["Writing the replay..."]


def test_end_card_video_line_wraps_its_path_inside_the_card(display):
    # The line a BattleClient game's Export video left on its end card under an XDG_DATA_HOME
    # outside home, which ran past the card's right border as one line
    font = pygame.font.Font(None, 18)
    width = L.OVER_CARD[2] - 32 - 8
    saved = (
        "Saved the video /tmp/t1/data/marl-battlegrounds/videos/"
        "20261201-110534_map000_seed0_t0000-0004_oracle.gif"
    )
    assert font.size(saved)[0] > width  # the case: too wide for one line
    lines = path_lines(saved, font, width)
    assert "".join(lines) == saved and len(lines) == 2
    assert lines[1] == "20261201-110534_map000_seed0_t0000-0004_oracle.gif"
    assert all(font.size(line)[0] <= width for line in lines)


def test_end_card_and_its_buttons_sit_inside_the_arena_clear_of_the_slots_panel():
    card = pygame.Rect(L.OVER_CARD)
    assert pygame.Rect(L.ARENA).contains(card)
    assert not card.colliderect(pygame.Rect(L.ORDERS))
    for _, rect in L.OVER_BUTTONS.values():
        assert card.contains(pygame.Rect(rect))


def test_a_remembered_map_that_is_gone_falls_back_to_the_default(apps):
    catalog = read_catalog()
    gone = ClientSetup(map="99", seed=4)
    settled, note = settle_map(gone, catalog)
    assert settled.map == "47" and settled.seed == 4
    assert note.startswith("Map 99 of your last game no longer exists; using 047 ")
    assert settle_map(ClientSetup(map="test"), catalog) == (ClientSetup(map="test"), "")
    assert settle_map(ClientSetup(map="3"), catalog) == (ClientSetup(map="3"), "")

    app = apps(setup().replace(map="99"), start=False)
    frame(app)
    lobby = app.screen
    assert lobby.map_menu.selected_option[0].startswith("047 ")
    assert "Map 99 of your last game no longer exists" in lobby.message
    assert app.setup.map == "47"  # the next lobby does not say it again
    app.to_lobby()
    assert "no longer exists" not in app.screen.message


@pytest.mark.parametrize(
    ("field", "text", "message"),
    [
        ("seed", "abc", "Seed: type a whole number from 0 to 2,147,483,647 (it says 'abc')."),
        ("seed", "", "Seed: type a whole number from 0 to 2,147,483,647 (it says nothing)."),
        (
            "score_threshold",
            "0",
            "Score to win: type a whole number from 1 to 16,777,216 (it says '0').",
        ),
        (
            "horizon",
            "99999999",
            "Max ticks: type a whole number from 1 to 16,777,216 (it says '99999999').",
        ),
    ],
)
def test_lobby_number_errors_name_the_box_and_the_range(apps, field, text, message):
    app = apps(setup(), start=False)
    frame(app)
    app.screen.entries[field].set_text(text)
    app.screen.start()
    assert app.screen.message == message and app.screen.error


def test_lobby_says_which_team_has_no_agents(apps):
    app = apps(setup(), start=False)
    frame(app)
    app.screen.roster[5:] = [0] * 5
    app.screen.start()
    assert app.screen.message == (
        "Team B has no agents: set a class for 1 to 5 of its slots B0-B4."
    )


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (
            "Could not start the game: Config.horizon: 99999999 is out of range (allowed: 1 to "
            "16,777,216)",
            "Could not start the game: Max ticks: 99999999 is out of range (allowed: 1 to "
            "16,777,216)",
        ),
        (
            "Last setup not used: x.json: setup field 'score_threshold': 0 must be an integer "
            "from 1 to 16777216",
            "Last setup not used: x.json: Score to win: 0 must be an integer from 1 to 16777216",
        ),
        (
            "Could not start the game: slot spec: active slots B4 have no System",
            "Could not start the game: Slot spec: slots B4 have a class but no controller",
        ),
        (
            "The current setup cannot be played yet: ValueError: roster 'MWHRP/': team B needs "
            "1-5 agents",
            "The current setup cannot be played yet: Team B has no agents: give 1 to 5 of its "
            "slots a class",
        ),
    ],
)
def test_messages_from_elsewhere_use_the_lobby_labels(raw, shown):
    assert player_words(raw) == shown


def test_idle_lobby_waits_on_the_event_queue(apps, monkeypatch):
    app = apps(setup(), start=False)
    waits = []

    def wait(timeout):
        waits.append(timeout)
        kind = pygame.QUIT if len(waits) >= 3 else pygame.NOEVENT
        return pygame.event.Event(kind)

    monkeypatch.setattr(pygame.event, "wait", wait)
    polls = []

    def get():  # QUIT after 200 polls: a loop that never waits ends (and fails), not hangs
        polls.append(1)
        return [pygame.event.Event(pygame.QUIT)] if len(polls) >= 200 else []

    monkeypatch.setattr(pygame.event, "get", get)
    assert not app.busy()
    app.run(pygame.display.get_surface())
    assert waits == [83, 83, 83]  # 1000 ms / 12 frames a second, woken by events at once


def test_play_screen_is_busy_only_while_something_moves():
    from battleclient.play_draw import RESOLVE_S
    from battleclient.play_screen import PlayScreen

    video = SimpleNamespace(running=False)
    screen = SimpleNamespace(
        since=0.2, phase="orders", paused=False, video=video, session=None, clock_left=None
    )
    assert PlayScreen.busy(screen)  # the resolution animates
    screen.since = RESOLVE_S + 0.1
    assert not PlayScreen.busy(screen)  # orders being thought over: idle
    screen.session = SimpleNamespace(llm_status=lambda: {"thinking": {1: 0.5}})
    assert PlayScreen.busy(screen)  # an LLM slot thinking: its clock runs on screen
    screen.session = SimpleNamespace(llm_status=lambda: {"thinking": {}})
    assert not PlayScreen.busy(screen)
    screen.phase = "spectate"
    assert PlayScreen.busy(screen)  # a spectated game plays on
    screen.paused = True
    assert not PlayScreen.busy(screen)
    screen.phase, video.running = "over", True
    assert PlayScreen.busy(screen)  # a video being exported from the game-over card


def test_tick_labels_count_ticks_as_the_rules_do():
    # RULES 0: tick t leads from state t to t+1, so a horizon-5 game plays ticks 0-4 and ends
    # in state 5; the log says "t 4 ... Game over", and so must the top bar and the end card.
    assert panels.tick_heading(3, 5, over=False) == "Tick 3/5"
    assert panels.tick_heading(5, 5, over=True) == "After tick 4 (end)"
    assert panels.tick_line(5, 5, over=True) == "Ended on tick 4: 5 of 5 ticks played"
    assert panels.tick_line(2, 5, over=False) == "Tick 2 / 5   3 ticks left"
    line = end_score_line(0, 0, 5, " (horizon reached)")
    assert line == "Final score A 0 : 0 B after 5 ticks (last: tick 4) (horizon reached)."


def test_game_over_names_the_same_tick_as_the_log(apps):
    app = apps(setup(RANDOM, seed=4))
    wait_for(app, lambda: app.screen.replay_path is not None, dt=0.3)
    screen = app.screen
    assert screen.phase == "over" and screen.snap.tick == GAME_TICKS
    (last,) = [t for t, text in screen.logs[None] if "Game over" in text]
    assert last == GAME_TICKS - 1
    horizon = screen.session.config.horizon
    heading = panels.tick_heading(screen.snap.tick, horizon, screen.snap.over)
    assert heading == f"After tick {last} (end)"
    lines = [str(x) for x in panels.score_lines(screen.snap, horizon)]
    assert any(f"Ended on tick {last}:" in x for x in lines)


def test_end_card_line_note_wraps_its_words_whole_before_the_path(display):
    # Trial 11: "Show a winning line" left "... (W again: line 2). Openin" / "g /root/..." on
    # the scenario end card: the prose before the path was cut inside a word
    font = pygame.font.Font(None, 18)
    width = L.OVER_CARD[2] - 32 - 8
    note = (
        "Line 1 of 2, hold: step out of the Mage's reach twice, then Poison (W again: line 2). "
        "Opening ~/.local/share/marl-battlegrounds/replays/"
        "scenario01_8a1be991_line1_20261202-035314.mbgr in the Replay Viewer"
    )
    lines = path_lines(note, font, width)
    assert "".join(lines) == note
    assert all(font.size(line)[0] <= width for line in lines)
    words = set(note.replace("/", " ").split())
    for line in lines:  # every line starts and ends on a word's (or folder's) boundary
        pieces = line.replace("/", " ").split()
        assert pieces[0] in words and pieces[-1] in words, line


def test_opening_the_viewer_names_the_replay_under_home_with_a_tilde(monkeypatch, tmp_path):
    from battleclient.app import App

    monkeypatch.setenv("HOME", str(tmp_path))
    fake = SimpleNamespace(viewers=[], launch=lambda command, **kw: command)
    text = App.open_viewer(fake, tmp_path / "replays" / "g.mbgr")
    assert text == "Opening ~/replays/g.mbgr in the Replay Viewer"
    assert fake.viewers and fake.viewers[0][-1] == str(tmp_path / "replays" / "g.mbgr")


def test_every_bad_box_is_named_at_once_typed_and_refused_by_start(apps):
    from tests.battleclient.driver import click, key, post_events
    from ui.theme import COLOURS

    app = apps(setup(), start=False)
    frame(app)
    lobby = app.screen
    app.screen.roster[5:] = [0] * 5  # and Team B has no agents
    for field, text in (("score_threshold", "-5"), ("horizon", "0")):
        box = lobby.entries[field]
        post_events(app, click(box.rect.center))
        post_events(app, [key(pygame.K_END)] + [key(pygame.K_BACKSPACE)] * 8)
        post_events(app, [pygame.event.Event(pygame.TEXTINPUT, text=ch) for ch in text])
        assert box.get_text() == text
    post_events(app, click(pygame.Rect(L.LOBBY_BUTTONS["start"][1]).center))
    assert app.screen is lobby and lobby.error
    assert lobby.message.split("\n") == [
        "Score to win: type a whole number from 1 to 16,777,216 (it says '-5').",
        "Max ticks: type a whole number from 1 to 16,777,216 (it says '0').",
        "Team B has no agents: set a class for 1 to 5 of its slots B0-B4.",
    ]
    shot = frame(app)
    red = np.all(pygame.surfarray.array3d(shot) == COLOURS["damage"][:3], axis=2)
    message = pygame.Rect(L.MESSAGE)
    rows = np.flatnonzero(red[message.left : message.right, message.top : message.bottom].any(0))
    step = app.font.get_linesize()
    assert rows.max() - rows.min() > 2 * step  # three lines drawn, one under the other
