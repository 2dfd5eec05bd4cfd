"""Where the topic modules register the function behind each catalog id.

A function takes a `Game` and returns an array shaped by the metric's scope: () for game,
(2,) for team, (10,) for slot, (10, 10) [source, target] for pair. Entries for inactive slots,
other classes or other relations are computed and then dropped when the table is built.
"""

from collections.abc import Callable

REGISTRY: dict[str, Callable] = {}


def provides(*ids: str):
    """Decorator: `fn(game)` returns the value of `ids[0]`, or a tuple with one array per id."""

    def register(fn):
        for i, metric_id in enumerate(ids):
            if metric_id in REGISTRY:
                raise ValueError(f"metric {metric_id} registered twice")
            REGISTRY[metric_id] = fn if len(ids) == 1 else _pick(fn, i)
        return fn

    return register


def _pick(fn, index):
    """The index-th output of a multi-metric function; the game caches the whole tuple."""

    def one(game):
        cache = game.__dict__.setdefault("_multi", {})
        if fn not in cache:
            cache[fn] = fn(game)
        return cache[fn][index]

    return one


def add(metric_id: str, fn: Callable) -> None:
    """Registers one function for one id (for ids generated in loops)."""
    provides(metric_id)(fn)
