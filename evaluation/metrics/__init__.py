"""Game metrics in three levels (none, priority, full), computed with NumPy and polars.

    from evaluation.metrics import compute_metrics, metrics_to_bytes, metrics_from_bytes
    frame = compute_metrics(replay, "full")          # long form: game, topic, metric, ...
    blob = metrics_to_bytes(frame)                   # compact bytes for a replay or a file

The catalog (ids, units, scopes, definitions) is `evaluation.metrics.catalog`; docs/METRICS.md
is generated from it. Never imports JAX.
"""

from evaluation.metrics.arrays import Game, MetricsInputError
from evaluation.metrics.catalog import LEVELS, METRICS, PRIORITY, TOPICS
from evaluation.metrics.compute import SCHEMA, compute_metrics, empty_frame, level_ids, search
from evaluation.metrics.docs import catalog_frame, catalog_markdown
from evaluation.metrics.storage import metrics_from_bytes, metrics_to_bytes

__all__ = [
    "LEVELS",
    "METRICS",
    "PRIORITY",
    "SCHEMA",
    "TOPICS",
    "Game",
    "MetricsInputError",
    "catalog_frame",
    "catalog_markdown",
    "compute_metrics",
    "empty_frame",
    "level_ids",
    "metrics_from_bytes",
    "metrics_to_bytes",
    "search",
]
