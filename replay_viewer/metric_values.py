"""Metric values as a person reads them: coded outcomes in words, flags as yes/no, "never".

Which metrics are codes, flags or tick indices comes from the metric catalog's units
(evaluation/metrics/catalog.py, docs/METRICS.md), read only when importing it stays JAX-free.
"""

from functools import cache

from replay_viewer.metrics_source import jax_free
from ui.rules import C

# docs/METRICS.md `outcome.result`: the engine's outcome codes (engine/constants.py), worded as
# evaluation/match.py WINNER names them.
OUTCOMES = {C.ONGOING: "ongoing", C.A_WINS: "A wins", C.B_WINS: "B wins", C.DRAW: "draw"}
CODES = {"outcome.result": OUTCOMES}
# Used when the catalog cannot be read without JAX: the ids docs/METRICS.md lists with these units.
KNOWN_UNITS = {"outcome.result": "code", "outcome.terminated": "flag", "outcome.truncated": "flag"}


@cache
def units() -> dict[str, str]:
    """{metric id: unit} from the catalog, or KNOWN_UNITS if importing it would start JAX."""
    if not jax_free("evaluation.metrics.catalog"):
        return dict(KNOWN_UNITS)
    from evaluation.metrics.catalog import METRICS

    return {m.id: m.unit for m in METRICS}


@cache
def definitions() -> dict[str, str]:
    """{metric id: its definition} from the catalog (docs/METRICS.md), or {} if importing it
    would start JAX."""
    if not jax_free("evaluation.metrics.catalog"):
        return {}
    from evaluation.metrics.catalog import METRICS

    return {m.id: m.definition for m in METRICS}


def number_text(value) -> str:
    """A number in at most about 4 characters of precision; "n/a" for None or NaN."""
    if value is None or value != value:
        return "n/a"
    return f"{value:.0f}" if abs(value) >= 1000 or float(value).is_integer() else f"{value:.3g}"


def value_text(metric: str, value) -> str:
    """The value of metric `metric` in words where it is a code ("B wins" for outcome.result 2),
    a flag ("yes"/"no") or a tick index that never happened (-1: "never"); else the number.
    An unknown code keeps its number with "code" before it, so nothing is hidden."""
    if value is None or value != value:
        return "n/a"
    unit = units().get(metric, "")
    if metric in CODES:
        name = CODES[metric].get(int(value)) if float(value).is_integer() else None
        return name if name is not None else f"code {number_text(value)}"
    if unit == "flag" and value in (0, 1):
        return "yes" if value else "no"
    if unit == "tick" and value == -1:
        return "never"
    return number_text(value)
