"""Where everything sits in the 1280 x 800 window (pixels; x right, y down)."""

SIZE = (1280, 800)
BAR_Y, BAR_H = 4, 30
# name, text, rect, tool tip
BUTTONS = (
    ("open", "Open", (4, BAR_Y, 60, BAR_H), "Open a replay or a folder (Ctrl+O)"),
    ("first", "|<", (68, BAR_Y, 34, BAR_H), "First tick (Home)"),
    ("back10", "<<", (104, BAR_Y, 34, BAR_H), "Ten ticks back (Down)"),
    ("back", "<", (140, BAR_Y, 34, BAR_H), "One tick back (Left)"),
    ("play", "Play", (176, BAR_Y, 62, BAR_H), "Play / pause (Space)"),
    ("fwd", ">", (240, BAR_Y, 34, BAR_H), "One tick forward (Right)"),
    ("fwd10", ">>", (276, BAR_Y, 34, BAR_H), "Ten ticks forward (Up)"),
    ("last", ">|", (312, BAR_Y, 34, BAR_H), "Last tick (End)"),
    ("video", "Video", (664, BAR_Y, 56, BAR_H), "Export the game as a video in this view (e)"),
    ("png", "PNG", (722, BAR_Y, 50, BAR_H), "Save this frame as PNG (p)"),
    ("help", "?", (776, BAR_Y, 30, BAR_H), "Keyboard shortcuts (?)"),
    # the row right of the info lines, over the side panel
    ("play_on", "Play on from here", (866, 44, 160, BAR_H), "Open the BattleClient here (c)"),
    ("scenario", "Save as scenario", (1030, 44, 150, BAR_H), "Save as a scenario file (x)"),
)
# The buttons that act on an open game: greyed out (pygame_gui's disable) until one is open.
GAME_BUTTONS = tuple(name for name, *_ in BUTTONS if name not in ("open", "help"))
BUTTON_ACTIONS = {
    "open": ("open", None),
    "first": ("seek", 0),
    "back10": ("step", -10),
    "back": ("step", -1),
    "play": ("play", None),
    "fwd": ("step", 1),
    "fwd10": ("step", 10),
    "last": ("seek", -1),
    "png": ("export", None),
    "video": ("video", None),
    "help": ("help", None),
    "play_on": ("play_on", None),
    "scenario": ("scenario", None),
}
TICK_ENTRY = (352, BAR_Y, 64, BAR_H)
SPEED = (420, BAR_Y, 110, BAR_H)
VIEW = (534, BAR_Y, 126, BAR_H)
STATUS = (812, 3, 464, 32)  # two lines of the 18 px font
INFO = (4, 40, 860, 40)  # three lines of the 16 px font
ARENA = (0, 80, 860, 422)
MARKS = (10, 504, 840, 20)  # the story strip: deaths, Ultimates, points (replay_viewer.timeline)
SCRUB = (10, 526, 840, 22)
PLOTS = {
    "health": (4, 552, 340, 244),
    "score": (348, 552, 250, 244),
    "damage": (602, 552, 258, 244),
}
SIDE = (866, 80, 410, 716)
TAB_W, TAB_H = 100, 28
SIDE_BODY = (866, 80 + TAB_H + 4, 410, 716 - TAB_H - 4)
SEARCH = (866, 112, 258, 30)
HIDE_ZERO = (1128, 112, 74, 30)  # the Metrics tab's "Hide 0" toggle
CSV = (1206, 112, 70, 30)  # and its CSV export of the rows shown
TABLE = (866, 164, 410, 632)
HEAT_BUTTONS_Y = 112
LIST = (10, 80, 1260, 710)
DIALOG = (200, 100, 800, 560)
PROBLEM = (340, 240, 600, 260)  # the window saying why a file did not open
BRANCH = (340, 200, 600, 250)  # the Play on / Save as scenario windows
FEED = (560, 86, 296, 100)  # the kill feed, in the arena's top right corner
# Where a tooltip may go, by what it is about: the panel under the pointer (the arena, a plot,
# the side panel), else that panel's column (the story strip is too thin to hold one), never
# the other column; the status box's may cover either (replay_viewer.panels.tooltip_box).
LEFT_COLUMN = (0, 40, 864, 760)
TOOLTIP_AREAS = (ARENA, *PLOTS.values(), SIDE, LEFT_COLUMN, (866, 40, 414, 760))
