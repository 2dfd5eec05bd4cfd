"""Orders of the human slots for one tick, kept legal by construction (RULES 3, 3.5).

The UI speaks world directions (north is up on the screen) and global slots; the engine wants
each slot's team frame: the team spawning east plays mirrored, so East and West (and the
diagonals) swap (engine/constants.MIRROR_MOVE), and targets are actor-relative categories
(constants.TARGET_SLOT). An `OrderBook` only ever stores choices its masks allow, so an order
it hands out is always accepted by the engine.
"""

from dataclasses import dataclass

import numpy as np

from ui.rules import C, team_of

STAY = 0


@dataclass
class Order:
    """One slot's choice in UI terms: move = world direction index (C.MOVE_NAMES), target =
    global slot or -1, ult = use the Ultimate; `armed`: the Ultimate was asked for and waits
    for a target click (submitted as no target until one is chosen); `set_aside`: the Basic
    target (global slot or -1) a self-cast Ultimate replaced, given back when the Ultimate is
    dropped; `carried`: where an order unchanged since the tick began comes from, a key of
    CARRIED ("" when chosen now; battleclient.persist), cleared by any change."""

    move: int = STAY
    target: int = -1
    ult: bool = False
    armed: bool = False
    set_aside: int = -1
    carried: str = ""


# the orders panel's note on an order the player did not give this tick (Order.carried)
CARRIED = {
    "": "",
    "repeat": " (repeated)",
    "takeback": " (given before take back)",
}


def plays_east(slot: int, spawn_end: int) -> bool:
    """True when the slot's team spawns at the east end (its frame is mirrored)."""
    return (team_of(slot) == 0) == (int(spawn_end) == 1)


def to_team_move(world_move: int, slot: int, spawn_end: int) -> int:
    """World direction -> the slot's team-frame move head (RULES 5.1)."""
    return int(C.MIRROR_MOVE[world_move]) if plays_east(slot, spawn_end) else int(world_move)


def category_of(slot: int, target: int) -> int:
    """Global target slot (or -1) -> the actor-relative category 0-10 (0 = none)."""
    if target < 0:
        return 0
    return int(np.flatnonzero(C.TARGET_SLOT[slot] == target)[0])


