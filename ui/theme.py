"""Colours and sizes shared by the arena and the panels (pygame_gui widgets: assets/*.json)."""

from pathlib import Path

from engine import constants as C

ASSETS = Path(__file__).resolve().parents[1] / "assets"
GUI_THEME = ASSETS / "gui_theme.json"

TEAM_COLOURS = ((70, 140, 240), (235, 90, 70))  # Team A blue, Team B red
TEAM_DARK = ((35, 70, 120), (118, 45, 35))
COLOURS = {
    "background": (24, 26, 32),
    "panel": (34, 37, 45),
    "panel_line": (60, 64, 76),
    "arena": (46, 52, 46),
    "grid": (54, 61, 54),
    "border": (120, 128, 120),
    "obstacle": (128, 124, 116),
    "obstacle_edge": (168, 162, 150),
    "red_zone": (200, 40, 40, 46),
    "pad": (220, 220, 220),
    "text": (226, 228, 232),
    "muted": (140, 146, 156),
    "dead": (90, 90, 96),
    "health_back": (60, 20, 20),
    "health": (80, 210, 90),
    "health_low": (230, 180, 60),
    "shield": (120, 230, 255),
    "select": (255, 255, 255),
    "highlight": (255, 220, 60),
    "los_clear": (110, 230, 120),
    "los_blocked": (230, 80, 80),
    "damage": (255, 96, 80),
    "heal": (110, 240, 130),
    "info": (240, 240, 160),
    "relayed": (200, 200, 200),
    "accent": (255, 200, 60),
}
# Status channel -> icon colour, by family (slows blue, stuns yellow, anti-heal purple, ...);
# a channel not named here (a new one in engine/constants.py) is drawn in the muted colour.
STATUS_COLOUR = {
    "charge_slow": (90, 150, 255),
    "hunter_slow": (120, 180, 255),
    "poison_slow": (70, 120, 235),
    "charge_stun": (255, 220, 40),
    "trap_stun": (255, 190, 20),
    "poison_stun": (240, 230, 90),
    "anti_heal": (190, 90, 230),
    "burst": (255, 140, 40),
    "freedom": (120, 240, 160),
}
STATUS_COLOURS = tuple(STATUS_COLOUR.get(n, COLOURS["muted"]) for n in C.STATUS_NAMES)
CLASS_GLYPHS = C.CLASS_GLYPHS  # roster letters (engine/constants.py CLASSES)
