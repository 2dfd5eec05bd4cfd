"""BattleClient timings: window-up time, next-orders latency after lock-in, idle frame rate.

    .venv/bin/python bench/bench_client.py [--ticks 20] [--bots tactician]

- window up: from starting a fresh `python` process to the lobby's first frame on screen
  (target < 2 s); the engine is still loading then, on its own thread.
- next orders: after the human locks in (Space), until the next tick's orders screen is up,
  with scripted opponents in the nine other slots (target < 150 ms); first ticks (compiles)
  are left out.
- idle: frames a second of the orders screen at the 60 fps cap, and the uncapped cost of
  one frame (events + update + draw).
Runs offscreen (SDL dummy driver) unless --window; prints, asserts nothing.
"""

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
UP_SCRIPT = """
import time, pygame
from battleclient import layout as L
from battleclient.app import App
from battleclient.game_setup import ClientSetup
pygame.display.init(); pygame.font.init()
display = pygame.display.set_mode(L.SIZE)
app = App(ClientSetup(), remember=False, warm=False)
app.draw(display); pygame.display.flip()
print("UP", flush=True)
app.close(0.0)
"""


def window_up(env) -> float:
    start = time.perf_counter()
    child = subprocess.Popen(
        [sys.executable, "-c", UP_SCRIPT], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )
    for line in child.stdout:
        if line.startswith("UP"):
            elapsed = time.perf_counter() - start
            break
    else:
        raise RuntimeError("the client did not come up")
    child.kill()
    child.wait()
    return elapsed


def pump(app, surface):
    import pygame

    app.handle_events(pygame.event.get())
    app.update(1 / 60)
    app.draw(surface)


def wait_orders(app, surface, tick: int, limit: float = 900.0) -> None:
    end = time.perf_counter() + limit
    while time.perf_counter() < end:
        pump(app, surface)
        screen = app.screen
        if screen.phase == "orders" and not screen.waiting and screen.snap.tick >= tick:
            return
    raise TimeoutError("no orders screen")


def latencies(app, surface, ticks: int, warm: int = 2) -> list[float]:
    import pygame

    space = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_SPACE, mod=0, unicode=" ")
    out = []
    for k in range(warm + ticks):
        tick = app.screen.snap.tick
        if app.screen.snap.over:
            break
        while app.worker.busy:  # the bots' decision for this tick, made while "thinking"
            pump(app, surface)
        start = time.perf_counter()
        app.handle_events([space])
        wait_orders(app, surface, tick + 1)
        if k >= warm:
            out.append(time.perf_counter() - start)
    return out


def idle(app, display, seconds: float = 3.0) -> tuple[float, float]:
    import pygame

    clock, frames, start = pygame.time.Clock(), 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        clock.tick(60)
        pump(app, display)
        pygame.display.flip()
        frames += 1
    fps = frames / (time.perf_counter() - start)
    start = time.perf_counter()
    for _ in range(60):
        pump(app, display)
    return fps, (time.perf_counter() - start) / 60 * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ticks", type=int, default=20, help="lock-ins to time")
    parser.add_argument("--bots", default="tactician", help="scripted bot of the other slots")
    parser.add_argument("--window", action="store_true", help="a real window (needs a display)")
    args = parser.parse_args()
    if not args.window:
        os.environ["SDL_VIDEODRIVER"] = "dummy"
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ups = [window_up(env) for _ in range(3)]
    print(f"window up: {min(ups):.2f} s best of 3 ({', '.join(f'{u:.2f}' for u in ups)})")

    import pygame

    from battleclient import layout as L
    from battleclient.app import App
    from battleclient.game_setup import ClientSetup

    pygame.display.init()
    pygame.font.init()
    display = pygame.display.set_mode(L.SIZE)
    bot = f"scripted:{args.bots}"
    setup = ClientSetup(slots=f"A0=human,A1-A4={bot},B*={bot}", seed=1)
    started = time.perf_counter()
    app = App(setup, start=True, remember=False, warm=False)
    surface = pygame.Surface(L.SIZE)
    wait_orders(app, surface, 0)
    print(
        f"first orders screen (JAX load + compile or cache): {time.perf_counter() - started:.1f} s"
    )
    times = latencies(app, surface, args.ticks)
    ms = sorted(t * 1000 for t in times)
    print(
        f"next orders after lock-in ({bot} in 9 slots, {len(ms)} ticks): median "
        f"{statistics.median(ms):.0f} ms, p90 {ms[int(0.9 * (len(ms) - 1))]:.0f} ms, "
        f"max {ms[-1]:.0f} ms"
    )
    fps, frame_ms = idle(app, display)
    print(
        f"idle orders screen: {fps:.1f} fps at the 60 fps cap; one frame uncapped {frame_ms:.1f} ms"
    )
    app.close()


if __name__ == "__main__":
    main()
