"""The BattleClient lobby and end screen: the lobby preview does not hang on the rules boxes,
a bad box is named at once, slot specs typed during the start-up compile, and the end card,
labels and menu."""

import threading

import numpy as np
import pygame
import pygame_gui

from battleclient import layout as L
from tests.battleclient.driver import RANDOM, frame, key, setup, wait_for

HUMAN = "A0=human,A1-A4=random,B*=random"


def test_invalid_max_ticks_keeps_the_preview_and_is_named_at_once(apps):
    app = apps(setup(HUMAN), start=False)
    screen = app.screen
    screen.entries["horizon"].set_text("0")
    shot = frame(app)
    assert screen.preview_choice()[0] == 47  # map 047 Keep stays chosen and drawn
    preview = pygame.surfarray.array3d(shot.subsurface(pygame.Rect(L.PREVIEW)))
    assert len(np.unique(preview.reshape(-1, 3), axis=0)) >= 3
    assert screen.error and screen.message.startswith("Max ticks: type a whole number from 1")
    assert "(it says '0')" in screen.message
    frame(app, [key(pygame.K_RETURN)])  # Start refuses with the same reason
    assert app.screen is screen and screen.message.startswith("Max ticks: type")
    screen.entries["horizon"].set_text("40")
    frame(app)
    assert screen.message == "" and not screen.error


def loaded(app):
    return app.kinds is not None and app.screen.specs is not None


def test_a_slot_spec_entered_while_the_engine_thread_compiles_applies_at_once(apps):
    app = apps(setup(HUMAN), start=False)
    wait_for(app, lambda: loaded(app))
    screen = app.screen
    busy = threading.Event()
    app.submit(busy.wait, 60)  # stands in for the start-up compile holding the engine thread
    try:
        spec = "A0=human,A1-A4=scripted:kiter,B*=random"
        event = pygame.event.Event(
            pygame_gui.UI_TEXT_ENTRY_FINISHED, ui_element=screen.spec_entry, text=spec
        )
        frame(app, [event])
        assert screen.specs == ["human"] + ["scripted:kiter"] * 4 + ["random"] * 5
        assert screen.rows[1][1].selected_option[0] == "scripted:kiter"
        assert screen.rows[5][1].selected_option[0] == "random"
    finally:
        busy.set()


def test_machine_players_compile_during_set_up_with_a_notice():
    from battleclient.controllers import Progress, build_game
    from battleclient.map_catalog import maps_by_split, read_catalog

    progress = Progress()
    game = build_game(progress, setup(RANDOM), maps_by_split(read_catalog()))
    stages = [text for _, text in progress.log]
    assert "Compiling the machine players (their first move)" in stages
    assert stages[-1].startswith("Ready")
    assert game.pending is not None and game.pending[0] == 0  # tick 0's moves are made
    assert game.resolve({}).tick == 1


def test_the_menu_says_what_leaving_does_to_the_replay():
    from battleclient.play_draw import menu_line

    assert menu_line(0, False) == "No tick has been played yet: leaving now saves no replay."
    assert menu_line(3, False) == "The game so far (3 ticks) is saved as a replay when you leave."
    assert menu_line(6, True) == "The replay of this game is saved."


def arena_scene(positions):
    """A tick-0 scene of map 47 with Team A's first units at `positions` (world units)."""
    from battleclient.lobby_draw import preview_state
    from battleclient.map_catalog import load_choice
    from ui.scene import scene_from_state

    roster = np.array([1, 2, 3, 4, 5] * 2, np.int32)
    roster[len(positions) : 5] = 0
    roster[5:] = 0
    state = preview_state(load_choice(47), roster, 0)
    for slot, pos in enumerate(positions):
        state["pos"][slot] = pos
    return scene_from_state(state)


def test_unit_labels_and_health_bars_stay_on_the_map_and_apart(display):
    from ui.arena import ArenaRenderer

    renderer = ArenaRenderer()
    room = renderer.map_rect(L.ARENA)
    edges = [(0.5, 0.5), (19.5, 0.5), (19.5, 9.5), (0.5, 9.5)]  # the four corners
    shots = []
    for positions in (edges, []):
        surface = pygame.Surface(L.SIZE)
        scene = arena_scene(positions) if positions else arena_scene([(10.0, 5.0)])
        renderer.draw(surface, scene, L.ARENA)
        pixels = pygame.surfarray.array3d(surface).copy()
        pixels[room.left : room.right, room.top : room.bottom] = 0  # only what is off the map
        shots.append(pixels)
    assert np.array_equal(shots[0], shots[1])  # nothing of a corner unit is drawn off the map
    bunched = arena_scene([(10.0, 5.0), (10.25, 5.05), (9.8, 5.2)])
    renderer.draw(pygame.Surface(L.SIZE), bunched, L.ARENA)
    labels = renderer._labels
    assert len(labels) == 3 and all(room.contains(r) for r in labels)
    assert all(a.collidelist([b for b in labels if b is not a]) < 0 for a in labels)


def test_a_long_status_line_in_the_side_panel_wraps_and_the_card_grows(display):
    from types import SimpleNamespace

    from battleclient import panels
    from ui.rules import C

    small, font = pygame.font.Font(None, 15), pygame.font.Font(None, 18)
    every = np.full(C.NUM_STATUS, 3, np.int32)
    unit = SimpleNamespace(alive=True, class_id=C.PRIEST, cooldown=27, shield=20, status=every)
    text = panels.unit_lines(unit)[0]
    assert text.endswith("Freedom 3") and small.size(text)[0] > 300
    lines = panels.status_lines(unit, small, 300)
    assert len(lines) >= 2 and " ".join(lines) == text  # nothing cut
    assert all(small.size(line)[0] <= 300 for line in lines)
    calm = SimpleNamespace(alive=True, class_id=C.PRIEST, cooldown=0, shield=0, status=every * 0)
    extra = panels.card_height(unit, 360, font, small) - panels.card_height(calm, 360, font, small)
    squares = 8 * C.NUM_STATUS + 4
    assert (
        extra == (len(panels.status_lines(unit, small, 360 - squares)) - 1) * small.get_linesize()
    )


def test_the_lobby_preview_is_the_same_drawing_before_and_after_the_engine_loads(apps):
    app = apps(setup(HUMAN), start=False)
    first = pygame.Surface(L.SIZE)
    app.draw(first)  # the window's first frame: no engine-thread answer taken in yet
    assert app.kinds is None
    before = first.subsurface(pygame.Rect(L.PREVIEW)).copy()
    wait_for(app, lambda: loaded(app) and app.maps.get(47) is not None)
    after = frame(app).subsurface(pygame.Rect(L.PREVIEW))
    same = pygame.surfarray.array3d(before) == pygame.surfarray.array3d(after)
    assert same.all()
