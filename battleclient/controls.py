"""Keyboard controls of the play screen, as data (the help card and the README list them)."""

import pygame

# key -> world direction index (C.MOVE_NAMES: Stay N S E W NE NW SE SW); up on screen = north
MOVE_KEYS = {
    pygame.K_w: 1,
    pygame.K_s: 2,
    pygame.K_d: 3,
    pygame.K_a: 4,
    pygame.K_e: 5,
    pygame.K_q: 6,
    pygame.K_c: 7,
    pygame.K_z: 8,
    pygame.K_x: 0,
    pygame.K_KP8: 1,
    pygame.K_KP2: 2,
    pygame.K_KP6: 3,
    pygame.K_KP4: 4,
    pygame.K_KP9: 5,
    pygame.K_KP7: 6,
    pygame.K_KP3: 7,
    pygame.K_KP1: 8,
    pygame.K_KP5: 0,
}
SPEEDS = (1, 2, 4, 8, 16, 30)  # spectator ticks per second
# keys that dismiss the hotseat hand-over card (a click does too) -> the name the card shows
TAKE_OVER_KEYS = {pygame.K_RETURN: "Enter", pygame.K_KP_ENTER: "Enter", pygame.K_SPACE: "Space"}
TAKE_OVER_PROMPT = (
    f"Press {' or '.join(dict.fromkeys(TAKE_OVER_KEYS.values()))} (or click) when ready."
)
# the card's last line after a press it ignored (play_input.HANDOVER_GUARD_S), so the press is
# not lost unseen
EARLY_PRESS_PROMPT = "That press came as the card appeared and was ignored: press again."
SELECT_KEYS = {pygame.K_1: 0, pygame.K_2: 1, pygame.K_3: 2, pygame.K_4: 3, pygame.K_5: 4}

HELP = (
    ("Orders (your turn)", ""),
    ("Click / Tab / 1-5", "select one of your agents (Shift+Tab: previous)"),
    ("Click a ring dot", "move that way (click it again: stay)"),
    ("W A S D, Q E Z C", "move N W S E, NW NE SW SE; X stays"),
    ("Numpad 1-9", "move (8 north, 5 stay)"),
    ("Click a ringed unit", "target it (only legal targets are ringed)"),
    ("T / Backspace", "next legal target / clear the target"),
    ("U or the button", "Ultimate on/off (only when legal)"),
    ("Space / Enter", "end the turn (lock in every order)"),
    ("B or Take back", "undo the last resolved tick (its orders come back)"),
    ("O / R", "orders repeat each tick on/off / repeat the last orders"),
    ("Spectating", ""),
    ("Space / P", "pause / play"),
    ("N or Right", "one tick (while paused)"),
    ("+ / -", "faster / slower"),
    ("Anywhere", ""),
    ("H or F1", "this help"),
    ("Esc", "menu: back to the game, leave to the lobby, quit"),
    ("K", "stop waiting for LLM slots (they play the no-op this tick)"),
    ("R (game over)", "open the replay in the Replay Viewer"),
    ("V (game over)", "export the game as a video (GIF)"),
    ("T / W / S (scenario over)", "try again / watch a winning line / back to scenarios"),
    ("P (in the menu)", "save this position as a scenario (focal team, horizon)"),
    ("F12", "save a screenshot (PNG)"),
    ("F11", "full screen on/off (drag the window's edge to resize it)"),
)
