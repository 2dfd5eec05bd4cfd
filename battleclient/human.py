"""The `human` System kind: a host System whose actions are the orders a person gave in the UI.

Importing this module registers the kind with policies.slotspec (`A0=human`). The game loop
hands the locked-in orders to `HumanDesk.submit` before it asks the Systems to act; `act` then
answers those orders (team frame, RULES 3.1) and `NO_ANSWER` for any slot without one, which the
match turns into the no-op with the fallback flag set.
"""

import numpy as np

from engine import constants as C
from engine.types import Actions
from policies.slotspec import register_kind
from policies.system import NO_ANSWER, System, as_system


class HumanDesk:
    """Orders waiting for the next `act` call: slot -> (move, target, ult) in the team frame."""

    def __init__(self, slots: tuple[int, ...]):
        self.slots = tuple(int(s) for s in slots)
        self._orders: dict[int, tuple[int, int, int]] = {}

    def submit(self, orders: dict[int, tuple[int, int, int]]) -> None:
        """Store this tick's orders; raises ValueError for a slot this desk does not hold."""
        foreign = sorted(set(orders) - set(self.slots))
        if foreign:
            raise ValueError(f"human orders for slots {foreign} that are not human slots")
        self._orders = {int(s): tuple(int(v) for v in o) for s, o in orders.items()}

    def __call__(self, obs, masks, carry, key):
        """The System's `act`: (Actions of (10,) int32 heads, carry); orders are used once."""
        del obs, masks, key
        heads = np.full((3, C.NUM_SLOTS), NO_ANSWER, np.int32)
        for slot, order in self._orders.items():
            heads[:, slot] = order
        self._orders = {}
        return Actions(move=heads[0], target=heads[1], ult=heads[2]), carry


def human_system(slots: tuple[int, ...]) -> System:
    """A host System for `slots`; its `act` is the HumanDesk (reach it as `system.act`)."""
    return as_system(HumanDesk(slots), host=True, name="human")


def desk_of(system: System) -> HumanDesk | None:
    """The HumanDesk behind a System, or None for a machine System."""
    return system.act if isinstance(system.act, HumanDesk) else None


def _factory(arg: str, slots: tuple[int, ...]) -> System:
    if arg:
        raise ValueError(f"slot spec: 'human' takes no argument, got 'human:{arg}'")
    return human_system(slots)


register_kind("human", _factory, "human")
