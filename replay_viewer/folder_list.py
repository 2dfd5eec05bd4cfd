"""The folder listing over the window: shown, hidden, and closed with Esc.

The list (a pygame_gui UISelectionList over the arena and the side panel) covers the game's
widgets; those drawn above it (the scrubber's arrows, the side panel's tab buttons) are hidden
while it shows, so nothing of the game behind sits over the list. An empty folder gets no list
(an empty box over the tabs tells nothing): the status line says so and an open replay stays.
Esc closes the list and goes back to the replay that was open when it was shown, if any.
"""

import pygame
from pygame_gui.elements import UISelectionList

from replay_viewer import layout as L
from replay_viewer.folder import list_replays
from ui.explain import counted
from ui.panels import elide_middle, short_path

LIST_ROOM = 60  # pixels of the folder list taken by its scroll bar and padding


def covered_widgets(app) -> list:
    """The game's widgets under the list that pygame_gui would draw over it."""
    widgets = [app.bar.slider, *app.side.tab_buttons.values()]
    return [w for w in widgets if w is not None]


def list_folder(app, folder) -> None:
    """Lists `folder`'s replays (replay_viewer.folder.list_replays) over the window, the open
    replay kept behind to come back to with Esc; an empty folder lists nothing and says so."""
    entries = list_replays(folder)
    if not entries:
        app.folder = folder
        where = short_path(folder)
        then = "; the open replay stays" if app.model is not None else ""
        return app.say(f"No replays (.mbgr files) in {where}{then}. Ctrl+O opens another")
    app.folder, app.entries = folder, entries
    app.behind = app.model if app.model is not None else app.behind
    app.model = None
    app.bar.enable_game_buttons(False)
    show_list(app)
    bad = sum(e.header is None for e in entries)
    note = f" ({bad} unreadable)" if bad else ""
    back = "; Esc goes back to the replay" if app.behind is not None else ""
    where = short_path(folder)
    app.say(f"{counted(len(entries), 'replay')}{note} in {where}; click one to open it{back}")


def show_list(app) -> None:
    hide_list(app)
    # pygame_gui clips a row wider than the list under its scroll bar: shorten it in the
    # middle (file name start, result at the end) with the list's own font
    font = app.manager.get_theme().get_font(["selection_list.@selection_list_item"])
    width = L.LIST[2] - LIST_ROOM
    labels = [
        elide_middle(f"{i + 1:3d}  {e.label()}", font, width) for i, e in enumerate(app.entries)
    ]
    app.list_widget = UISelectionList(pygame.Rect(L.LIST), labels, app.manager)
    for widget in covered_widgets(app):
        widget.hide()


def hide_list(app) -> None:
    """Removes the list and shows the widgets it covered again."""
    if app.list_widget is not None:
        app.list_widget.kill()
        app.list_widget = None
    for widget in covered_widgets(app):
        widget.show()


def close_list(app) -> bool:
    """Esc on the list: closes it and returns to the replay open before it; True if it was
    shown."""
    if app.list_widget is None:
        return False
    hide_list(app)
    app.model, app.behind = app.behind, None
    if app.model is not None:
        app.bar.enable_game_buttons(True)
        app.say(f"Back to {app.model.name} (f lists the folder again)")
    else:
        app.entries = []  # the resting screen: "No replay open"
        app.say("Folder list closed. Ctrl+O opens a file or a folder; f lists the folder again")
    return True
