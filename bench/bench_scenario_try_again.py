"""BattleClient scenario playtesting: "Try again" to the next orders screen (issue 17: < 0.5 s).

    .venv/bin/python bench/bench_scenario_try_again.py [--scenario 1] [--attempts 3]

Offscreen (SDL dummy driver): scenario N's play screen (the person on its first focal slot,
the rest the controller), every attempt played to its end with Space, then the end card's
Try again; the time runs from the press until the orders screen is up with the machine
players' answers in (no engine job left). The first attempt's build (compiles) is printed
apart. Prints, asserts nothing (tests/battleclient/test_scenario_playtest.py asserts < 0.5 s).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("JAX_PLATFORMS", "cpu")


def pump(app, surface) -> None:
    import pygame

    app.handle_events(pygame.event.get())
    app.update(1 / 60)
    app.draw(surface)


def wait(app, surface, predicate, limit: float = 900.0) -> None:
    end = time.monotonic() + limit
    while not predicate():
        if time.monotonic() > end:
            raise SystemExit("timed out")
        pump(app, surface)
        time.sleep(0.001)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="1")
    parser.add_argument("--attempts", type=int, default=3)
    args = parser.parse_args()
    import pygame

    from battleclient import layout as L
    from battleclient.app import App
    from battleclient.game_setup import ClientSetup

    pygame.display.init()
    pygame.font.init()
    surface = pygame.display.set_mode(L.SIZE)
    app = App(ClientSetup(), remember=False, warm=False)
    wait(app, surface, lambda: app.kinds is not None)  # JAX is imported on the engine thread
    from evaluation.scenarios import load_scenario

    scenario = load_scenario(args.scenario)
    began = time.perf_counter()
    app.start_scenario(scenario, [scenario.focal_slots[0]])
    play = app.screen
    orders = lambda: play.phase == "orders" and not app.jobs  # noqa: E731
    over = lambda: play.phase == "over" and not app.jobs  # noqa: E731
    wait(app, surface, orders)
    first = time.perf_counter() - began
    print(f"scenario {scenario.id}: first orders screen {first:.1f} s (compiles included)")
    times = []
    for _ in range(args.attempts):
        while not over():
            wait(app, surface, lambda: orders() or over())
            if play.phase == "orders":
                play.end_turn()
        start = time.perf_counter()
        play.try_again()
        wait(app, surface, orders)
        times.append(time.perf_counter() - start)
    print(
        f"Try again -> next orders screen over {len(times)} attempts: median "
        f"{1000 * statistics.median(times):.0f} ms, max {1000 * max(times):.0f} ms (target 500 ms)"
    )
    app.close()


if __name__ == "__main__":
    main()
