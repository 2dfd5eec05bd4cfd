"""Keyboard shortcuts: one table drives both the key handling and the help card (`?`)."""

import pygame

# (keys shown on the help card, action, description); `keys` below maps real keys to actions.
HELP = (
    ("Space", "play", "play / pause"),
    ("Left / Right", "step", "one tick back / forward"),
    ("Up / Down, Shift+arrows", "jump", "ten ticks forward / back"),
    ("Home / End", "ends", "first / last tick"),
    ("+ / -", "speed", "faster / slower playback"),
    ("g", "goto", "type a tick (Enter jumps)"),
    ("o", "view_oracle", "Oracle view (everything)"),
    ("0-9", "view_agent", "point of view of agent slot 0-9 (A0-A4 = 0-4, B0-B4 = 5-9)"),
    ("a / b", "view_team", "Team A / Team B view"),
    ("v", "view_next", "next view"),
    ("Click a unit", "select", "select it (Esc clears)"),
    (
        "s / r / l / z / t / n",
        "overlays",
        "sight, ranges, line of sight, Red Zones, trails, numbers",
    ),
    ("Tab", "tab", "next panel: log, agent, metrics, heat maps"),
    ("/ or Ctrl+F", "search", "search the metrics"),
    ("p or Ctrl+S", "export", "save this frame as PNG"),
    ("i", "arena_png", "save the arena alone as a high-resolution PNG (1936 x 976)"),
    ("c", "play_on", "play on from this tick in the BattleClient (choose the slots)"),
    ("x", "scenario", "save this position as a scenario (focal team, horizon)"),
    ("Click the story strip", "marks", "jump to a death, Ultimate or score change (hover: what)"),
    ("Click a plot", "plot_seek", "jump to that tick (hover: the values)"),
    ("F11", "fullscreen", "full screen on / off (drag the window's edge to resize)"),
    ("e or Ctrl+E", "video", "export the game as a video (GIF) in this view; Esc stops it"),
    ("m", "animation", "smooth playback (units glide, attacks drawn) on / off"),
    ("Ctrl+O", "open", "open a replay or folder"),
    ("f", "folder", "back to the folder listing"),
    ("? or F1", "help", "this card"),
    ("Esc", "escape", "close card / clear selection"),
    ("Ctrl+Q", "quit", "quit"),
)

OVERLAY_KEYS = {
    pygame.K_s: "sight",
    pygame.K_r: "ranges",
    pygame.K_l: "los",
    pygame.K_z: "red_zones",
    pygame.K_t: "trails",
    pygame.K_n: "numbers",
}

CTRL_KEYS = {
    pygame.K_f: ("search", None),
    pygame.K_s: ("export", None),
    pygame.K_e: ("video", None),
    pygame.K_o: ("open", None),
    pygame.K_q: ("quit", None),
}


def action_for(event) -> tuple[str, object] | None:
    """(action, argument) for a KEYDOWN event, or None when the key means nothing here."""
    key, mods, char = event.key, event.mod, getattr(event, "unicode", "")
    ctrl, shift = bool(mods & pygame.KMOD_CTRL), bool(mods & pygame.KMOD_SHIFT)
    if ctrl:
        return CTRL_KEYS.get(key)
    if key == pygame.K_F11:
        return ("fullscreen", None)
    if char == "?" or key == pygame.K_F1:
        return ("help", None)
    if char in ("+", "=") or key == pygame.K_KP_PLUS:
        return ("speed", 1)
    if char == "-" or key == pygame.K_KP_MINUS:
        return ("speed", -1)
    if char == "/":
        return ("search", None)
    if pygame.K_0 <= key <= pygame.K_9 and not shift:
        return ("view_agent", key - pygame.K_0)
    if key in (pygame.K_LEFT, pygame.K_RIGHT):
        sign = 1 if key == pygame.K_RIGHT else -1
        return ("step", sign * (10 if shift else 1))
    if key in (pygame.K_UP, pygame.K_DOWN):
        return ("step", 10 if key == pygame.K_UP else -10)
    if key in OVERLAY_KEYS:
        return ("overlay", OVERLAY_KEYS[key])
    simple = {
        pygame.K_SPACE: ("play", None),
        pygame.K_HOME: ("seek", 0),
        pygame.K_END: ("seek", -1),
        pygame.K_g: ("goto", None),
        pygame.K_o: ("view", "oracle"),
        pygame.K_a: ("view", ("team", 0)),
        pygame.K_b: ("view", ("team", 1)),
        pygame.K_v: ("view_next", None),
        pygame.K_TAB: ("tab", -1 if shift else 1),
        pygame.K_p: ("export", None),
        pygame.K_e: ("video", None),
        pygame.K_m: ("animation", None),
        pygame.K_i: ("arena_png", None),
        pygame.K_c: ("play_on", None),
        pygame.K_x: ("scenario", None),
        pygame.K_f: ("folder", None),
        pygame.K_ESCAPE: ("escape", None),
    }
    return simple.get(key)
