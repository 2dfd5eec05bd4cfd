"""Replay files (`*.mbgr`): one game, tick by tick, readable without JAX.

A file is two msgpack objects written one after the other:

1. the *preamble*, a small map ``{"magic", "format_version", "header", "header_crc", "codec",
   "body_size"}``, so a folder listing reads only the header (`read_header`);
2. the *body*, a zlib-compressed msgpack map ``{"states", "events", "visible", "relayed",
   "static", "metrics"}``. Every array is ``{"dtype", "shape", "bytes"}`` (C order, little
   endian); layout fields that never change are stored once and broadcast on read; metrics are a
   polars DataFrame in Arrow IPC form. An optional ``"decisions"`` list (what host Systems such
   as an LLM said and why a slot fell back: plain maps with at least ``tick`` and ``slot``) is
   written only when present; readers that predate it ignore the key, so it needs no new
   format version. Optional header keys ("takebacks", "parent": a BattleClient game with
   taken-back ticks or played on from another replay) are described with
   `evaluation.replay_schema.OPTIONAL_HEADER_FIELDS`.

A CRC-32 of the header and zlib's own checksum of the body catch corruption; a short file is
reported as truncated. Field
names and shapes follow engine/types.py (`State`, `Events`); this module never imports jax.
"""

import zlib
from dataclasses import dataclass
from pathlib import Path

import msgpack
import numpy as np
import polars as pl

from evaluation.replay_checks import checked_parts
from evaluation.replay_codec import decode_array, encode_array, metrics_bytes, metrics_frame, plain
from evaluation.replay_schema import (
    HEADER_FIELDS,
    LAYOUT_FIELDS,
    OPTIONAL_HEADER_FIELDS,
    STATE_FIELDS,
    ReplayError,
    check_header,
)
from fileio import write_new_file

FORMAT_VERSION = 1
MAGIC = "MBG-REPLAY"
SUFFIX = ".mbgr"
CODEC = "zlib"
# Older format versions this reader upgrades, version -> function(preamble, body) -> (p, b) of
# the next version. Version 1 is the first released format, so there is nothing to upgrade yet.
UPGRADES: dict = {}
_MAX_HEADER_BYTES = 16 << 20


@dataclass
class Replay:
    """One recorded game (see the module docstring; fields in evaluation/replay_schema.py).

    header: dict of plain Python values (format_version, map, roster, systems, result, ...).
    states: field -> array with a leading axis T+1 (ticks 0..T), engine `State` fields.
    events: field -> array with a leading axis T; events[t] explains states[t] -> states[t+1].
    visible, relayed: (T+1, 10, 10) bool [observer slot, seen slot] at each tick.
    metrics: long-form polars DataFrame (game, topic, metric, source, target, value) or None.
    decisions: None, or a list of plain dicts from host Systems (System.report records), each
    with int "tick" (the state's tick the decision was made in, `states["tick"]`) and "slot"
    (0-9): an LLM agent's fallbacks with their reason and, when kept, its prompts and replies.
    """

    header: dict
    states: dict
    events: dict
    visible: np.ndarray
    relayed: np.ndarray
    metrics: pl.DataFrame | None = None
    decisions: list | None = None

    @property
    def ticks(self) -> int:
        """T, the number of transitions (the replay holds T+1 states)."""
        return int(self.visible.shape[0]) - 1


def _split_static(states: dict) -> tuple[dict, list[str]]:
    """Stores each layout field once when it is constant over time."""
    stored, static = {}, []
    for name, array in states.items():
        trailing = STATE_FIELDS.get(name, (None, None))[0]
        if name in LAYOUT_FIELDS and trailing is not None and array.ndim == len(trailing) + 1:
            if np.all(array == array[:1]):
                stored[name], static = array[0], static + [name]
                continue
        stored[name] = array
    return stored, static


# --- validation ----------------------------------------------------------------------------------


def validate_replay(replay: Replay, source="<replay>") -> Replay:
    """Checks every field of `replay`; returns a copy with canonical dtypes.

    Raises ReplayError naming `source`, the field and the problem: a missing header key or
    field, a wrong shape or dtype, NaN values, class ids or outcomes out of range, or a header
    that disagrees with the arrays (ticks, roster); the checks are evaluation.replay_checks.
    """
    return Replay(*checked_parts(replay, source))


# --- files ---------------------------------------------------------------------------------------


