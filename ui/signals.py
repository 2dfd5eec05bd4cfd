"""Ending an app cleanly on SIGTERM, for both apps (`kill PID`, a session logging out).

SDL turns SIGTERM into a QUIT event of its own (SDL_HINT_NO_SIGNAL_HANDLERS, SDL 2), which
the apps answer as a person closing the window: a game in progress asks first, and the
BattleClient then waits up to a minute for its engine thread, which may be in the middle of a
compile. So a client told to terminate kept running. `TermSignal` replaces that handler while
an app's loop runs: the first SIGTERM sets `received` (the loop checks it every frame and ends
without asking) and posts a QUIT event to wake a loop that is waiting on the event queue; a
second SIGTERM gets the default action and ends the process at once. Python runs the handler
on the main thread (the UI thread), between two bytecodes, so a compile on a worker thread
does not delay it.
"""

import os
import signal
import sys

import pygame

EXIT_CODE = 128 + signal.SIGTERM  # 143: ended by SIGTERM, the shell's convention


class TermSignal:
    """A context manager: while inside, SIGTERM sets `received` (see the module docstring);
    on leaving, the handler before it is back. Install it from the main thread only."""

    def __init__(self):
        self.received = False
        self._before = None

    def __enter__(self) -> "TermSignal":
        self._before = signal.signal(signal.SIGTERM, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        signal.signal(signal.SIGTERM, self._before if self._before is not None else signal.SIG_DFL)

    def _handle(self, signum, frame) -> None:
        del signum, frame
        self.received = True
        signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM: end at once
        try:
            pygame.event.post(pygame.event.Event(pygame.QUIT))  # wakes an idle event wait
        except pygame.error:  # no display (yet): the flag alone ends the loop
            pass


def end_process(code: int = EXIT_CODE) -> None:
    """End the process now with `code`, after the app has closed (its files written), without
    the interpreter's exit: a compile still running on a daemon thread makes that exit abort
    inside XLA ("terminate called after throwing ..."), so the exit code would be a crash."""
    try:
        pygame.quit()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
