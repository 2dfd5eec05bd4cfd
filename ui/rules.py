"""Slot and unit labels the apps draw, over the rule tables of engine/constants.py.

`C` is engine/constants.py itself; the engine package loads its JAX names lazily, so importing
it here keeps the Replay Viewer JAX-free.
"""

import math

from engine import constants as C


def team_of(slot: int) -> int:
    """0 for Team A (slots 0-4), 1 for Team B (slots 5-9)."""
    return int(slot) // C.TEAM_SIZE


slot_label = C.slot_label  # "A0".."B4"


def unit_name(slot: int, class_id: int) -> str:
    """ "Rogue B3": class name and slot label (class ids from engine/constants.py)."""
    return f"{C.CLASS_NAMES[int(class_id)]} {slot_label(slot)}"


def hp_text(health) -> str:
    """Hit points as every app prints them (unit cards, tooltips, plots, detail panels): a
    whole number rounded up, as games show health, so a living unit never reads 0 (64.4 ->
    "65", 0.3 -> "1", 0 -> "0"). `health` is a float (or NumPy scalar) in hit points. The
    engine's float32 sums leave noise of a few 1e-6 HP (65.000004 for 65): up to 1e-4 above a
    whole number still reads as that number."""
    value = float(health)
    if value <= 0:
        return "0"
    return str(max(1, math.ceil(value - 1e-4)))
