"""Orders that persist (battleclient.persist) and take back, as a player gives them: keys
posted on SDL's event queue, read back by the App's own event loop."""

from types import SimpleNamespace

import numpy as np
import pygame

from battleclient.orders import Order, OrderBook
from battleclient.persist import carry_orders
from evaluation.replay import read_replay
from evaluation.replay_verify import verify
from tests.battleclient.driver import frame, key, orders_ready, setup, wait_for
from ui.rules import C

HUMAN = "A0=human,A1-A4=random,B*=random"
A0_CLASS = 1  # the orders panel text below names no Ultimate, so any class reads the same


def book_with(targets: dict) -> OrderBook:
    """Slot A0's book: every move legal, Basic targets at the given categories legal."""
    pair = np.zeros((10, 11, 2), bool)
    pair[:, 0, 0] = True
    for category in targets:
        pair[0, category, 0] = True
    return OrderBook((0,), np.ones((10, 9), bool), pair, spawn_end=0)


def scene_of(alive: dict):
    units = {s: SimpleNamespace(alive=a) for s, a in alive.items()}
    return SimpleNamespace(unit=units.get)


def test_a_repeated_order_keeps_move_and_target_and_drops_the_ultimate():
    book = book_with({7: True})  # category 7 of A0 = B1 (slot 6)
    notes = carry_orders(book, {0: Order(move=3, target=6, ult=True)}, scene_of({6: True}))
    order = book.orders[0]
    assert (order.move, order.target, order.ult, order.carried) == (3, 6, False, "repeat")
    assert notes == [] and book.describe(0, 1).endswith("(repeated)")
    book.set_move(0, 1)  # any change: no longer the repeated order
    assert not book.orders[0].carried and book.describe(0, 1) == "move N, Basic on B1"


def test_a_target_that_died_is_cleared_with_a_note():
    book = book_with({})
    notes = carry_orders(book, {0: Order(move=0, target=8)}, scene_of({8: False}))
    assert notes == ["B3 died: A0's target is cleared"]
    assert book.orders[0].target == -1 and not book.orders[0].carried
    notes = carry_orders(book_with({}), {0: Order(target=8)}, scene_of({}))
    assert notes == ["B3 cannot be targeted now: A0's target is cleared"]


def press(app, *keys):
    """Keys as SDL delivers them: posted on the event queue, handled by the App's frame."""
    for k in keys:
        pygame.event.post(key(k))
        frame(app)  # driver.frame reads pygame.event.get()


def at_orders(app, tick):
    wait_for(app, lambda: orders_ready(app) and app.screen.snap.tick == tick)
    frame(app, dt=0.5)


def test_orders_repeat_take_back_and_repeat_on_demand(apps):
    app = apps(setup(HUMAN, seed=5))
    at_orders(app, 0)
    screen = app.screen
    assert screen.buttons["takeback"].visible and not screen.buttons["takeback"].is_enabled
    press(app, pygame.K_d, pygame.K_SPACE)  # east, end the turn
    at_orders(app, 1)
    assert screen.books[0].orders[0].move == 3 and screen.books[0].orders[0].carried == "repeat"
    assert screen.books[0].describe(0, A0_CLASS).endswith("(repeated)")
    assert screen.buttons["takeback"].is_enabled
    east = screen.snap.state["pos"][0].copy()
    press(app, pygame.K_b)  # take back tick 0
    at_orders(app, 0)
    assert screen.books[0].orders[0].move == 3  # the undone order is back, to change
    # the orders panel says what it is: the order given for the tick taken back
    assert screen.books[0].describe(0, A0_CLASS) == "move E, no target (given before take back)"
    assert "repeated" not in screen.books[0].describe(0, A0_CLASS)
    assert all(t < 0 for t, _ in screen.logs[0])
    press(app, pygame.K_w, pygame.K_SPACE)  # north instead
    at_orders(app, 1)
    north = screen.snap.state["pos"][0]
    assert north[1] > east[1] and north[0] < east[0]
    press(app, pygame.K_o)  # orders repeat: off
    press(app, pygame.K_SPACE)
    at_orders(app, 2)
    assert screen.books[0].orders[0].move == 0  # not repeated
    press(app, pygame.K_r)  # but on demand
    assert screen.books[0].orders[0].move == 1 and screen.books[0].orders[0].carried == "repeat"
    while screen.phase != "over":
        wait_for(app, lambda: orders_ready(app))
        if screen.phase == "orders":
            press(app, pygame.K_SPACE)
    wait_for(app, lambda: screen.replay_path is not None)
    replay = read_replay(screen.replay_path)
    assert [t["tick"] for t in replay.header["takebacks"]] == [0]
    assert replay.header["metrics_level"] == "full" and replay.metrics.height > 0
    assert verify(replay) == []


