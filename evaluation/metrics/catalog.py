"""The metric catalog: every metric's id, topic, unit, scope and one-sentence definition.

`TABLE` in `evaluation.metrics.catalog_table` is the single source of the catalog (its
`{status_rows}` line stands for two rows a status channel, `_status_rows`); the topic modules
must register exactly these ids (a test pins it), and docs/METRICS.md is generated from it.

Conventions used in the definitions:

- A *tick* is one transition t = 0..T-1; events[t] explains states[t] -> states[t+1]. Per-tick
  state conditions ("alive", "stunned", "in a Red Zone") are read at tick start, states[t].
- *Alive ticks* are ticks at whose start the slot is active and alive (shield or not).
- Damage stages (RULES 4): raw (class numbers), source (after Burst and Mage aura), recipient
  (after Warrior aura), realised (health actually removed). Healing stages: raw, recipient
  (after anti-heal), realised (health actually restored).
- A *lethal contribution* is a source with positive recipient-stage damage on a unit that died
  that tick (events.lethal); a *kill* is an opposing death.
- Tick indices are transition indices 0..T-1; -1 means "never". NaN means "no opportunity"
  (a ratio or mean with nothing to average).

Scopes: `game` (one value, source = target = -1), `team` (source = team 0/1), `slot` (source =
slot), `slot:<Class>` (only slots of that class), and `pair:<relation>` [source slot, target slot]
with relation enemy, ally (same team, self included), mate (same team, self excluded), any (all
active pairs, self included), other (all active pairs, self excluded), or `<Class>>ally` (source
of that class, target an ally of it). Inactive slots never get a row.
"""

from dataclasses import dataclass

from engine import constants as C
from evaluation.metrics.catalog_table import TABLE

LEVELS = ("none", "priority", "full")
SCOPES = ("game", "team", "slot", "pair")
RELATIONS = ("enemy", "ally", "mate", "any", "other")

# Distances (map units) and windows (ticks) that metric definitions use.
ALONE_RADIUS = 4.0
CLOSE_RADIUS = C.AURA_RADIUS
LOW_HEALTH = 0.25
TRADE_WINDOW = 3
POISON_WINDOW = 4


def _status_rows() -> str:
    rows = []
    for name in C.STATUS_NAMES:
        rows.append(f"applied_{name} count slot New {name} applications.")
    for name in C.STATUS_NAMES:
        rows.append(f"active_{name} ticks slot Alive ticks started with {name} running.")
    return "\n".join(rows)


@dataclass(frozen=True)
class Metric:
    """One catalog entry. scope: game/team/slot/pair; relation: pair relation or ""; cls: the
    class a slot metric or a pair's source is limited to (0 = any)."""

    id: str
    topic: str
    unit: str
    scope: str
    relation: str
    cls: int
    priority: bool
    definition: str

    @property
    def scope_text(self) -> str:
        """The scope as written in the table, e.g. `pair:Mage>ally`."""
        if self.scope == "pair":
            head = f"{C.CLASS_NAMES[self.cls]}>" if self.cls else ""
            return f"pair:{head}{self.relation}"
        return f"slot:{C.CLASS_NAMES[self.cls]}" if self.cls else self.scope


def _parse_scope(text: str) -> tuple[str, str, int]:
    scope, _, rest = text.partition(":")
    if scope not in SCOPES:
        raise ValueError(f"metric catalog: unknown scope {text!r}")
    cls_name, _, relation = rest.rpartition(">") if scope == "pair" else (rest, "", "")
    cls = C.CLASS_NAMES.index(cls_name) if cls_name else 0
    if scope == "pair" and relation not in RELATIONS:
        raise ValueError(f"metric catalog: unknown pair relation {text!r}")
    return scope, relation, cls


def _parse(table: str) -> tuple[dict, tuple]:
    topics, rows, topic = {}, [], ""
    for line in table.strip("\n").splitlines():
        if line.startswith("@"):
            topic, _, summary = line[1:].partition(" ")
            topics[topic] = summary
        elif line.startswith(" "):
            rows[-1][-1] += " " + line.strip()
        else:
            name, unit, scope, definition = line.split(maxsplit=3)
            rows.append([topic, name, unit, scope, definition])
    metrics = []
    for topic, name, unit, scope_text, definition in rows:
        scope, relation, cls = _parse_scope(scope_text)
        priority = name.startswith("*")
        name = name.lstrip("*")
        args = (unit, scope, relation, cls, priority, definition)
        metrics.append(Metric(f"{topic}.{name}", topic, *args))
    ids = [m.id for m in metrics]
    if len(set(ids)) != len(ids):
        raise ValueError("metric catalog: duplicate ids")
    return topics, tuple(metrics)


TOPICS, METRICS = _parse(TABLE.replace("{status_rows}", _status_rows()))
BY_ID = {m.id: m for m in METRICS}
PRIORITY = tuple(m.id for m in METRICS if m.priority)
