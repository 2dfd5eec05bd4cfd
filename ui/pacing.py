"""Frame pacing for the two apps: full frame rate while something moves, a wait on the event
queue when nothing does (an idle window then costs almost no CPU and still answers at once).
"""

import pygame

FPS = 60  # frames a second while playing, animating or right after input
IDLE_FPS = 12  # frames a second when idle: cursor blinks and tool tips still run
LINGER_S = 0.5  # seconds of full rate after the last input (hover and menu animations)


class FramePacer:
    """`next_frame(busy)` -> (events, dt seconds). busy: the app has motion to show.

    Busy (or within LINGER_S of the last event): pygame's clock caps the loop at FPS. Idle: it
    blocks in pygame.event.wait for at most 1/IDLE_FPS s, waking at once on any event.
    `clock`, `wait` and `get` stand in for pygame's in tests."""

    def __init__(self, fps=FPS, idle_fps=IDLE_FPS, linger_s=LINGER_S, clock=None,
                 wait=None, get=None):  # fmt: skip
        self.fps, self.idle_fps, self.linger_s = fps, idle_fps, linger_s
        self.clock = clock or pygame.time.Clock()
        self.wait = wait or pygame.event.wait
        self.get = get or pygame.event.get
        self.quiet_s = 0.0  # seconds since the last event

    def next_frame(self, busy: bool) -> tuple[list, float]:
        if busy or self.quiet_s < self.linger_s:
            dt = self.clock.tick(self.fps) / 1000.0
            events = list(self.get())
        else:
            first = self.wait(round(1000 / self.idle_fps))
            events = ([first] if first.type != pygame.NOEVENT else []) + list(self.get())
            dt = self.clock.tick() / 1000.0
        self.quiet_s = 0.0 if events else self.quiet_s + dt
        return events, dt

    @property
    def idle(self) -> bool:
        """True when the last frame waited on the event queue (for tests and tools)."""
        return self.quiet_s >= self.linger_s
