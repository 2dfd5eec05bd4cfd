"""The lobby's presets, recent setups and message line, and the hotseat turn clock, used as a
player uses them: clicks and keys posted on SDL's event queue."""

import pygame
import pytest

from battleclient import layout as L
from battleclient.game_setup import ClientSetup
from battleclient.play_input import HANDOVER_GUARD_S
from battleclient.presets import RELEASED_CHECKPOINT, describe, preset_menu
from battleclient.settings import RECENT_COUNT, load_recent_setups, remember_recent_setup
from tests.battleclient.driver import click, frame, key, orders_ready, setup, wait_for

OPTION_H = 20  # pixels per option of an open pygame_gui drop-down at this theme's font


def post(app, events):
    for event in events:
        pygame.event.post(event)
    frame(app)
    frame(app, dt=0.3)


def choose_preset(app, index: int) -> None:
    """Open the Presets menu and click its option `index` (0 is the "Presets..." line)."""
    menu = pygame.Rect(L.PRESET_MENU)
    post(app, click(menu.center))
    post(app, click((menu.centerx, menu.bottom + OPTION_H * index + OPTION_H // 2)))
    frame(app)


def test_recent_setups_keep_the_last_five_newest_first(tmp_path):
    path = tmp_path / "recent.json"
    setups = [ClientSetup(seed=s) for s in range(7)]
    for s in setups:
        remember_recent_setup(s, path)
    remember_recent_setup(setups[3], path)  # again: moves to the front, not a second entry
    assert [s.seed for s in load_recent_setups(path)] == [3, 6, 5, 4, 2][:RECENT_COUNT]
    path.write_text('[{}, {"seed": -4}, 7]')  # a default entry kept, bad ones skipped
    assert load_recent_setups(path) == [ClientSetup()]
    menu = preset_menu([ClientSetup(seed=1), ClientSetup(seed=2)])
    recent = [t for t in menu if t.startswith("Last")]
    assert recent == [describe(ClientSetup(seed=1), 1), describe(ClientSetup(seed=2), 2)]
    bots = ClientSetup().slots.replace("scripted:", "")  # a bot by its name
    assert recent[1] == "Last 2: seed 2, map 47, MWHRP/MWHRP, " + bots
    short = preset_menu([ClientSetup(seed=1), ClientSetup(seed=2)], lambda t: t[:7] + "...")
    assert [t for t in short if t.startswith("Last")] == ["Last 1:...", "Last 2:..."]


def test_setups_that_differ_only_in_their_rules_read_apart():
    """Playtest: a 40-tick spectated game and a 300-tick one read "Last 1: seed 0, map 47,
    MWHR...ted:tactician" and "Last 2:" the same; the rules that are not the defaults follow."""
    slots = "A*=scripted:tactician,B*=scripted:kiter"
    plain = describe(ClientSetup(slots=slots), 2)
    assert plain == "Last 2: seed 0, map 47, MWHRP/MWHRP, A*=tactician,B*=kiter"
    odd = ClientSetup(slots=slots, horizon=40, score_threshold=5, spawn_end="east",
                      info_regime="no_shared_obs", turn_clock=30)  # fmt: skip
    assert describe(odd, 1) == (
        "Last 1: seed 0, map 47, MWHRP/MWHRP, A*=tactician,B*=kiter, no_shared_obs, Team A east, "
        "5 to win, max 40 ticks, clock 30 s"
    )


def test_a_checkpoint_is_named_by_its_stem():
    slots = f"A0=human,A1=checkpoint:{RELEASED_CHECKPOINT},B*=checkpoint:x/my_run.msgpack"
    line = describe(ClientSetup(slots=slots), 3)
    assert line.endswith("A0=human,A1=checkpoint:ippo_v1,B*=checkpoint:my_run")


def test_presets_from_the_menu(apps):
    app = apps(setup("A0=human,A1-A4=random,B*=random", seed=4), start=False)
    choose_preset(app, 3)  # A whole team of Warriors
    assert app.screen.setup.roster == "WWWWW/MWHRP" and app.screen.setup.seed == 4
    assert app.screen.message == "Preset: A whole team of Warriors (Team A)"
    assert [int(c) for c in app.screen.roster[:5]] == [2] * 5  # the class menus follow
    choose_preset(app, 1)  # the released checkpoint
    assert app.screen.setup.slots.endswith(f"B*=checkpoint:{RELEASED_CHECKPOINT}")
    assert RELEASED_CHECKPOINT.is_file()


def test_esc_closes_an_open_menu_and_only_then_quits(apps):
    app = apps(setup("A0=human,A1-A4=random,B*=random"), start=False)
    menu = app.screen.preset_menu
    post(app, click(pygame.Rect(L.PRESET_MENU).center))
    assert menu.current_state is menu.menu_states["expanded"]
    post(app, [key(pygame.K_ESCAPE)])
    assert menu.current_state is menu.menu_states["closed"] and app.running
    post(app, [key(pygame.K_ESCAPE)])  # nothing open: Esc leaves, as before
    assert not app.running


def test_a_started_setup_is_offered_again(apps):
    app = apps(setup("A0=human,A1-A4=random,B*=random", seed=9), start=False, remember=True)
    post(app, [key(pygame.K_RETURN)])  # Start
    wait_for(app, lambda: orders_ready(app))
    app.screen.leave()  # back to the lobby
    frame(app)
    newest = [t for t in app.screen.presets if t.startswith("Last 1:")]
    assert len(newest) == 1 and len(newest[0]) <= len(describe(load_recent_setups()[0]))
    index = [*app.screen.presets].index(newest[0]) + 1
    app.screen.setup = app.screen.setup.replace(seed=1)
    choose_preset(app, index)
    assert app.screen.setup.seed == 9


def test_stale_messages_go_when_no_longer_true(apps):
    app = apps(setup(), start=False)
    lobby = app.screen
    lobby.say("Could not start the game: something about seed 0", error=True)
    frame(app, dt=30.0)
    assert lobby.message  # a problem stays while the setup it was about stays
    entry = lobby.entries["seed"]
    post(app, click(entry.rect.center))
    post(app, [key(pygame.K_END), pygame.event.Event(pygame.TEXTINPUT, text="7")])
    assert lobby.entries["seed"].get_text() == "07" and lobby.message == ""
    lobby.say("Replay of the last game saved: /tmp/x.mbgr")
    frame(app, dt=1.0)
    assert lobby.message
    frame(app, dt=8.0)
    assert lobby.message == ""  # a note fades


@pytest.mark.parametrize("seconds", [2])
def test_the_turn_clock_locks_in_the_orders(apps, seconds):
    app = apps(setup("A0=human,A1-A4=random,B0=human,B1-B4=random", turn_clock=seconds))
    wait_for(app, lambda: app.screen.phase == "handover")
    frame(app, dt=HANDOVER_GUARD_S)
    post(app, [key(pygame.K_RETURN)])  # Team A takes over
    screen = app.screen
    assert screen.phase == "orders" and screen.clock_left == pytest.approx(seconds, abs=0.5)
    assert screen.busy()  # the clock runs on screen
    frame(app, dt=seconds + 0.1)
    assert screen.phase == "handover" and screen.team == 1  # Team B's turn
    assert screen.message == "Time is up: Team A's orders are locked in"
