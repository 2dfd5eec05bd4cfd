"""The BattleClient's window loop (a mixin of battleclient.app.App): frames at 60 a second
while something moves and a wait on the event queue when idle (ui.pacing), full screen (F11),
the layout scaled to the window (ui.window_fit), screenshots (F12, --screenshot), SIGTERM
(ui.signals) and closing the engine thread. The App's logic (screens, engine jobs) stays in
battleclient.app; this is how it meets SDL's window.
"""

import sys
from contextlib import nullcontext
from pathlib import Path

import pygame

from battleclient import layout as L
from battleclient.settings import timestamp
from battleclient.startup import screenshot_ready
from fileio import unused_path
from ui.pacing import FramePacer
from ui.paths import screenshot_dir
from ui.png import save_png
from ui.signals import EXIT_CODE as TERM_EXIT
from ui.signals import TermSignal
from ui.window_fit import hold_minimum_size

TERM_WAIT_S = 3.0  # on SIGTERM: seconds for the engine thread to finish (a replay being written)


class WindowLoop:
    """The App's window side: it uses the App's handle_events, update, draw, busy, screen,
    fit, worker and jobs."""

    def toggle_fullscreen(self) -> None:
        """F11: full screen (the desktop's resolution) or back to a resizable window of the
        layout's size; the layout is scaled to either (ui.window_fit)."""
        self.fullscreen = not self.fullscreen
        if self.fullscreen:
            surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            surface = pygame.display.set_mode(L.SIZE, pygame.RESIZABLE)
            hold_minimum_size(L.SIZE)
        self.fit.resize(surface.get_size())

    def show(self, display) -> None:
        """Draw the screen in the layout's 1280 x 800 frame and present it on the window
        surface `display`, scaled to the window's size."""
        if self.fit.identity and display.get_size() == L.SIZE:
            return self.draw(display)
        frame = pygame.Surface(L.SIZE)
        self.draw(frame)
        self.fit.present(frame, display)

    def save_screenshot(self) -> Path | None:
        """F12: the last drawn frame as a new PNG in the screenshots folder both apps use."""
        if self.last_frame is None:
            return None
        path = save_png(self.last_frame, unused_path(screenshot_dir(), f"client_{timestamp()}.png"))
        self.screen.say(f"Screenshot saved: {path}")
        return path

    def run(self, display, screenshot=None, after_ticks: int = 0, term=None) -> int:
        """The window loop: 60 frames a second while something moves, a wait on the event queue
        when idle (ui.pacing); with `screenshot`, save a PNG once the game reached
        `after_ticks` (human slots hold still meanwhile) and stop. `term`: a TermSignal the
        caller entered before the window opened (else one is entered here)."""
        pacer = FramePacer()
        wake = pygame.event.custom_type()
        self.worker.notify = lambda: pygame.event.post(pygame.event.Event(wake))
        with TermSignal() if term is None else nullcontext(term) as term:
            self._loop(pacer, display, screenshot, after_ticks, term)
        if term.received:  # no questions, and no minute-long wait for a compile to end
            video = getattr(self.screen, "video", None)
            if video is not None:
                video.cancel()  # an export in progress: its temporary file removed
            self.close(timeout=TERM_WAIT_S)
            print("battleclient: ended by SIGTERM", file=sys.stderr)
            return TERM_EXIT
        self.close()
        return 0

    def _loop(self, pacer, display, screenshot, after_ticks: int, term) -> None:
        while self.running and not term.received:
            events, dt = pacer.next_frame(self.busy() or screenshot is not None)
            if term.received:
                break
            self.handle_events(events)
            self.update(dt)
            if screenshot is not None and screenshot_ready(self, after_ticks):
                frame = pygame.Surface(L.SIZE)
                self.draw(frame)
                print(save_png(frame, screenshot))
                if self.screen.snap.tick < after_ticks:  # the score ended it sooner
                    print(
                        f"battleclient: --after-ticks {after_ticks}: the game ended at tick "
                        f"{self.screen.snap.tick}; the screenshot shows its last frame",
                        file=sys.stderr,
                    )
                self.running = False
                break
            self.show(pygame.display.get_surface() or display)
            pygame.display.flip()

    def close(self, timeout: float = 60.0) -> None:
        """Let the engine thread finish (a replay being written), then stop it."""
        for tag, ok, value in self.worker.wait(timeout):
            done = self.jobs.pop(tag, None)
            if done is not None:
                done(ok, value)
        self.worker.stop(min(timeout, 10.0))
