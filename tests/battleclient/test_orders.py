"""OrderBook: world directions to team frames, and only legal choices can ever be stored."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from battleclient.orders import OrderBook, category_of, plays_east, to_team_move
from ui.rules import C

N, S, E, W, NE, NW, SE, SW = 1, 2, 3, 4, 5, 6, 7, 8


def masks(move_ok=True, basic=(), ult=(), burst=False):
    """Masks for slot 0 (A0) and slot 5 (B0): basic/ult are target categories 1-10."""
    move = np.zeros((10, 9), bool)
    move[:, 0] = True
    move[[0, 5], 1:] = move_ok
    pair = np.zeros((10, 11, 2), bool)
    pair[:, 0, 0] = True
    pair[[0, 5], 0, 1] = burst
    for c in basic:
        pair[[0, 5], c, 0] = True
    for c in ult:
        pair[[0, 5], c, 1] = True
    return move, pair


def test_team_frames_mirror_east_and_west_only_for_the_east_team():
    assert not plays_east(0, 0) and plays_east(5, 0)  # Team A west, Team B east
    assert plays_east(0, 1) and not plays_east(5, 1)
    assert [to_team_move(d, 5, 0) for d in range(9)] == [0, N, S, W, E, NW, NE, SW, SE]
    assert [to_team_move(d, 0, 0) for d in range(9)] == list(range(9))


def test_target_categories_are_actor_relative():
    assert category_of(0, 0) == 1 and category_of(0, 7) == 8  # A0: ally0, enemy2
    assert category_of(7, 7) == 3 and category_of(7, 1) == 7  # B2: ally2 (itself), enemy1
    assert category_of(3, -1) == 0


def test_a_stunned_agent_can_only_stay():
    book = OrderBook((0,), *masks(move_ok=False), spawn_end=0)
    assert not book.can_move(0) and book.legal_moves(0) == {0}
    assert not book.set_move(0, N)
    assert book.heads(0) == (0, 0, 0)


def test_moves_are_stored_in_world_terms_and_handed_over_in_team_frame():
    book = OrderBook((5,), *masks(), spawn_end=0)  # B0 plays from the east end
    assert book.set_move(5, E)
    assert book.orders[5].move == E and book.heads(5) == (W, 0, 0)
    assert not book.set_move(0, E)  # not a slot of this book


def test_only_legal_targets_can_be_chosen():
    book = OrderBook((0,), *masks(basic=(6, 7)), spawn_end=0)  # enemies B0 and B1 in reach
    assert book.legal_targets(0, False) == {5, 6}
    assert not book.choose_target(0, 7)  # B2 out of reach
    assert not book.choose_target(0, 1)  # an ally, not a Basic target of this class
    assert book.choose_target(0, 6) and book.heads(0) == (0, 7, 0)
    assert book.choose_target(0, 6) and book.orders[0].target == -1  # again = clear


def test_ultimate_only_when_legal_and_on_a_legal_target():
    book = OrderBook((0,), *masks(basic=(6, 7), ult=(7,)), spawn_end=0)
    assert book.choose_target(0, 5) and book.toggle_ult(0)
    assert book.orders[0].armed and book.heads(0) == (0, 6, 0)  # B0 is no Ultimate target
    assert book.choose_target(0, 6) and book.heads(0) == (0, 7, 1)
    assert book.toggle_ult(0) and book.heads(0) == (0, 7, 0)  # off again, Basic on B1 stays
    none = OrderBook((0,), *masks(basic=(6,)), spawn_end=0)
    assert not none.can_ult(0) and not none.toggle_ult(0) and none.heads(0) == (0, 0, 0)


def test_self_cast_ultimate_needs_no_target():
    book = OrderBook((0,), *masks(basic=(6,), burst=True), spawn_end=0)
    assert book.choose_target(0, 5) and book.toggle_ult(0)
    assert book.heads(0) == (0, 0, 1)  # Burst replaces the Basic (one lane a tick)


def test_dropping_a_self_cast_ultimate_gives_the_basic_target_back():
    book, mage = OrderBook((0,), *masks(basic=(6, 7), burst=True), spawn_end=0), C.CLASS_ID["Mage"]
    assert book.choose_target(0, 6)
    assert book.describe(0, mage) == "stay, Basic on B1"
    assert book.toggle_ult(0)
    assert book.describe(0, mage) == "stay, Burst"
    assert book.toggle_ult(0)
    assert book.describe(0, mage) == "stay, Basic on B1"
    assert book.heads(0) == (0, 7, 0)  # B1 is A0's enemy1
    assert book.toggle_ult(0) and book.choose_target(0, 5)  # a new Basic target replaces it
    assert book.toggle_ult(0) and book.toggle_ult(0) and book.orders[0].target == 5
    assert book.toggle_ult(0) and book.clear_target(0)  # cleared: nothing to give back
    assert book.toggle_ult(0) and book.toggle_ult(0) and book.orders[0].target == -1


def test_cycle_target_walks_the_legal_targets():
    book = OrderBook((0,), *masks(basic=(6, 8, 10)), spawn_end=0)
    seen = []
    for _ in range(4):
        assert book.cycle_target(0)
        seen.append(book.orders[0].target)
    assert seen == [5, 7, 9, 5]


operations = st.lists(
    st.tuples(st.sampled_from(["move", "target", "ult", "cycle", "clear"]), st.integers(0, 9)),
    max_size=12,
)


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    end=st.integers(0, 1),
    slot=st.sampled_from([0, 3, 5, 9]),
    ops=operations,
)
def test_whatever_the_player_does_the_heads_are_legal(seed, end, slot, ops):
    rng = np.random.default_rng(seed)
    move = np.zeros((10, 9), bool)
    move[:, 0] = True
    move[:, 1:] = rng.random((10, 1)) < 0.7  # all-or-Stay, as the engine makes it
    pair = rng.random((10, 11, 2)) < 0.3
    pair[:, 0, 0] = True
    book = OrderBook((slot,), move, pair, spawn_end=end)
    for op, arg in ops:
        if op == "move":
            book.set_move(slot, arg % C.NUM_MOVES)
        elif op == "target":
            book.choose_target(slot, arg)
        elif op == "ult":
            book.toggle_ult(slot)
        elif op == "cycle":
            book.cycle_target(slot)
        else:
            book.clear_target(slot)
        m, t, u = book.heads(slot)
        order = book.orders[slot]
        assert move[slot, m] and pair[slot, t, u]
        assert order.target < 0 or order.target in book.legal_targets(slot, order.ult)
        assert to_team_move(order.move, slot, end) == m or not move[slot, 1]


def refusal_state(**rows):
    """A world state's per-slot fields for the refusal messages: everyone able to fight, then
    `rows` (field -> {slot: value}) applied."""
    state = {
        "alive": np.ones(10, bool),
        "status": np.zeros((10, len(C.STATUS_NAMES)), np.int32),
        "shield": np.zeros(10, np.int32),
        "cooldown": np.zeros(10, np.int32),
    }
    for field, values in rows.items():
        for slot, value in values.items():
            state[field][slot] = value
    return state


def test_refused_orders_name_the_reason_rules_3_5():
    from battleclient.wording import target_refusal, ult_refusal

    stun = np.zeros(len(C.STATUS_NAMES), np.int32)
    stun[int(np.flatnonzero(C.IS_STUN)[0])] = 2
    shielded = refusal_state(shield={0: 3}, cooldown={0: 4})
    assert ult_refusal(shielded, 0) == (
        "No Ultimate: A0 is spawn-shielded for 3 ticks: it cannot fight until then"
    )
    assert (
        target_refusal(shielded, 0)
        == "A0 is spawn-shielded for 3 ticks: it cannot fight until then"
    )
    assert target_refusal(refusal_state(status={6: stun}), 6) == "B1 is stunned this tick"
    assert ult_refusal(refusal_state(alive={2: False}), 2) == "No Ultimate: A2 is dead this tick"
    assert ult_refusal(refusal_state(cooldown={3: 1}), 3) == "A3's Ultimate is ready in 1 tick"
    assert ult_refusal(refusal_state(), 4) == "A4's Ultimate has no legal target this tick"
    assert target_refusal(refusal_state(), 4) == "A4 has no legal target this tick"


def test_an_armed_ultimate_shows_in_the_order_line():
    book = OrderBook((0,), *masks(basic=(6, 7), ult=(7,)), spawn_end=0)
    assert book.choose_target(0, 5) and book.toggle_ult(0)  # B0: a Basic, no Ultimate target
    assert book.describe(0, C.HUNTER) == "stay, Basic on B0; Trap armed: choose a target"
    assert book.armed_without_target() == (0,) and book.heads(0) == (0, 6, 0)
    assert book.choose_target(0, 6) and book.describe(0, C.HUNTER) == "stay, Trap on B1"
    assert book.armed_without_target() == ()


def close_quarters():
    """Scenario 4 at 0 : 0: the human's Warrior A0 has Charge ready (cooldown 0)."""
    import json

    from evaluation import scenarios as S
    from tests.battleclient.test_takeback_stunned import CLOSE_QUARTERS

    doc = json.loads(CLOSE_QUARTERS.read_text())
    doc["start"]["score"] = [0, 0]
    return S.scenario_from_dict(doc, CLOSE_QUARTERS)


