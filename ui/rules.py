"""Slot and unit labels the apps draw, over the rule tables of engine/constants.py.

`C` is engine/constants.py itself; the engine package loads its JAX names lazily, so importing
it here keeps the Replay Viewer JAX-free.
"""

from engine import constants as C


def team_of(slot: int) -> int:
    """0 for Team A (slots 0-4), 1 for Team B (slots 5-9)."""
    return int(slot) // C.TEAM_SIZE


slot_label = C.slot_label  # "A0".."B4"


def unit_name(slot: int, class_id: int) -> str:
    """ "Rogue B3": class name and slot label (class ids from engine/constants.py)."""
    return f"{C.CLASS_NAMES[int(class_id)]} {slot_label(slot)}"
