"""Byte-level pieces of the replay format: NumPy arrays and metric tables in msgpack.

Arrays are ``{"dtype", "shape", "bytes"}`` maps (C order, little endian); metrics are a polars
DataFrame in Arrow IPC form. Errors are `evaluation.replay_schema.ReplayError`.
"""

import io

import numpy as np
import polars as pl

from evaluation.replay_schema import METRIC_COLUMNS, ReplayError

# The polars dtypes of a metric table's columns (METRIC_COLUMNS): slots and teams fit int8,
# -1 marks an unused source/target.
METRIC_SCHEMA = dict(
    zip(
        METRIC_COLUMNS, (pl.String, pl.String, pl.String, pl.Int8, pl.Int8, pl.Float32), strict=True
    )
)


def encode_array(array: np.ndarray) -> dict:
    array = np.array(array, order="C")  # keeps 0-d arrays 0-d, unlike ascontiguousarray
    dtype = array.dtype.newbyteorder("<") if array.dtype.byteorder == ">" else array.dtype
    return {"dtype": dtype.str, "shape": list(array.shape), "bytes": array.astype(dtype).tobytes()}


def decode_array(obj, source, field: str) -> np.ndarray:
    if not isinstance(obj, dict) or set(obj) != {"dtype", "shape", "bytes"}:
        raise ReplayError(source, field, "expected an encoded array {dtype, shape, bytes}")
    try:
        dtype = np.dtype(obj["dtype"])
        shape = tuple(int(n) for n in obj["shape"])
    except (TypeError, ValueError) as error:
        raise ReplayError(source, field, f"bad dtype or shape ({error})") from None
    if dtype.kind not in "biuf":
        raise ReplayError(source, field, f"dtype {dtype} is not numeric or bool")
    if len(obj["bytes"]) != dtype.itemsize * int(np.prod(shape, dtype=np.int64)):
        raise ReplayError(source, field, f"{len(obj['bytes'])} bytes do not fill shape {shape}")
    return np.frombuffer(obj["bytes"], dtype=dtype).reshape(shape)


def plain(value):
    """msgpack hook: NumPy scalars and arrays in the header become plain Python values."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    raise TypeError(f"cannot store {type(value).__name__} in a replay header")


def metrics_bytes(metrics: pl.DataFrame | None) -> bytes | None:
    if metrics is None:
        return None
    buffer = io.BytesIO()
    metrics.write_ipc(buffer)
    return buffer.getvalue()


def metrics_frame(data, source) -> pl.DataFrame | None:
    if data is None:
        return None
    try:
        frame = pl.read_ipc(io.BytesIO(data))
    except Exception as error:  # polars raises several unrelated types on bad IPC bytes
        raise ReplayError(source, "metrics", f"not a readable Arrow IPC table ({error})") from None
    missing = [c for c in METRIC_COLUMNS if c not in frame.columns]
    if missing:
        raise ReplayError(source, "metrics", f"missing columns {missing}")
    return frame
