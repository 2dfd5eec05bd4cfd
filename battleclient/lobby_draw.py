"""Drawing of the lobby: title, start-up progress, map preview, slot table labels, messages."""

import numpy as np
import pygame

from battleclient import layout as L
from battleclient import panels
from battleclient.game_setup import VIEW_WORDS, slot_name
from battleclient.map_catalog import find_entry
from engine.pool import game_layout  # NumPy only
from ui.rules import C
from ui.scene import scene_from_state
from ui.theme import COLOURS, TEAM_COLOURS

FIELDS = (
    ("seed", "Seed"),
    ("score_threshold", "Score to win"),
    ("horizon", "Max ticks"),
    ("turn_clock", "Clock (s)"),
)


def preview_state(spec, roster: np.ndarray, spawn_end: int) -> dict:
    """A tick-0 state dict (NumPy) of a map for the preview: every agent on its pad."""
    table, pads, zones = game_layout(spec, spawn_end)
    pads = pads.astype(np.float32)
    active = np.asarray(roster) > 0
    return {
        "obstacles": table,
        "pads": pads,
        "red_zones": zones,
        "class_id": np.asarray(roster, np.int32),
        "active": active,
        "alive": active,
        "pos": np.where(active[:, None], pads, 0.0),
        "health": C.MAX_HEALTH[np.asarray(roster)],
        "shield": np.zeros(C.NUM_SLOTS, np.int32),
        "cooldown": np.zeros(C.NUM_SLOTS, np.int32),
        "status": np.zeros((C.NUM_SLOTS, C.NUM_STATUS), np.int32),
        "score": np.zeros(2, np.int32),
        "tick": np.int32(0),
        "outcome": np.int32(0),
    }


def _progress(lobby, surface) -> None:
    app = lobby.app
    text, fraction, done = app.progress_view(lobby.rules_shown())
    panels.draw_progress(surface, L.PROGRESS, fraction, done)
    panels.draw_lines(surface, L.PROGRESS_TEXT, [text], app.progress_font, COLOURS["muted"])


def _preview(lobby, surface) -> None:
    app = lobby.app
    choice, roster, end = lobby.preview_choice()
    rect = pygame.Rect(L.PREVIEW)
    entry = find_entry(lobby.map_entries, choice) if choice is not None else None
    text = "Map: choose one" if entry is None else f"{entry.label}: {entry.description}"
    if entry is not None and lobby.setup.map.isalpha():
        text = f"Drawn with seed: {text}"
    panels.draw_lines(surface, L.MAP_TEXT, [text], app.small, COLOURS["muted"])
    spec = app.map_spec(choice) if choice is not None else None
    if spec is not None:
        scene = scene_from_state(preview_state(spec, roster, end))
        lobby.renderer.draw(surface, scene, rect)
    elif entry is not None and entry.preview:  # a file that does not load: its ASCII picture
        draw_ascii(surface, rect, entry.preview)


def draw_ascii(surface, rect, lines) -> None:
    """A map file's ASCII preview as coloured cells: '#'/'O' obstacle, '.' Red Zone, digit pad."""
    rows = [line[1:-1] for line in lines[1:-1]] or [""]
    width = max(len(r) for r in rows) or 1
    cell_w = rect.width / width
    cell_h = min(rect.height / len(rows), cell_w * 2)
    surface.fill(COLOURS["arena"], (rect.x, rect.y, rect.width, round(cell_h * len(rows))))
    colours = {"#": COLOURS["obstacle"], "O": COLOURS["obstacle"], ".": (92, 52, 50)}
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            colour = COLOURS["pad"] if char.isdigit() else colours.get(char)
            if colour is not None:
                x, y = rect.x + c * cell_w, rect.y + r * cell_h
                surface.fill(
                    colour, (round(x), round(y), max(1, round(cell_w)), max(1, round(cell_h)))
                )


def _table(lobby, surface) -> None:
    app = lobby.app
    y0 = L.SLOTS_Y
    for x, head in (
        (L.SLOTS_X, "Slot"),
        (L.SLOTS_X + 50, "Class"),
        (L.SLOTS_X + 186, "Controller"),
    ):
        surface.blit(app.font.render(head, True, COLOURS["muted"]), (x, y0 + 4))
    for slot in range(C.NUM_SLOTS):
        y = lobby._row_y(slot)
        label = app.font.render(slot_name(slot), True, TEAM_COLOURS[slot // C.TEAM_SIZE])
        surface.blit(label, (L.SLOTS_X + 4, y + 8))
    hint = "Slot spec (edit and press Enter; e.g. A0=human,A1-A4=scripted:kiter,B*=random):"
    surface.blit(
        app.small.render(hint, True, COLOURS["muted"]), (L.SPEC_ENTRY[0], L.SPEC_ENTRY[1] - 18)
    )


def _fields(lobby, surface) -> None:
    app = lobby.app
    y = L.FIELDS_Y + 6
    labels = ((20, y, "Information"), (180, y, "Team A spawns"))
    labels += tuple((L.FIELD_X + L.FIELD_STEP * k, y, text) for k, (_, text) in enumerate(FIELDS))
    labels += ((L.VIEW_MENU[0], L.VIEW_Y + 6, "Your view"),)
    for x, y, label in labels:
        surface.blit(app.small.render(label, True, COLOURS["muted"]), (x, y))
    words = f"You see {VIEW_WORDS[lobby.setup.view]}; never the Oracle view"
    x, y = L.VIEW_MENU[0] + L.VIEW_MENU[2] + 10, L.VIEW_MENU[1] + 8
    surface.blit(app.small.render(words, True, COLOURS["muted"]), (x, y))


def draw_lobby(lobby, surface) -> None:
    app = lobby.app
    surface.fill(COLOURS["background"])
    title = app.big.render("MARL-BattleGrounds: BattleClient lobby", True, COLOURS["text"])
    surface.blit(title, L.TITLE[:2])
    _progress(lobby, surface)
    _preview(lobby, surface)
    _table(lobby, surface)
    _fields(lobby, surface)
    hint = (
        "Pick the map, a class and a controller for each slot (empty class = empty slot, "
        "1-5 agents a team), then Start. In a game, H shows the controls."
    )
    panels.draw_lines(surface, L.HINT, [hint], app.small, COLOURS["muted"])
    colour = COLOURS["damage"] if lobby.error else COLOURS["text"]
    lines = lobby.message.split("\n") if lobby.message else []  # one problem a line
    panels.draw_lines(surface, L.MESSAGE, lines, app.font, colour)
