"""The rule tables the apps draw with, read from engine/constants.py without importing jax.

`engine/__init__.py` brings in the JAX engine, so `import engine.constants` would start JAX.
The constants module itself is plain NumPy; it is loaded here from its file under a private
name (or reused when the engine is already imported), so the Replay Viewer stays JAX-free.
"""

import importlib.util
import sys
from pathlib import Path


def _load_constants():
    loaded = sys.modules.get("engine.constants")
    if loaded is not None:
        return loaded
    spec = importlib.util.find_spec("engine")  # a top-level find_spec imports nothing
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("the engine package (engine/constants.py) is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / "constants.py"
    name = "_mbg_engine_constants"
    if name in sys.modules:
        return sys.modules[name]
    module_spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module
    module_spec.loader.exec_module(module)
    return module


C = _load_constants()


def team_of(slot: int) -> int:
    """0 for Team A (slots 0-4), 1 for Team B (slots 5-9)."""
    return int(slot) // C.TEAM_SIZE


def slot_label(slot: int) -> str:
    """ "A0".."A4", "B0".."B4": team letter and team-local index."""
    return f"{C.TEAM_NAMES[team_of(slot)]}{int(slot) % C.TEAM_SIZE}"


def unit_name(slot: int, class_id: int) -> str:
    """ "Rogue B3": class name and slot label (class ids from engine/constants.py)."""
    return f"{C.CLASS_NAMES[int(class_id)]} {slot_label(slot)}"