def encode_replay(replay: Replay) -> bytes:
    """The file content of `replay` (validated first; raises ReplayError)."""
    replay = validate_replay(replay)
    stored, static = _split_static(replay.states)
    body = {
        "states": {k: encode_array(v) for k, v in stored.items()},
        "events": {k: encode_array(v) for k, v in replay.events.items()},
        "visible": encode_array(replay.visible),
        "relayed": encode_array(replay.relayed),
        "static": static,
        "metrics": metrics_bytes(replay.metrics),
    }
    if replay.decisions is not None:
        body["decisions"] = [
            msgpack.unpackb(msgpack.packb(r, default=plain), raw=False) for r in replay.decisions
        ]
    packed = zlib.compress(msgpack.packb(body, use_bin_type=True), 6)
    header = msgpack.packb(
        dict(replay.header, format_version=FORMAT_VERSION), use_bin_type=True, default=plain
    )
    preamble = {
        "magic": MAGIC,
        "format_version": FORMAT_VERSION,
        "header": msgpack.unpackb(header, raw=False),
        "header_crc": zlib.crc32(header),
        "codec": CODEC,
        "body_size": len(packed),
    }
    return msgpack.packb(preamble, use_bin_type=True, default=plain) + msgpack.packb(packed)


def write_replay(path, replay: Replay) -> Path:
    """Writes `replay` to `path` atomically; never replaces an existing file (`write_new_file`).
    Raises FileExistsError if `path` exists, ReplayError if the replay is invalid."""
    path = Path(path)
    if path.exists():
        raise FileExistsError(f"{path}: refusing to overwrite an existing replay")
    return write_new_file(path, encode_replay(replay), "refusing to overwrite an existing replay")


def _unpack_next(unpacker, source, field: str, ended: str, bad: str):
    """The next msgpack object; ReplayError(field) saying `ended` at the end of the data, or
    `bad (reason)` for bytes msgpack cannot read."""
    try:
        return unpacker.unpack()
    except msgpack.OutOfData:
        raise ReplayError(source, field, ended) from None
    except (ValueError, msgpack.UnpackException) as error:
        raise ReplayError(source, field, f"{bad} ({error})") from None


def _read_preamble(unpacker, source) -> dict:
    preamble = _unpack_next(
        unpacker, source, "file", "ends before the header (empty or truncated)", "not a replay file"
    )
    if not isinstance(preamble, dict) or preamble.get("magic") != MAGIC:
        raise ReplayError(source, "file", f"not a replay file (no {MAGIC} marker)")
    version = preamble.get("format_version")
    if not isinstance(version, int) or version < 1:
        raise ReplayError(source, "format_version", f"{version!r} is not a known format version")
    if version > FORMAT_VERSION:
        raise ReplayError(
            source,
            "format_version",
            f"version {version} is newer than this reader (it reads up to {FORMAT_VERSION});"
            " update MARL-BattleGrounds",
        )
    if version < FORMAT_VERSION and version not in UPGRADES:
        raise ReplayError(source, "format_version", f"version {version} is no longer supported")
    if not isinstance(preamble.get("header"), dict):
        raise ReplayError(source, "header", "missing or not a map")
    if zlib.crc32(msgpack.packb(preamble["header"], use_bin_type=True)) != preamble.get(
        "header_crc"
    ):
        raise ReplayError(source, "header", "checksum mismatch (the file is corrupted)")
    return preamble


def _open_unpacker(path, handle):
    return msgpack.Unpacker(handle, raw=False, max_buffer_size=_MAX_HEADER_BYTES << 6)


def read_header(path) -> dict:
    """The header of the replay at `path`, reading only the start of the file (folder lists)."""
    with open(path, "rb") as handle:
        preamble = _read_preamble(_open_unpacker(path, handle), path)
    header = dict(preamble["header"], format_version=preamble["format_version"])
    check_header(header, path, ReplayError)
    return header


def _read_body(unpacker, preamble, source) -> dict:
    if preamble.get("codec") != CODEC:
        raise ReplayError(source, "codec", f"{preamble.get('codec')!r}, expected {CODEC!r}")
    packed = _unpack_next(unpacker, source, "body", "file ends early (truncated)", "corrupted")
    if not isinstance(packed, bytes) or len(packed) != preamble.get("body_size"):
        raise ReplayError(source, "body", "size differs from the header (truncated or corrupted)")
    try:
        body = msgpack.unpackb(zlib.decompress(packed), raw=False)
    except (zlib.error, ValueError, msgpack.UnpackException) as error:
        raise ReplayError(source, "body", f"corrupted ({error})") from None
    if not isinstance(body, dict):
        raise ReplayError(source, "body", "not a map")
    return body


def _arrays(body: dict, key: str, source) -> dict:
    group = body.get(key)
    if not isinstance(group, dict):
        raise ReplayError(source, key, "missing or not a map")
    return {name: decode_array(obj, source, f"{key}.{name}") for name, obj in group.items()}