def test_space_warns_once_about_an_armed_ultimate_with_no_target(apps):
    import pygame

    from battleclient.wording import armed_warning
    from tests.battleclient.driver import setup
    from tests.battleclient.test_persist_orders import at_orders, press

    scenario = close_quarters()  # before the App: its engine thread imports JAX meanwhile
    app = apps(setup(), start=False)
    app.start_scenario(scenario, [0])
    screen = app.screen
    at_orders(app, 294)
    book = screen.books[0]
    press(app, pygame.K_u)  # Charge has targets but none is chosen: armed
    assert book.orders[0].armed and screen.buttons["ult"].text == "Ultimate: ON (U)"
    assert book.describe(0, C.WARRIOR) == "stay, no target; Charge armed: choose a target"
    press(app, pygame.K_SPACE)  # not ended: says the Charge would be dropped
    warning = "A0's Charge is armed with no target: choose one, or press U to disarm"
    assert screen.message.startswith(warning) and screen.phase == "orders"
    assert armed_warning(screen.snap.state, (0,)) == screen.message
    assert screen.given == [] and screen.snap.tick == 294
    press(app, pygame.K_SPACE)  # again: ends the turn without it
    at_orders(app, 295)
    assert len(screen.given) == 1 and screen.given[0][0][0].armed
    assert not screen.given[0][0][0].ult  # the Charge did not go out

    press(app, pygame.K_u, pygame.K_u)  # armed, then disarmed: Space ends the turn at once
    assert not screen.books[0].orders[0].armed
    press(app, pygame.K_SPACE)
    at_orders(app, 296)
    assert len(screen.given) == 2
