"""The catalog as a table and as docs/METRICS.md (`mbg metrics --catalog --format md`)."""

from functools import cache

import polars as pl

from evaluation.metrics import catalog
from evaluation.metrics.catalog import METRICS, PRIORITY, TOPICS


@cache
def catalog_frame():
    """The catalog as a polars DataFrame: id, topic, unit, scope, priority, definition."""
    return pl.DataFrame(
        {
            "id": [m.id for m in METRICS],
            "topic": [m.topic for m in METRICS],
            "unit": [m.unit for m in METRICS],
            "scope": [m.scope_text for m in METRICS],
            "priority": [m.priority for m in METRICS],
            "definition": [m.definition for m in METRICS],
        }
    )


def catalog_markdown() -> str:
    """docs/METRICS.md: the topics with their metric counts, then every metric by topic."""
    counts = {t: sum(m.topic == t for m in METRICS) for t in TOPICS}
    lines = [
        "# Metric catalog",
        "",
        "Generated from `evaluation/metrics/catalog.py` by "
        "`mbg metrics --catalog --format md > docs/METRICS.md`; do not edit by hand.",
        "",
        f"{len(METRICS)} metrics in {len(TOPICS)} topics; the {len(PRIORITY)} priority metrics "
        "(marked **P**) give the 16 values of the `priority` level.",
        "",
        *_conventions(),
        "| Topic | Metrics | About |",
        "| --- | ---: | --- |",
        *(f"| [{t}](#{t}) | {counts[t]} | {s} |" for t, s in TOPICS.items()),
    ]
    for topic, summary in TOPICS.items():
        lines += ["", f"## {topic}", "", summary, "", "| Id | Unit | Scope | Definition |"]
        lines.append("| --- | --- | --- | --- |")
        for m in (m for m in METRICS if m.topic == topic):
            mark = " **P**" if m.priority else ""
            lines.append(f"| `{m.id}`{mark} | {m.unit} | {m.scope_text} | {m.definition} |")
    return "\n".join(lines) + "\n"


def _conventions() -> list[str]:
    doc = catalog.__doc__.split("Conventions used in the definitions:", 1)[1].strip()
    return ["## Conventions", "", doc, "", "## Topics", ""]
