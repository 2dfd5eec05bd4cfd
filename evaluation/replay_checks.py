"""The checks a replay passes before it is written or after it is read (evaluation.replay).

Every field against its trailing shape and dtype (evaluation/replay_schema.py), finite
floats, class ids and outcome codes in range, the header against the arrays (ticks, roster),
the metrics' columns and the decision records' tick and slot. Each problem is a ReplayError
naming the file, the field and what is wrong. NumPy only: the viewer stays JAX-free.
"""

import numpy as np

from engine.constants import NUM_CLASSES
from evaluation.replay_schema import (
    EVENT_FIELDS,
    METRIC_COLUMNS,
    NUM_SLOTS,
    STATE_FIELDS,
    ReplayError,
    check_header,
)


def _check_array(array, name, spec, lead, source) -> np.ndarray:
    """Checks one field against (trailing shape, dtype); returns it with the expected dtype."""
    trailing, dtype = spec
    if not isinstance(array, np.ndarray):
        raise ReplayError(source, name, f"expected a NumPy array, got {type(array).__name__}")
    shape = array.shape
    want = (lead, *trailing)
    if len(shape) != len(want) or any(
        w is not None and w != s for w, s in zip(want, shape, strict=True)
    ):
        shown = tuple("*" if w is None else w for w in want)
        raise ReplayError(source, name, f"shape {shape}, expected {shown}")
    if array.dtype != np.dtype(dtype):
        if array.dtype.kind != np.dtype(dtype).kind:
            raise ReplayError(source, name, f"dtype {array.dtype}, expected {dtype}")
        array = array.astype(dtype)
    if array.dtype.kind == "f" and not np.all(np.isfinite(array)):
        raise ReplayError(source, name, "contains NaN or infinite values")
    return array


def _check_group(arrays: dict, specs: dict, lead: int, prefix: str, source) -> dict:
    out = {}
    for name, spec in specs.items():
        if name not in arrays:
            raise ReplayError(source, f"{prefix}.{name}", "missing")
        out[name] = _check_array(arrays[name], f"{prefix}.{name}", spec, lead, source)
    for name, array in arrays.items():  # fields a newer engine added: keep, check the time axis
        if name not in specs:
            if not isinstance(array, np.ndarray) or array.ndim == 0 or array.shape[0] != lead:
                raise ReplayError(source, f"{prefix}.{name}", f"needs a leading axis of {lead}")
            out[name] = array
    return out


def checked_parts(replay, source="<replay>") -> tuple:
    """Checks every field of `replay` (an evaluation.replay.Replay); returns its fields in
    order (header, states, events, visible, relayed, metrics, decisions) with canonical dtypes.
    Raises what `evaluation.replay.validate_replay` documents."""
    check_header(replay.header, source, ReplayError)
    if not isinstance(replay.visible, np.ndarray) or replay.visible.ndim != 3:
        raise ReplayError(source, "visible", "expected a (T+1, 10, 10) bool array")
    lead = replay.visible.shape[0]
    if lead < 1:
        raise ReplayError(source, "visible", "a replay needs at least the initial state")
    visible = _check_array(replay.visible, "visible", ((10, 10), "bool"), lead, source)
    relayed = _check_array(replay.relayed, "relayed", ((10, 10), "bool"), lead, source)
    states = _check_group(replay.states, STATE_FIELDS, lead, "states", source)
    events = _check_group(replay.events, EVENT_FIELDS, lead - 1, "events", source)
    if not np.all((states["class_id"] >= 0) & (states["class_id"] < NUM_CLASSES)):
        raise ReplayError(source, "states.class_id", f"class ids must be 0-{NUM_CLASSES - 1}")
    for name, group in (("states.outcome", states), ("events.outcome", events)):
        if not np.all((group["outcome"] >= 0) & (group["outcome"] <= 3)):
            raise ReplayError(source, name, "outcome codes must be 0-3")
    ticks = replay.header["result"]["ticks"]
    if ticks != lead - 1:
        raise ReplayError(source, "header.result.ticks", f"{ticks}, but the arrays hold {lead - 1}")
    if list(replay.header["roster"]) != states["class_id"][0].tolist():
        raise ReplayError(source, "header.roster", "differs from states.class_id")
    _check_header_ticks(replay.header, int(states["tick"][0]), source)
    if replay.metrics is not None:
        missing = [c for c in METRIC_COLUMNS if c not in replay.metrics.columns]
        if missing:
            raise ReplayError(source, "metrics", f"missing columns {missing}")
    decisions = _check_decisions(replay.decisions, source)
    return dict(replay.header), states, events, visible, relayed, replay.metrics, decisions


def _check_header_ticks(header: dict, first: int, source) -> None:
    """The header's ticks against the body's, which starts at game tick `first` (a branched
    game's parent tick): "parent".tick must be `first`, and no "takebacks" tick lie before it
    (a game cannot undo past its first state). A takeback may lie past the body's end: a
    player who takes back ticks 9 and 8 and stops keeps a line that ends at tick 8. Raises
    ReplayError naming the entry and both values."""
    parent = header.get("parent")
    if parent is not None and parent["tick"] != first:
        problem = f"{parent['tick']}, but the body starts at tick {first}"
        raise ReplayError(source, "header.parent.tick", problem)
    for i, entry in enumerate(header.get("takebacks", ())):
        if entry["tick"] < first:
            problem = f"{entry['tick']} is before the body's first tick, {first}"
            raise ReplayError(source, f"header.takebacks[{i}].tick", problem)


def _check_decisions(decisions, source) -> list | None:
    if decisions is None:
        return None
    if not isinstance(decisions, list | tuple):
        raise ReplayError(source, "decisions", f"expected a list, got {type(decisions).__name__}")
    for i, record in enumerate(decisions):
        if not isinstance(record, dict):
            raise ReplayError(source, f"decisions[{i}]", "not a map")
        for key, top in (("tick", 1 << 31), ("slot", NUM_SLOTS)):
            value = record.get(key)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < top:
                raise ReplayError(
                    source, f"decisions[{i}].{key}", f"{value!r} is not an int in 0-{top - 1}"
                )
    return list(decisions)
