"""Why a replay did not open: one status line and a pygame_gui message window with the reason.

The window names the full path in bold and the whole reason; the status line names the file
only (its one line has no room for a path). Esc or Ctrl+O closes the window (App.close_windows).
"""

import html
from pathlib import Path

import pygame
from pygame_gui.windows import UIMessageWindow

from evaluation.replay import ReplayError
from replay_viewer import layout as L


def open_problem(error: Exception) -> str:
    """Why a replay did not open, in one line without the path (shown next to it)."""
    if isinstance(error, ReplayError):
        return f"{error.field}: {error.problem}"
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def show_problem(app, path: Path, error: Exception) -> None:
    """A short status line on `app` and a message window with the whole reason and the full
    path (`app.problem` keeps the same reason as one line, for the command line)."""
    reason = open_problem(error)
    app.problem = f"Cannot open {path}: {reason}"
    app.say(f"Cannot open {path.name}: {reason}", error=True)
    close_problem(app)
    text = (
        f"<b>{html.escape(str(path))}</b><br><br>{html.escape(reason)}<br><br>"
        "Pick another file with Open (Ctrl+O); Esc closes this message."
    )
    app.problem_window = UIMessageWindow(
        pygame.Rect(L.PROBLEM), text, app.manager, window_title=f"Cannot open {path.name}"
    )


def close_problem(app) -> bool:
    """Closes `app`'s problem window; True if one was open."""
    window, app.problem_window = app.problem_window, None
    if window is not None and window.alive():
        window.kill()
        return True
    return False
