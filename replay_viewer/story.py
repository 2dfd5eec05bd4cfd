"""The story of a game for the timeline and the kill feed: deaths, Ultimates and score changes.

A `Mark` is one moment worth finding again, at the replay index `tick` of the state right
after it (tick t tells the transition t-1 -> t, as the event log does). A point of view gets
exactly the marks its log would tell (ui.explain, RULES 5.3-5.7): a death of a unit it knew at
either end of the transition (deaths are public to whoever knew the unit, 5.6), never its
killers (ui.explain.death_facts: the Oracle's alone); an Ultimate only of a unit seen directly
after it (a relayed row shows the tick before); score changes always (the score is public); and
nothing after the tick being shown, since a view at tick t knows no future. The Oracle view gets
every mark.
"""

from dataclasses import dataclass

import numpy as np

from ui.explain import death_facts, listed
from ui.rules import C, team_of, unit_name

KINDS = ("death", "ultimate", "score")  # drawing order on the timeline, bottom to top
FEED_TICKS = 30  # a death stays in the kill feed this many ticks


@dataclass(frozen=True)
class Mark:
    """tick: replay index 1..T; kind: one of KINDS; team: 0 (A) or 1 (B), whose death, whose
    Ultimate, who scored; text: one sentence for the tooltip and the feed."""

    tick: int
    kind: str
    team: int
    text: str


def _death_marks(model, t: int, known: set, seen_before, cls) -> list[Mark]:
    """`seen_before`: None in the Oracle view, else the slots seen directly at t-1."""
    ev = model.events(t - 1)
    out = []
    for victim in sorted(known):
        if not ev["died"][victim]:
            continue
        killers, red = death_facts(ev, victim, seen_before)
        victim_name = unit_name(victim, cls[victim])
        if killers:
            text = f"{listed(unit_name(k, cls[k]) for k in killers)} killed {victim_name}"
        else:
            text = f"{victim_name} died"
        if red:
            text += f" in its own Red Zone ({C.RED_ZONE_POINTS} points)"
        out.append(Mark(t, "death", team_of(victim), text))
    return out


def _ultimate_marks(model, t: int, seen: set, cls) -> list[Mark]:
    ev = model.events(t - 1)
    out = []
    for src in sorted(seen):
        if int(ev["lane"][src]) != 2:
            continue
        text = f"{unit_name(src, cls[src])}: {C.ULT_NAMES[cls[src]]}"
        rec = int(ev["recipient"][src])
        if rec >= 0 and rec != src and rec in seen:
            text += f" on {unit_name(rec, cls[rec])}"
        out.append(Mark(t, "ultimate", team_of(src), text))
    return out


def _score_marks(model, t: int) -> list[Mark]:
    delta = [int(v) for v in model.events(t - 1)["score_delta"]]
    a, b = (int(v) for v in model.state(t)["score"])
    return [
        Mark(t, "score", team, f"+{d} Team {C.TEAM_NAMES[team]} (A {a} : B {b})")
        for team, d in enumerate(delta)
        if d
    ]


def tick_marks(model, t: int) -> list[Mark]:
    """The marks of the transition into replay index `t` (1..T) in the model's current view."""
    cls = [int(c) for c in model.replay.states["class_id"][0]]
    if model.view == "oracle":
        known = seen = set(np.flatnonzero(model.replay.states["active"][0]).tolist())
        seen_before = None
    else:
        known = model.known_transition(t)
        seen = set(np.flatnonzero(model.masks(t)[0]).tolist())
        seen_before = set(np.flatnonzero(model.masks(t - 1)[0]).tolist())
    return (
        _death_marks(model, t, known, seen_before, cls)
        + _ultimate_marks(model, t, seen, cls)
        + (_score_marks(model, t))
    )


def game_marks(model) -> list[Mark]:
    """Every mark the current view may show at the current tick, in tick order: the whole game
    in the Oracle view, ticks 1..current in a point of view (ViewerModel.marks caches each
    tick's marks per view)."""
    last = model.ticks if model.view == "oracle" else model.tick
    return [m for t in range(1, last + 1) for m in model.marks(t)]


def kill_feed(model, count: int = 5) -> list[Mark]:
    """The latest `count` deaths the view knows of in the FEED_TICKS ticks up to the current
    tick, newest tick first."""
    t = model.tick
    recent = [m for m in game_marks(model) if m.kind == "death" and t - FEED_TICKS < m.tick <= t]
    return sorted(recent, key=lambda m: -m.tick)[:count]  # same tick: slot order
