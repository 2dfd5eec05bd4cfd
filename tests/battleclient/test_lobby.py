"""The lobby: usable before JAX loads, edits the setup, remembers it, shows errors in place."""

import json

import numpy as np
import pygame
import pygame_gui

from battleclient import layout as L
from battleclient.lobby_slots import PICK_FILE, TYPE_SPEC
from battleclient.settings import config_dir
from tests.battleclient.driver import frame, key, setup, wait_for

HUMAN = "A0=human,A1-A4=random,B*=random"


def ui(kind, element, **data):
    return pygame.event.Event(kind, ui_element=element, **data)


def loaded(app):
    return app.kinds is not None and app.screen.specs is not None


def lobby(apps, game_setup=None):
    app = apps(game_setup or setup(HUMAN), start=False)
    first = frame(app)  # drawn at once, before the engine thread has loaded JAX
    return app, first


def test_first_frame_shows_the_map_before_jax_loads(apps):
    app, first = lobby(apps)
    preview = pygame.surfarray.array3d(first.subsurface(pygame.Rect(L.PREVIEW)))
    assert len(np.unique(preview.reshape(-1, 3), axis=0)) >= 3  # arena, obstacles, pads
    wait_for(app, lambda: loaded(app))
    assert "human" in app.kinds and "scripted" in app.kinds
    assert app.screen.specs == ["human"] + ["random"] * 9
    options = app.screen.controller_options("random")
    assert options[:2] == ["human", "random"] and "scripted:tactician" in options
    assert options[-1] == TYPE_SPEC and PICK_FILE in options


def test_edits_become_the_setup_and_are_remembered(apps):
    app, _ = lobby(apps)
    wait_for(app, lambda: loaded(app))
    screen = app.screen
    cls_a4, _ = screen.rows[4]
    _, ctl_b0 = screen.rows[5]
    events = [
        ui(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, cls_a4, text="(empty)"),
        ui(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ctl_b0, text="scripted:kiter"),
        ui(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, screen.map_menu, text="Random map from: test"),
        ui(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, screen.end, text="Team A east"),
    ]
    frame(app, events)
    screen.entries["seed"].set_text("12")
    chosen = screen.current_setup()
    assert chosen.roster == "MWHR/MWHRP" and chosen.map == "test" and chosen.seed == 12
    # an empty slot keeps its controller for later; resolve_slots ignores it
    assert chosen.slots == "A0=human,A1-A4=random,B0=scripted:kiter,B1-B4=random"
    assert chosen.spawn_end == "east"
    frame(app, [key(pygame.K_RETURN)])
    assert type(app.screen).__name__ == "PlayScreen"
    stored = json.loads((config_dir() / "last_setup.json").read_text())
    assert stored["slots"] == chosen.slots and stored["seed"] == 12


def test_bad_input_is_a_message_not_a_crash(apps):
    app, _ = lobby(apps)
    wait_for(app, lambda: loaded(app))
    screen = app.screen
    frame(app, [ui(pygame_gui.UI_TEXT_ENTRY_FINISHED, screen.spec_entry, text="A0=warp")])
    wait_for(app, lambda: "warp" in screen.message)
    assert screen.error and "unknown kind 'warp'" in screen.message
    screen.entries["seed"].set_text("abc")
    frame(app, [key(pygame.K_RETURN)])
    assert screen.error and "Seed: type a whole number from 0 to" in screen.message
    assert app.screen is screen


def test_a_game_that_cannot_start_returns_to_the_lobby_with_the_reason(apps, tmp_path):
    missing = tmp_path / "nowhere.msgpack"
    for slots, words in (
        ("A*=random,B*=warp", "unknown kind 'warp'"),
        (f"A*=random,B*=checkpoint:{missing}", str(missing)),
    ):
        app = apps(setup(slots))
        wait_for(app, lambda app=app: type(app.screen).__name__ == "Lobby")
        assert app.screen.error and "Could not start the game" in app.screen.message
        assert words in app.screen.message
        frame(app)  # and it still draws


def test_checkpoint_picked_from_disk_becomes_the_slot_spec(apps, tmp_path):
    app, _ = lobby(apps)
    wait_for(app, lambda: loaded(app))
    screen = app.screen
    policy = tmp_path / "policy.msgpack"
    _, ctl_b2 = screen.rows[7]
    frame(app, [ui(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ctl_b2, text=PICK_FILE)])
    assert screen.dialog is not None and screen.dialog_slot == 7
    frame(app, [ui(pygame_gui.UI_FILE_DIALOG_PATH_PICKED, screen.dialog, text=str(policy))])
    assert screen.specs[7] == f"checkpoint:{policy}"
    assert screen.spec_entry.get_text() == (
        f"A0=human,A1-A4=random,B0-B1=random,B2=checkpoint:{policy},B3-B4=random"
    )
    _, rebuilt = screen.rows[7]
    assert rebuilt.selected_option[0] == f"checkpoint:{policy}"


def test_other_registered_kinds_are_typed_in_the_spec_line(apps):
    from policies.random_system import random_system
    from policies.slotspec import register_kind

    register_kind("echo", lambda arg, slots: random_system(f"echo:{arg}"), "echo:TEXT")
    app, _ = lobby(apps)
    wait_for(app, lambda: loaded(app))
    screen = app.screen
    typed = "echo: type its spec below..."
    assert typed in screen.controller_options("random")
    _, ctl_b0 = screen.rows[5]
    frame(app, [ui(pygame_gui.UI_DROP_DOWN_MENU_CHANGED, ctl_b0, text=typed)])
    assert screen.specs[5] == "echo:" and screen.spec_entry.is_focused
    assert "B0=echo:" in screen.spec_entry.get_text()
