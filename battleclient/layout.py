"""Where everything sits in the 1280 x 800 BattleClient window (pixels; x right, y down)."""

SIZE = (1280, 800)

# play screen
TOP = (0, 0, 1280, 40)
ARENA = (0, 40, 880, 450)
ORDERS = (8, 494, 864, 100)
LOG = (8, 598, 864, 198)
SIDE = (886, 44, 390, 752)
BUTTON_Y, BUTTON_H = 5, 30
PLAY_BUTTONS = {  # name -> (text, rect, tool tip)
    "ult": ("Ultimate (U)", (690, BUTTON_Y, 124, BUTTON_H), "Use the Ultimate (only when legal)"),
    "end": ("End turn (Space)", (818, BUTTON_Y, 150, BUTTON_H), "Lock in every order"),
    "takeback": ("Take back (B)", (972, BUTTON_Y, 124, BUTTON_H), "Undo your last orders"),
    "repeat": ("Repeat (R)", (586, BUTTON_Y, 100, BUTTON_H), "Last tick's orders again"),
    "pause": ("Pause (Space)", (690, BUTTON_Y, 124, BUTTON_H), "Pause or play"),
    "step": ("Step (N)", (818, BUTTON_Y, 80, BUTTON_H), "One tick while paused"),
    "slower": ("-", (902, BUTTON_Y, 30, BUTTON_H), "Slower (-)"),
    "faster": ("+", (936, BUTTON_Y, 30, BUTTON_H), "Faster (+)"),
    "help": ("Help (H)", (1100, BUTTON_Y, 84, BUTTON_H), "Controls"),
    "menu": ("Menu (Esc)", (1188, BUTTON_Y, 88, BUTTON_H), "Back to the lobby or quit"),
}
OVER_CARD = (140, 190, 600, 250)  # inside the arena: clear of the side and Slots panels
OVER_BUTTONS = {
    "viewer": ("Open in Replay Viewer (R)", (160, 388, 240, 36)),
    "video": ("Export video (V)", (408, 388, 170, 36)),
    "lobby": ("Lobby (L)", (586, 388, 130, 36)),
}
MENU_BUTTONS = {
    "resume": ("Back to the game (Esc)", (490, 330, 300, 36)),
    "leave": ("Leave to the lobby (L)", (490, 374, 300, 36)),
    "quit": ("Quit (Q)", (490, 418, 300, 36)),
    "position": ("Save position as a scenario (P)", (490, 462, 300, 36)),
}
CARD = (340, 250, 600, 280)  # hand-over, game over and menu cards
SETUP_BAR = (358, 326, 564, 14)  # the "Setting up the game" card's progress bar, under its line

# lobby
TITLE = (20, 10, 900, 34)
PROGRESS = (20, 50, 560, 18)
PROGRESS_TEXT = (20, 70, 880, 22)
MAP_MENU = (20, 104, 440, 30)
PRESET_MENU = (940, 56, 330, 30)
MAP_TEXT = (20, 138, 580, 22)
PREVIEW = (10, 160, 600, 310)
FIELDS_Y = 486
FIELD_X, FIELD_STEP, FIELD_W = 336, 84, 78  # the lobby's number boxes
VIEW_Y = FIELDS_Y + 62  # the lobby's second row: what a human sees (game_setup.VIEWS)
VIEW_MENU = (20, VIEW_Y + 20, 150, 30)
SLOTS_X, SLOTS_Y, ROW_H = 640, 104, 38
SPEC_ENTRY = (640, 574, 630, 30)
MESSAGE = (20, 656, 1240, 80)
HINT = (20, 612, 600, 40)
LOBBY_BUTTONS = {
    "start": ("Start game (Enter)", (20, 740, 200, 40)),
    "replays": ("Replay folder", (230, 740, 160, 40)),
    "scenarios": ("Scenarios", (400, 740, 160, 40)),
    "quit": ("Quit", (1160, 740, 100, 40)),
}
DIALOG = (200, 100, 800, 560)
