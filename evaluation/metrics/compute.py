"""Metrics of one game as a long-form polars table, at level none, priority or full.

Columns: game (str), topic (str), metric (str, the catalog id `topic.name`), source (int8),
target (int8), value (float32). source/target are slots, the team (0 A, 1 B) for team metrics,
and -1 where unused. Rows follow the catalog order, then source, then target.
"""

import numpy as np
import polars as pl

from engine import constants as C
from evaluation.metrics import (
    topics_classes,
    topics_combat,
    topics_control,
    topics_game,
    topics_space,
)
from evaluation.metrics.arrays import Game
from evaluation.metrics.catalog import BY_ID, LEVELS, METRICS, PRIORITY, Metric
from evaluation.metrics.registry import REGISTRY
from evaluation.replay_codec import METRIC_SCHEMA

TOPIC_MODULES = (topics_game, topics_combat, topics_control, topics_classes, topics_space)
SCHEMA = METRIC_SCHEMA
SHAPES = {"game": (), "team": (C.NUM_TEAMS,), "slot": (C.NUM_SLOTS,)}
SHAPES["pair"] = (C.NUM_SLOTS, C.NUM_SLOTS)


def empty_frame() -> pl.DataFrame:
    """A metrics table with no rows (level none)."""
    return pl.DataFrame(schema=SCHEMA)


def level_ids(level: str) -> tuple[str, ...]:
    """The metric ids a level stores; raises ValueError for an unknown level."""
    if level not in LEVELS:
        raise ValueError(f"metrics level {level!r}: expected one of {LEVELS}")
    return {"none": (), "priority": PRIORITY, "full": tuple(m.id for m in METRICS)}[level]


def _relation(game: Game, relation: str) -> np.ndarray:
    both = game.active[:, None] & game.active[None, :]
    masks = {"enemy": game.enemy, "ally": game.ally, "mate": game.mate, "any": both}
    return masks[relation] if relation in masks else both & ~np.eye(C.NUM_SLOTS, dtype=bool)


def _rows(game: Game, metric: Metric, cache: dict) -> tuple[np.ndarray, np.ndarray]:
    """(source, target) index arrays of the rows a metric keeps for this game."""
    key = (metric.scope, metric.relation, metric.cls)
    if key not in cache:
        of_class = game.active & ((game.cls == metric.cls) if metric.cls else True)
        if metric.scope == "game":
            rows = np.array([-1]), np.array([-1])
        elif metric.scope == "team":
            rows = np.arange(C.NUM_TEAMS), np.full(C.NUM_TEAMS, -1)
        elif metric.scope == "slot":
            slots = np.flatnonzero(of_class)
            rows = slots, np.full(len(slots), -1)
        else:
            rows = np.nonzero(_relation(game, metric.relation) & of_class[:, None])
        cache[key] = rows
    return cache[key]


def _values(game: Game, metric: Metric, source, target) -> np.ndarray:
    value = np.asarray(REGISTRY[metric.id](game), dtype=np.float64)
    if value.shape != SHAPES[metric.scope]:
        raise RuntimeError(f"metric {metric.id}: shape {value.shape}, scope {metric.scope}")
    if metric.scope == "game":
        return value.reshape(1)
    if metric.scope == "pair":
        return value[source, target]
    return value[source]


def compute_metrics(replay_or_parts, level: str = "full", game: str | None = None) -> pl.DataFrame:
    """Metrics of one game as a long-form DataFrame (columns in `SCHEMA`).

    replay_or_parts: an evaluation.replay.Replay, or a dict / object with `states` (T+1 leading
    axis), `events` (T leading axis), `visible` and `relayed` (T+1, 10, 10) and optionally
    `header`. level: "none" (empty), "priority" (16 rows) or "full" (every catalog metric).
    game: the value of the game column (default header["game_id"] or "game").
    Raises ValueError for an unknown level and MetricsInputError (a ValueError) naming the field
    of a missing or misshapen array.
    """
    ids = level_ids(level)
    if not ids:
        return empty_frame()
    g = replay_or_parts if isinstance(replay_or_parts, Game) else Game(replay_or_parts, game)
    cache, parts = {}, []
    for metric_id in ids:
        metric = BY_ID[metric_id]
        source, target = _rows(g, metric, cache)
        parts.append((metric, source, target, _values(g, metric, source, target)))
    counts = [len(p[3]) for p in parts]
    metric_names = np.repeat(np.array([p[0].id for p in parts]), counts)
    topics = np.repeat(np.array([p[0].topic for p in parts]), counts)
    columns = {
        "topic": topics,
        "metric": metric_names,
        "source": np.concatenate([p[1] for p in parts]).astype(np.int8),
        "target": np.concatenate([p[2] for p in parts]).astype(np.int8),
        "value": np.concatenate([p[3] for p in parts]).astype(np.float32),
    }
    frame = pl.DataFrame(columns)
    return frame.select(pl.lit(g.game, pl.String).alias("game"), *list(SCHEMA)[1:])


def search(frame: pl.DataFrame, text: str) -> pl.DataFrame:
    """Rows matching every whitespace-separated token of `text`, case-insensitive.

    A token `@N` keeps rows whose source or target is N (a slot, or a team for team metrics);
    any other token must occur in the metric id (which starts with the topic).
    """
    for token in text.lower().split():
        if token.startswith("@") and token[1:].lstrip("-").isdigit():
            n = int(token[1:])
            frame = frame.filter((pl.col("source") == n) | (pl.col("target") == n))
        else:
            frame = frame.filter(
                pl.col("metric").str.to_lowercase().str.contains(token, literal=True)
            )
    return frame
