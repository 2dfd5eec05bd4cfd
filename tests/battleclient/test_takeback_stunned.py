"""Take back across a tick the client played by itself (no human agent could act, RULES 3.3's
Charge stun): keys and clicks posted on SDL's event queue, read back by the App's own event
loop; the "Take back" button is enabled exactly when B would undo something; a repeated order
outlasts a stunned tick."""

import json
from pathlib import Path

import numpy as np
import pygame

from battleclient import layout as L
from battleclient.takeback import (
    GAME_OVER,
    NO_HUMAN_TICK,
    NOTHING_RESOLVED,
    TAKE_BACK_TIP,
    take_back_refusal,
    ticks_to_take_back,
)
from evaluation import scenarios as S
from tests.battleclient.driver import (
    click,
    frame,
    hover,
    move_mouse,
    orders_ready,
    post_events,
    setup,
    wait_for,
)
from tests.battleclient.test_end_card_view import human_game_over, spy
from tests.battleclient.test_persist_orders import at_orders, press
from ui.rules import C

CLOSE_QUARTERS = Path(S.__file__).resolve().parents[1] / "scenarios" / "004_close_quarters.json"
BUTTON = pygame.Rect(L.PLAY_BUTTONS["takeback"][1]).center


def test_a_take_back_steps_past_the_ticks_played_by_itself():
    assert ticks_to_take_back([True, False, False]) == 3  # to the tick with human orders
    assert ticks_to_take_back([False, True]) == 1
    assert ticks_to_take_back([False, False]) == 0  # nothing with human orders to go back to
    assert ticks_to_take_back([]) == 0


def test_the_refusal_says_why_a_take_back_would_undo_nothing():
    assert take_back_refusal(False, []) == NOTHING_RESOLVED
    assert take_back_refusal(True, [False]) == NO_HUMAN_TICK
    assert take_back_refusal(True, [False, True, False]) == ""
    assert take_back_refusal(False, [True], over=True) == GAME_OVER  # the card's B


def stunned_a0():
    """Scenario 4 with the human's agent A0 stunned by a Charge at its first tick (294). The
    score starts at 0 : 0: from the scenario's 19 : 18 Team B reaches its 20 at tick 295 (its
    Rogue and Mage kill Hunter A2 whatever A0 does), and B does nothing on the game-over card,
    so a take back at tick 296 would be waited for forever."""
    doc = json.loads(CLOSE_QUARTERS.read_text())
    doc["start"]["agents"]["A0"]["status"] = {"charge_stun": 1}
    doc["start"]["score"] = [0, 0]
    return S.scenario_from_dict(doc, CLOSE_QUARTERS)


def button_state(screen) -> tuple:
    button = screen.buttons["takeback"]
    return button.visible, button.is_enabled, button.tool_tip_text


def test_take_back_by_button_and_b_after_a_stunned_tick(apps):
    app = apps(setup(), start=False)
    app.start_scenario(stunned_a0(), [0])
    screen = app.screen
    at_orders(app, 295)  # tick 294: A0 stunned, the client played it by itself
    assert [hand for _, hand in screen.given] == [False]
    assert button_state(screen) == (True, False, NO_HUMAN_TICK)
    press(app, pygame.K_b)  # nothing with human orders to go back to: says so
    assert screen.message == NO_HUMAN_TICK and screen.phase == "orders"
    assert screen.snap.tick == 295 and screen.session.takebacks == []

    press(app, pygame.K_d, pygame.K_SPACE)  # east, end the turn
    at_orders(app, 296)
    assert screen.phase == "orders" and not screen.snap.over
    assert [hand for _, hand in screen.given] == [False, True]
    assert button_state(screen) == (True, True, TAKE_BACK_TIP)
    assert any(t == 295 for t, _ in screen.logs[0])  # tick 295 told in the log

    post_events(app, click(BUTTON))  # a real click on "Take back"
    at_orders(app, 295)
    assert screen.message == "Took back tick 295: its orders are back, change them"
    order = screen.books[0].orders[0]
    assert (order.move, order.carried) == (3, "takeback")
    assert [t["tick"] for t in screen.session.takebacks] == [295]
    # A0's undone move as the engine got it: East is W (4) in the frame of a team spawned
    # east, as Team A is in this scenario (battleclient.orders)
    assert screen.session.takebacks[0]["submitted"][0][0] == 4
    assert [hand for _, hand in screen.given] == [False]
    assert not any(t == 295 for t, _ in screen.logs[0])  # the undone tick left the log
    assert button_state(screen) == (True, False, NO_HUMAN_TICK)

    post_events(app, click(BUTTON))  # disabled: the click does nothing
    press(app, pygame.K_b)  # back to tick 294 would only replay it by itself: says why
    assert screen.phase == "orders" and screen.snap.tick == 295
    assert screen.message == NO_HUMAN_TICK
    assert screen.books[0].orders[0].move == 3  # the brought-back order is still there
    assert [t["tick"] for t in screen.session.takebacks] == [295]


