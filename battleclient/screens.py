"""The interface every BattleClient screen implements (the lobby, the play screen).

The App holds one `Screen` at a time and talks to it only through these methods, so a new
screen is a subclass that overrides what it needs; the defaults are what a screen without that
feature does (nothing to refresh, nothing to save on leaving, never busy).
"""

from abc import ABC, abstractmethod


class Screen(ABC):
    """One screen of the BattleClient window.

    Attributes the App and the screenshot mode read: `snap` (the shown tick's Snapshot, None
    on screens without a game), `phase` (the play screen's phase name, "" elsewhere) and
    `waiting` (True while the engine thread works on the shown game).
    """

    snap = None
    phase = ""
    waiting = True

    @abstractmethod
    def handle_events(self, events) -> None:
        """The frame's pygame events (SDL's, as pygame_gui receives them)."""

    @abstractmethod
    def update(self, dt: float) -> None:
        """Advance by dt seconds of wall time."""

    @abstractmethod
    def draw(self, surface) -> None:
        """Draw the whole screen on `surface` (the window's logical 1280 x 800 frame)."""

    def say(self, text: str, error: bool = False) -> None:
        """Show a short message (errors and hints alike); screens without a message line
        ignore it."""
        return None

    def refresh(self) -> None:
        """The engine finished loading (System kinds known): rebuild what depends on it."""
        return None

    def leave(self, then) -> None:
        """The window is closing: save what must be saved, then call `then()`."""
        then()

    def busy(self) -> bool:
        """True while the picture moves on its own (the App then draws at 60 frames a second,
        else it waits on the event queue)."""
        return False
