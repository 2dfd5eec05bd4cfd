"""Orders that persist: a human agent's move and target repeat tick after tick until changed.

At each new tick the play screen hands every human agent the order it gave last tick, where
the new tick's legal-action masks allow it (RULES 3.5); the Ultimate is not repeated (a one-off
with a cooldown, RULES 4.3). A target that died, or one that can no longer be targeted, is
cleared with a note that names it; a stunned agent's order waits out the stun (`orders_of`).
"Repeat last orders" (R) does the same for the whole team on
demand, when the option is off.
"""

from copy import copy

from battleclient.orders import STAY, Order, OrderBook
from ui.rules import slot_label


def carry_orders(
    book: OrderBook, previous: dict[int, Order], scene, origin: str = "repeat"
) -> list[str]:
    """Give each slot of `book` its order from `previous` (global slot -> Order) where still
    legal: the move (world direction) and the Basic target; with origin "takeback" (the
    orders of a tick taken back, given again from the same state) the Ultimate too. An
    Ultimate not given again leaves the Basic on the target it had: a targeted Ultimate's
    target, or the one a self-cast Ultimate (Burst) set aside (Order.set_aside). Marks them
    `carried` = origin (battleclient.orders.CARRIED). `scene` is the player's fair Scene of
    the new tick (ui.scene; what the team knows, RULES 5.7), used only to say why a target
    was dropped (the Basic then has none, as a fresh order). Returns one note per dropped
    target."""
    notes = []
    for slot in book.slots:
        order = previous.get(slot)
        if order is None or not book.can_act(slot):
            continue
        carried = False
        if order.move != STAY and book.set_move(slot, order.move):
            carried = True
        ult = order.ult and origin == "takeback" and book.can_ult(slot)
        if ult:
            book.toggle_ult(slot)
            carried = carried or (order.target < 0 and book.orders[slot].ult)  # Burst
            if order.set_aside in book.legal_targets(slot, False) and book.orders[slot].ult:
                book.orders[slot].set_aside = order.set_aside  # U drops Burst back to it
        target = order.target if order.target >= 0 or ult else order.set_aside
        if target >= 0:
            if target in book.legal_targets(slot, ult):
                book.choose_target(slot, target)
                carried = True
            else:
                notes.append(dropped_target_note(slot, target, scene))
        book.orders[slot].carried = origin if carried else ""
    return notes


def dropped_target_note(slot: int, target: int, scene) -> str:
    """Why `slot`'s repeated target is cleared, in the words of what the player knows."""
    unit = scene.unit(target) if scene is not None else None
    if unit is not None and not unit.alive:
        return f"{slot_label(target)} died: {slot_label(slot)}'s target is cleared"
    return f"{slot_label(target)} cannot be targeted now: {slot_label(slot)}'s target is cleared"


def orders_of(books: dict, previous: dict, alive) -> dict[int, Order]:
    """Every human slot's order in `books` (team -> OrderBook), copied: global slot -> Order.

    `previous` is the orders of the tick before, as returned here ({} at the first), and
    `alive` ((10,) bool) the tick's state["alive"]: a living slot that could not act this
    tick (stunned: RULES 3.5 leaves it only Stay and no target) keeps its previous order, so it
    repeats once the stun ends instead of vanishing with the tick the client played for it. A
    dead slot's order is not kept: it respawns on its pad (RULES 1.5)."""
    orders = {}
    for book in books.values():
        for slot, order in book.orders.items():
            if bool(alive[slot]) and not book.can_act(slot) and slot in previous:
                order = previous[slot]
            orders[slot] = copy(order)
    return orders