def decode_replay(data: bytes, source="<bytes>") -> Replay:
    """Parses file content (see `read_replay`)."""
    unpacker = msgpack.Unpacker(raw=False, max_buffer_size=max(len(data), 1))
    unpacker.feed(data)
    return _decode(unpacker, source)


def _decode(unpacker, source) -> Replay:
    preamble = _read_preamble(unpacker, source)
    body = _read_body(unpacker, preamble, source)
    for version in range(preamble["format_version"], FORMAT_VERSION):
        preamble, body = UPGRADES[version](preamble, body)
    header = dict(preamble["header"], format_version=FORMAT_VERSION)
    for key in ("visible", "relayed"):
        if key not in body:
            raise ReplayError(source, key, "missing")
    visible = decode_array(body["visible"], source, "visible")
    relayed = decode_array(body["relayed"], source, "relayed")
    states = _arrays(body, "states", source)
    for name in body.get("static") or ():
        if name not in states:
            raise ReplayError(source, f"states.{name}", "listed as static but missing")
        states[name] = np.broadcast_to(states[name], (visible.shape[0], *states[name].shape))
    replay = Replay(header, states, _arrays(body, "events", source), visible, relayed, None)
    replay.metrics = metrics_frame(body.get("metrics"), source)
    replay.decisions = body.get("decisions")
    return validate_replay(replay, source)


def replay_paths(paths, recursive: bool = True) -> list[Path]:
    """The replay files that `paths` (str or Path each) name: files as given, folders searched
    for *.mbgr files (sorted; a folder named *.mbgr is not a replay), at any depth when
    `recursive`, else the folder's own files only. Raises FileNotFoundError naming a path that
    does not exist or a folder without replays (saying so when its subfolders hold some)."""
    files = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            search = path.rglob if recursive else path.glob
            found = sorted(p for p in search(f"*{SUFFIX}") if p.is_file())
            if not found:
                deeper = not recursive and _any_replay_below(path)
                hint = " (its subfolders hold some: --recursive reads them)" if deeper else ""
                raise FileNotFoundError(f"{path}: no {SUFFIX} files in this folder{hint}")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path}: no such file or folder")
    return files


def _any_replay_below(folder: Path) -> bool:
    """Whether some subfolder of `folder` holds a replay file (stops at the first found; an
    unreadable subfolder counts as none)."""
    try:
        return any(p.is_file() for p in folder.rglob(f"*{SUFFIX}"))
    except OSError:
        return False


def read_replay(path) -> Replay:
    """Reads and checks the replay at `path`.

    Raises FileNotFoundError if it does not exist and ReplayError (a ValueError) naming the
    file, the field and the problem for anything else: not a replay, a format version this
    reader does not know, a truncated or corrupted file, a missing or malformed field.
    """
    with open(path, "rb") as handle:
        return _decode(_open_unpacker(path, handle), path)


def replay_summary(replay: Replay) -> dict:
    """Plain facts about a game for listings and `mbg replay info`: map, Systems, result, ...;
    with the optional header fields when the file has them (replay_schema.OPTIONAL_HEADER_FIELDS:
    "takebacks" as the undone ticks, "parent" as stored)."""
    header, states, events = replay.header, replay.states, replay.events
    result = header["result"]
    fallback = events["fallback"]
    optional = {
        "takebacks": lambda t: [int(undone["tick"]) for undone in t],
        "parent": dict,
    }
    return {
        "format_version": header["format_version"],
        "rules_version": header["rules_version"],
        "created": header["created"],
        "map": {k: header["map"].get(k) for k in ("id", "name", "split")},
        "roster": list(header["roster"]),
        "team_sizes": list(header["team_sizes"]),
        "systems": list(header["systems"]),
        "info_regime": header["info_regime"],
        "spawn_end": header["spawn_end"],
        "seeds": dict(header["seeds"]),
        "outcome": result["outcome"],
        "outcome_name": result["outcome_name"],
        "score": list(result["score"]),
        "ticks": replay.ticks,
        "deaths": [int(events["died"][:, :5].sum()), int(events["died"][:, 5:].sum())],
        "fallback_ticks": int(fallback.any(axis=1).sum()) if fallback.size else 0,
        "metrics_level": header["metrics_level"],
        "metric_rows": 0 if replay.metrics is None else replay.metrics.height,
        "final_tick_state": int(states["tick"][-1]),
        **{
            k: optional.get(k, lambda v: v)(header[k])
            for k in OPTIONAL_HEADER_FIELDS
            if k in header
        },
    }


__all__ = [
    "FORMAT_VERSION",
    "HEADER_FIELDS",
    "Replay",
    "ReplayError",
    "SUFFIX",
    "decode_replay",
    "encode_replay",
    "read_header",
    "read_replay",
    "replay_summary",
    "validate_replay",
    "write_replay",
]