def test_take_back_brings_the_ultimate_back_and_says_so():
    """A repeated order drops the Ultimate (a one-off); the orders of a tick taken back are
    given again from the same state, so the Ultimate comes back with its target."""
    pair = np.zeros((10, 11, 2), bool)
    pair[0, 0, 0] = pair[0, 7, 0] = pair[0, 7, 1] = True  # B1: Basic or Ultimate
    given = {0: Order(move=3, target=6, ult=True)}
    book = OrderBook((0,), np.ones((10, 9), bool), pair, spawn_end=0)
    assert carry_orders(book, given, scene_of({6: True}), origin="takeback") == []
    assert (book.orders[0].target, book.orders[0].ult) == (6, True)
    assert book.describe(0, 3) == "move E, Trap on B1 (given before take back)"
    again = OrderBook((0,), np.ones((10, 9), bool), pair, spawn_end=0)
    carry_orders(again, given, scene_of({6: True}))
    assert again.describe(0, 3) == "move E, Basic on B1 (repeated)"


def test_a_burst_taken_back_still_gives_its_basic_target_back():
    """A Mage's Burst set its Basic target on B1 aside (orders.toggle_ult); after take back,
    U drops the Burst and the Basic target on B1 is there again."""
    pair = np.zeros((10, 11, 2), bool)
    pair[0, 0, 0] = pair[0, 0, 1] = pair[0, 7, 0] = True  # Burst, or Basic on B1
    given = {0: Order(target=-1, ult=True, set_aside=6)}
    book = OrderBook((0,), np.ones((10, 9), bool), pair, spawn_end=0)
    assert carry_orders(book, given, scene_of({6: True}), origin="takeback") == []
    assert book.describe(0, 1) == "stay, Burst (given before take back)"
    assert book.toggle_ult(0)
    assert book.describe(0, 1) == "stay, Basic on B1"


def test_a_burst_repeated_leaves_the_basic_on_the_target_it_set_aside():
    """R after a Burst (a one-off) repeats the Basic target the Burst set aside (B1 here),
    or, when that target cannot be hit now, clears it with the note a dead target gets."""
    pair = np.zeros((10, 11, 2), bool)
    pair[0, 0, 0] = pair[0, 7, 0] = True  # Burst cooling down; Basic on B1 legal
    given = {0: Order(move=3, target=-1, ult=True, set_aside=6)}
    book = OrderBook((0,), np.ones((10, 9), bool), pair, spawn_end=0)
    assert carry_orders(book, given, scene_of({6: True})) == []
    assert book.describe(0, 1) == "move E, Basic on B1 (repeated)" and book.heads(0) == (3, 7, 0)
    gone = book_with({})  # B1 died meanwhile
    assert carry_orders(gone, given, scene_of({6: False})) == ["B1 died: A0's target is cleared"]
    assert gone.describe(0, 1) == "move E, no target (repeated)"


def test_r_after_a_burst_gives_the_basic_its_target_again(apps, tmp_path):
    """Scenario 8's start by keys, its Mage B0 given 80 HP (full) to outlive the tick: B0
    (Burst ready, enemy Hunter A1 2.12 and Mage A2 2.20 away, within the Basic's 3.0) targets
    with T T (A1, then A2: legal slots in turn), casts Burst with U, turns repeating off with
    O and ends the tick; on the next tick (A2 still in reach: it keeps about 2.9 from its
    focus, policies/scripted.py) R repeats the orders: the Basic is on A2 again, the Burst
    (cooling down) is not."""
    import json

    from evaluation import scenarios as S

    doc = json.loads((S.SCENARIOS_DIR / "008_burst_then_charge.json").read_text())
    doc["start"]["agents"]["B0"]["health"] = 80
    doc["arena"], doc["lines"] = 904, []  # the arena by id: the file is not beside it
    (tmp_path / "sturdy.json").write_text(json.dumps(doc))
    app = apps(setup("A0=human,A1-A4=random,B*=random"), start=False)
    app.start_scenario(S.load_scenario(tmp_path / "sturdy.json"), [5])
    wait_for(app, lambda: orders_ready(app) and app.screen.snap is not None)
    screen, start, mage = app.screen, app.screen.snap.tick, C.CLASS_ID["Mage"]
    press(app, pygame.K_t, pygame.K_t)
    assert screen.books[1].describe(5, mage) == "stay, Basic on A2"
    press(app, pygame.K_u, pygame.K_o, pygame.K_SPACE)
    assert screen.last_orders[5].set_aside == 2
    wait_for(app, lambda: orders_ready(app) and screen.snap.tick == start + 1)
    assert screen.books[1].orders[5].target == -1  # repeating is off: a fresh order
    assert screen.books[1].legal_targets(5, False) == {2}
    press(app, pygame.K_r)
    order = screen.books[1].orders[5]
    assert (order.target, order.ult, order.carried) == (2, False, "repeat")
    assert screen.books[1].describe(5, mage) == "stay, Basic on A2 (repeated)"
    assert screen.message == "Last tick's orders repeated"