def charged_a0():
    """Scenario 4 at 0 : 0 with Team B's Rogue swapped for a Warrior (Charge ready) 1.4 west
    of A0 and Team B played by scripted:brawler (policies/scripted.py: Ultimates fire as soon
    as legal, on the nearest enemy): at tick 294 it Charges A0 (200 HP, so it lives), which
    is stunned at tick 295 (RULES 2.3 charge_stun, a stun applied on t first bites t + 1)."""
    doc = json.loads(CLOSE_QUARTERS.read_text())
    doc["start"]["score"] = [0, 0]
    doc["controller"] = "scripted:brawler"
    doc["start"]["agents"]["A0"]["health"] = 200
    doc["start"]["agents"]["B0"].update(
        {"class": "Warrior", "cooldown": 0, "health": 200, "pos": [3.6, 5.0]}
    )
    return S.scenario_from_dict(doc, CLOSE_QUARTERS)


def test_a_repeated_move_waits_out_a_stun_and_repeats_after_it(apps):
    app = apps(setup(), start=False)
    app.start_scenario(charged_a0(), [0])
    screen = app.screen
    at_orders(app, 294)
    press(app, pygame.K_d, pygame.K_SPACE)  # east, end the turn
    at_orders(app, 295)
    stun = int(np.flatnonzero(np.asarray(C.STATUS_NAMES) == "charge_stun")[0])
    assert screen.snap.state["status"][0][stun] == 1  # Charged at 294: stunned this tick
    assert not screen.books[0].can_act(0)
    at_orders(app, 296)  # tick 295 played by the client itself
    assert [hand for _, hand in screen.given] == [True, False]
    order = screen.books[0].orders[0]
    assert (order.move, order.carried) == (3, "repeat")
    assert screen.books[0].describe(0, C.WARRIOR) == "move E, no target (repeated)"
    assert screen.given[-1][0][0].move == 3  # the order the stunned tick kept


def tooltip_text(button):
    """The text of the tooltip pygame_gui shows for `button` now, None when none is up."""
    tip = button.tool_tip
    return None if tip is None or not tip.alive() else tip.text_block.html_text


def test_the_disabled_button_shows_why_to_a_hovering_mouse(apps):
    app = apps(setup(), start=False)
    app.start_scenario(stunned_a0(), [0])
    screen = app.screen
    button = screen.buttons["takeback"]
    at_orders(app, 295)  # tick 294 played by itself: the button is disabled
    assert not button.is_enabled
    move_mouse(app, BUTTON)
    hover(app, 0.5)  # before the theme's delay (1 s, pygame_gui's default)
    assert tooltip_text(button) is None
    hover(app, 1.0)
    assert tooltip_text(button) == NO_HUMAN_TICK
    assert button.drawable_shape.active_state.state_id == "disabled"  # no hovered look
    post_events(app, click(BUTTON))  # still does nothing
    assert screen.snap.tick == 295 and screen.session.takebacks == []
    move_mouse(app, (BUTTON[0], BUTTON[1] - 200))  # away: the tooltip closes
    assert tooltip_text(button) is None

    move_mouse(app, BUTTON)
    hover(app, 1.5)
    assert tooltip_text(button) == NO_HUMAN_TICK
    press(app, pygame.K_d, pygame.K_SPACE)  # east, end the turn: now B would undo tick 295
    at_orders(app, 296)  # the button was hidden while the tick resolved: a fresh hover
    hover(app, 1.5)
    assert button.is_enabled and tooltip_text(button) == TAKE_BACK_TIP


def test_b_on_the_game_over_card_says_why_it_undoes_nothing(apps, monkeypatch):
    app, screen = human_game_over(apps)
    cards = spy(monkeypatch, "draw_card")
    frame(app)
    assert GAME_OVER not in cards[-1][3]
    press(app, pygame.K_b)  # a real key on SDL's queue
    assert GAME_OVER == "The game is over: nothing to take back; R opens the replay."
    assert screen.card_note == GAME_OVER and screen.session.takebacks == []
    frame(app)
    title, lines = cards[-1][2:4]
    assert title.startswith("Game over: ") and GAME_OVER in " ".join(lines)
    assert screen.phase == "over"


def test_b_on_the_scenario_end_card_says_why_too(apps, monkeypatch):
    app = apps(setup(), start=False)
    app.start_scenario(S.scenario_from_dict(json.loads(CLOSE_QUARTERS.read_text()),
                                            CLOSE_QUARTERS), [0])  # fmt: skip
    screen = app.screen
    while screen.phase != "over":  # from 19 : 18 Team B reaches its 20 by tick 295
        wait_for(app, lambda: orders_ready(app) or screen.phase == "over")
        if screen.phase == "orders":
            press(app, pygame.K_SPACE)
    wait_for(app, lambda: not screen.waiting and screen.replay_path is not None)
    cards = spy(monkeypatch, "draw_card")
    press(app, pygame.K_b)
    frame(app)
    assert screen.line_note == GAME_OVER and GAME_OVER in " ".join(cards[-1][3])
    assert screen.session.takebacks == []