class OrderBook:
    """The orders of some human slots for one tick.

    move_mask (10, 9) and pair_mask (10, 11, 2) bool: the tick's legal actions (team frame,
    actor-relative targets); spawn_end: 0 Team A west, 1 east; slots: the human slots.
    """

    def __init__(self, slots, move_mask, pair_mask, spawn_end: int):
        self.slots = tuple(int(s) for s in slots)
        self.move_mask = np.asarray(move_mask, bool)
        self.pair_mask = np.asarray(pair_mask, bool)
        self.spawn_end = int(spawn_end)
        self.orders = {s: Order() for s in self.slots}

    # --- what is legal ---------------------------------------------------------------------
    def legal_moves(self, slot: int) -> set[int]:
        """World directions the slot may take (always contains Stay)."""
        return {
            d
            for d in range(C.NUM_MOVES)
            if self.move_mask[slot, to_team_move(d, slot, self.spawn_end)]
        }

    def can_move(self, slot: int) -> bool:
        return len(self.legal_moves(slot)) > 1

    def legal_targets(self, slot: int, ult: bool) -> set[int]:
        """Global slots the slot may target with its Basic (ult False) or Ultimate (True)."""
        lane = 1 if ult else 0
        return {
            int(C.TARGET_SLOT[slot, c])
            for c in range(1, C.NUM_TARGETS)
            if self.pair_mask[slot, c, lane]
        }

    def choosable_targets(self, slot: int) -> set[int]:
        """Global slots `choose_target` accepts for the slot now: its Basic's, and its
        Ultimate's while that is asked for; empty for a slot not in the book."""
        order = self.orders.get(slot)
        if order is None:
            return set()
        wants_ult = order.ult or order.armed
        return self.legal_targets(slot, False) | (
            self.legal_targets(slot, True) if wants_ult else set()
        )

    def can_ult(self, slot: int) -> bool:
        """Some Ultimate is legal: on a target, or with no target (Mage Burst)."""
        return bool(self.pair_mask[slot, :, 1].any())

    def can_act(self, slot: int) -> bool:
        """Anything besides the no-op is legal (a dead or shielded-and-stunned unit cannot)."""
        return self.can_move(slot) or bool(self.pair_mask[slot, 1:].any() or self.can_ult(slot))

    # --- choosing --------------------------------------------------------------------------
    def set_move(self, slot: int, world_move: int) -> bool:
        """Choose a world direction; False (nothing changes) when it is not legal."""
        if slot not in self.orders or world_move not in self.legal_moves(slot):
            return False
        self.orders[slot].move = int(world_move)
        self.orders[slot].carried = ""
        return True

    def choose_target(self, slot: int, target: int) -> bool:
        """Target a global slot: with the Ultimate when it is asked for and legal there, else
        with the Basic; choosing the current target again clears it. False when illegal."""
        order = self.orders.get(slot)
        if order is None:
            return False
        order.carried = ""
        if target == order.target:
            return self.clear_target(slot)
        wants_ult = order.ult or order.armed
        if wants_ult and target in self.legal_targets(slot, True):
            order.target, order.ult, order.armed = int(target), True, False
            order.set_aside = -1
            return True
        if target in self.legal_targets(slot, False):
            order.target, order.ult, order.armed = int(target), False, False
            order.set_aside = -1
            return True
        return False

    def clear_target(self, slot: int) -> bool:
        order = self.orders.get(slot)
        if order is None:
            return False
        order.target, order.ult, order.armed, order.carried = -1, False, False, ""
        order.set_aside = -1
        return True

    def toggle_ult(self, slot: int) -> bool:
        """Ask for (or drop) the Ultimate; False when no Ultimate is legal this tick.

        With a target that the Ultimate may hit, it switches that target's lane; a self-cast
        Ultimate (Burst) needs no target and sets the Basic target aside until it is dropped
        again; otherwise the order waits (armed) for a target click.
        """
        order = self.orders.get(slot)
        if order is None:
            return False
        order.carried = ""
        if order.ult or order.armed:
            order.ult = order.armed = False
            if order.target < 0:
                order.target = order.set_aside
            if order.target >= 0 and order.target not in self.legal_targets(slot, False):
                order.target = -1
            order.set_aside = -1
            return True
        if not self.can_ult(slot):
            return False
        if order.target >= 0 and order.target in self.legal_targets(slot, True):
            order.ult = True
        elif self.pair_mask[slot, 0, 1]:  # self-cast: the lane is used without a target
            order.set_aside, order.target, order.ult = order.target, -1, True
        else:
            order.armed = True
        return True

    def cycle_target(self, slot: int) -> bool:
        """Keyboard targeting: the next legal target (by slot) in the current lane."""
        order = self.orders.get(slot)
        if order is None:
            return False
        options = sorted(self.legal_targets(slot, order.ult or order.armed))
        if not options:
            options = sorted(self.legal_targets(slot, False))
        if not options:
            return False
        later = [t for t in options if t > order.target]
        return self.choose_target(slot, later[0] if later else options[0])

    # --- handing over ----------------------------------------------------------------------
    def heads(self, slot: int) -> tuple[int, int, int]:
        """(move, target, ult) in the slot's team frame; legal (re-checked against the masks)."""
        order = self.orders[slot]
        move = to_team_move(order.move, slot, self.spawn_end)
        if not self.move_mask[slot, move]:
            move = STAY
        category, ult = category_of(slot, order.target), int(order.ult)
        if not self.pair_mask[slot, category, ult]:
            category, ult = 0, 0
        return move, category, ult

    def all_heads(self) -> dict[int, tuple[int, int, int]]:
        return {slot: self.heads(slot) for slot in self.slots}

    def describe(self, slot: int, class_id: int) -> str:
        """ "move NE, Basic on B3" / "stay, Charge on A2" for the orders panel."""
        order = self.orders[slot]
        move = "stay" if order.move == STAY else f"move {C.MOVE_NAMES[order.move]}"
        ult_name = C.ULT_NAMES[int(class_id)]
        if order.ult and order.target < 0:
            act = ult_name
        elif order.target >= 0:
            lane = ult_name if order.ult else "Basic"
            who = C.slot_label(order.target)
            act = f"{lane} on {who}"
        else:
            act = "no target"
        if order.armed:  # the Basic (or nothing) goes out until an Ultimate target is chosen
            act = f"{act}; {ult_name} armed: choose a target"
        return f"{move}, {act}{CARRIED[order.carried]}"

    def armed_without_target(self) -> tuple[int, ...]:
        """The slots whose Ultimate is asked for but still waits for a target (Order.armed):
        ending the turn now would submit their order without it."""
        return tuple(s for s in self.slots if self.orders[s].armed)
