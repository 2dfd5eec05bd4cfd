"""Metrics tables as compact bytes, for embedding in a replay or writing next to one.

Format (version 1): a msgpack map {"format": "mbg-metrics", "version": 1, "games": [str],
"metrics": [metric ids in use], "n": rows, "columns": zlib-compressed bytes}. The columns are
stored one after the other: game index (uint16), metric index (uint16), source (int8), target
(int8), value (float32 with its four bytes split into planes, which compresses zeros and
repeated exponents well). Topics are recovered from the metric ids.
"""

import zlib

import msgpack
import numpy as np
import polars as pl

from evaluation.metrics.compute import SCHEMA

FORMAT = "mbg-metrics"
VERSION = 1
_COLUMNS = (("game", np.uint16), ("metric", np.uint16), ("source", np.int8), ("target", np.int8))


def metrics_to_bytes(frame: pl.DataFrame) -> bytes:
    """Encodes a metrics table (columns of `SCHEMA`, any number of games) as bytes."""
    missing = [c for c in SCHEMA if c not in frame.columns]
    if missing:
        raise ValueError(f"metrics table: missing columns {missing}")
    games, game_idx = np.unique(frame["game"].to_numpy().astype(str), return_inverse=True)
    names = frame["metric"].to_numpy().astype(str)
    metrics, first = np.unique(names, return_index=True)
    metrics = metrics[np.argsort(first)]  # keep the table's own order of ids
    metric_idx = np.searchsorted(np.sort(metrics), names)
    order = np.argsort(metrics)  # sorted position -> position in `metrics`
    metric_idx = order[metric_idx]
    values = frame["value"].to_numpy().astype("<f4")
    planes = values.view(np.uint8).reshape(-1, 4).T
    blob = b"".join(
        [
            game_idx.astype("<u2").tobytes(),
            metric_idx.astype("<u2").tobytes(),
            frame["source"].to_numpy().astype(np.int8).tobytes(),
            frame["target"].to_numpy().astype(np.int8).tobytes(),
            np.ascontiguousarray(planes).tobytes(),
        ]
    )
    packed = {
        "format": FORMAT,
        "version": VERSION,
        "games": games.tolist(),
        "metrics": metrics.tolist(),
        "n": frame.height,
        "columns": zlib.compress(blob, 9),
    }
    return msgpack.packb(packed, use_bin_type=True)


def metrics_from_bytes(data: bytes, source: str = "<bytes>") -> pl.DataFrame:
    """Decodes `metrics_to_bytes` output; raises ValueError naming `source` and the problem."""
    try:
        packed = msgpack.unpackb(data, raw=False)
        blob = zlib.decompress(packed["columns"])
        n, games, metrics = int(packed["n"]), packed["games"], packed["metrics"]
    except (ValueError, KeyError, TypeError, zlib.error, msgpack.UnpackException) as error:
        raise ValueError(f"{source}: metrics: not a metrics table ({error})") from None
    if packed.get("format") != FORMAT or packed.get("version") != VERSION:
        raise ValueError(
            f"{source}: metrics: format {packed.get('format')!r} version "
            f"{packed.get('version')!r}, expected {FORMAT!r} {VERSION}"
        )
    if len(blob) != n * 10:
        raise ValueError(f"{source}: metrics: {len(blob)} bytes do not hold {n} rows")
    arrays, offset = {}, 0
    for name, dtype in _COLUMNS:
        size = n * np.dtype(dtype).itemsize
        arrays[name] = np.frombuffer(
            blob[offset : offset + size], dtype=np.dtype(dtype).newbyteorder("<")
        )
        offset += size
    planes = np.frombuffer(blob[offset:], np.uint8).reshape(4, n)
    values = np.ascontiguousarray(planes.T).view("<f4").reshape(n)
    if n and (arrays["game"].max() >= len(games) or arrays["metric"].max() >= len(metrics)):
        raise ValueError(f"{source}: metrics: a row points past the game or metric list")
    names = np.array(metrics, dtype=object)[arrays["metric"]] if n else np.array([], object)
    return pl.DataFrame(
        {
            "game": np.array(games, dtype=object)[arrays["game"]] if n else [],
            "topic": [m.split(".", 1)[0] for m in names],
            "metric": names,
            "source": arrays["source"],
            "target": arrays["target"],
            "value": values,
        },
        schema=SCHEMA,
    )
