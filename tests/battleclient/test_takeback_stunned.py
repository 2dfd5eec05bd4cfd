"""Take back across a tick the client played by itself (no human agent could act, RULES 3.3's
stun): keys posted on SDL's event queue, read back by the App's own event loop."""

import json
from pathlib import Path

import pygame

from battleclient.play_screen import ticks_to_take_back
from evaluation import scenarios as S
from tests.battleclient.driver import orders_ready, setup, wait_for
from tests.battleclient.test_persist_orders import at_orders, press

CLOSE_QUARTERS = Path(S.__file__).resolve().parents[1] / "scenarios" / "004_close_quarters.json"


def test_a_take_back_steps_past_the_ticks_played_by_itself():
    assert ticks_to_take_back([True, False, False]) == 3  # to the tick with human orders
    assert ticks_to_take_back([False, True]) == 1
    assert ticks_to_take_back([False, False]) == 0  # nothing with human orders to go back to
    assert ticks_to_take_back([]) == 0


def stunned_a0():
    """Scenario 4 with the human's agent A0 stunned by a Charge at its first tick (294)."""
    doc = json.loads(CLOSE_QUARTERS.read_text())
    doc["start"]["agents"]["A0"]["status"] = {"charge_stun": 1}
    return S.scenario_from_dict(doc, CLOSE_QUARTERS)


def test_b_twice_after_a_stunned_tick_keeps_the_orders_and_says_so(apps):
    app = apps(setup(), start=False)
    app.start_scenario(stunned_a0(), [0])
    screen = app.screen
    at_orders(app, 295)  # tick 294: A0 stunned, the client played it by itself
    assert [hand for _, hand in screen.given] == [False]
    press(app, pygame.K_d, pygame.K_SPACE)  # east, end the turn
    at_orders(app, 296)
    press(app, pygame.K_b)
    at_orders(app, 295)
    assert screen.message.startswith("Took back tick 295: its orders are back")
    assert screen.books[0].orders[0].move == 3 and screen.books[0].orders[0].carried == "takeback"
    press(app, pygame.K_b)  # back to tick 294 would only replay it by itself
    for _ in range(30):
        wait_for(app, lambda: orders_ready(app))
        app.update(0.1)
    assert screen.phase == "orders" and screen.snap.tick == 295
    assert screen.message == "Nothing to take back: no human agent could act on any tick yet"
    assert screen.books[0].orders[0].move == 3  # the brought-back order is still there
    assert [t["tick"] for t in screen.session.takebacks] == [295]
