"""One frame to draw, as plain data: `Scene`, built from one tick of NumPy state (no JAX).

Point-of-view filtering happens here, once, so a renderer or panel given a Scene cannot show
what the view did not know. Views (RULES 5.2, A8):

- ``"oracle"``: every active unit as it is.
- ``("agent", i)``: while i is alive, i itself, the units it sees this tick (``visible[i]``,
  drawn from this tick's state) and the relayed ones (``relayed[i]``, drawn from
  ``prev_state``, marked relayed); once dead, nothing (a dead agent sees nothing, 5.2).
- ``("team", k)``: the union of what its living members see or have relayed; a dead member is
  drawn only from a relayed row (5.7), as no observation holds a dead unit's state.
"""

from dataclasses import dataclass, field

import numpy as np

from ui.rules import C, slot_label, team_of

OVERLAYS = ("sight", "ranges", "los", "red_zones", "trails", "numbers")
DEFAULT_OVERLAYS = frozenset({"red_zones", "numbers"})


@dataclass(frozen=True)
class UnitView:
    """One unit as the view knows it. Positions in map units, health in hit points."""

    slot: int
    class_id: int
    pos: tuple[float, float]
    health: float
    max_health: float
    alive: bool
    shield: int  # spawn-shield ticks left
    cooldown: int  # ticks until the Ultimate is ready
    status: tuple[int, ...]  # ticks left per status channel (C.STATUS_NAMES)
    relayed: bool = False  # drawn from the previous tick through a teammate's sighting

    @property
    def team(self) -> int:
        return team_of(self.slot)


@dataclass(frozen=True)
class FloatText:
    """A number or word floating over a unit: kind "damage", "heal", "info" or "status" (the
    BattleClient's fresh statuses, drawn in the "info" colour)."""

    slot: int
    text: str
    kind: str


@dataclass(frozen=True)
class Scene:
    """Everything ArenaRenderer.draw needs for one frame; `units` already respect the view."""

    tick: int
    view: object  # "oracle" | ("agent", slot) | ("team", 0 | 1)
    obstacles: np.ndarray  # (32, 8) float32
    red_zones: np.ndarray  # (2, 4) float32 [x0, y0, x1, y1] of team A, team B
    pads: np.ndarray  # (10, 2) float32
    units: tuple[UnitView, ...]
    score: tuple[int, int]
    outcome: int
    selected: int | None = None
    highlights: frozenset = frozenset()  # slots to ring, e.g. legal targets
    trails: dict = field(default_factory=dict)  # slot -> (k, 2) past positions
    floats: tuple[FloatText, ...] = ()
    overlays: frozenset = DEFAULT_OVERLAYS

    @property
    def known(self) -> frozenset:
        """Slots present in this frame (what the view knows about now)."""
        return frozenset(u.slot for u in self.units)

    def unit(self, slot: int) -> UnitView | None:
        return next((u for u in self.units if u.slot == slot), None)


def parse_view(text: str):
    """ "oracle", "agent:3" or "agent:A3" (the slot labels both apps show, ui.rules.slot_label),
    "team:A" / "team:1" -> a view value; ValueError otherwise."""
    if text == "oracle":
        return "oracle"
    kind, _, arg = text.partition(":")
    if kind == "agent" and arg.isdigit() and 0 <= int(arg) < C.NUM_SLOTS:
        return ("agent", int(arg))
    labels = {slot_label(s): s for s in range(C.NUM_SLOTS)}
    if kind == "agent" and arg.upper() in labels:
        return ("agent", labels[arg.upper()])
    if kind == "team" and arg.upper() in ("A", "B", "0", "1"):
        return ("team", 0 if arg.upper() in ("A", "0") else 1)
    raise ValueError(f"view {text!r}: expected oracle, agent:0-9, agent:A0-B4 or team:A|B")


def view_label(view, roster) -> str:
    """A view as the apps name it, in the View menu, the status line, the info bar and videos:
    "Oracle", "Team A", or an agent's slot and class, "A0 Mage".

    roster: the game's 10 class ids (a replay header's "roster", engine/constants.py ids); a
    class is fixed for the whole game (RULES 2.1), so one label holds at every tick."""
    if view == "oracle":
        return "Oracle"
    kind, arg = view
    if kind == "team":
        return f"Team {C.TEAM_NAMES[arg]}"
    return f"{slot_label(arg)} {C.CLASS_NAMES[int(roster[arg])]}"


def view_tag(view) -> str:
    """A view in a file name: "oracle", "agent-b2", "team-a" (the class left out: a name
    stays the same whatever the roster)."""
    if view == "oracle":
        return "oracle"
    kind, arg = view
    return f"{kind}-{(slot_label(arg) if kind == 'agent' else C.TEAM_NAMES[arg]).lower()}"


def known_masks(view, visible, relayed, alive, active) -> tuple[np.ndarray, np.ndarray]:
    """(direct, relayed_only) (10,) bool: slots the view draws from this tick / from the last.

    visible, relayed: (10, 10) bool [observer, seen]; alive, active: (10,) bool. A view's own
    members are known only while alive: a dead agent sees nothing, not even itself, and no
    teammate sees it (RULES 5.2), so a dead member is known only through a relayed row of the
    tick before (5.7); that it is dead is public (5.6), its state is not.
    """
    active = np.asarray(active, bool)
    if view == "oracle":
        return active.copy(), np.zeros(C.NUM_SLOTS, bool)
    kind, arg = view
    members = np.zeros(C.NUM_SLOTS, bool)
    if kind == "agent":
        members[arg] = True
    elif kind == "team":
        members[arg * C.TEAM_SIZE : (arg + 1) * C.TEAM_SIZE] = True
    else:
        raise ValueError(f"unknown view {view!r}")
    observers = members & np.asarray(alive, bool)
    direct = observers | np.asarray(visible, bool)[observers].any(axis=0)
    relay = np.asarray(relayed, bool)[observers].any(axis=0) & ~direct
    return direct & active, relay & active


def _unit(state: dict, slot: int, relayed: bool) -> UnitView:
    cls = int(state["class_id"][slot])
    return UnitView(
        slot=slot,
        class_id=cls,
        pos=(float(state["pos"][slot][0]), float(state["pos"][slot][1])),
        health=float(state["health"][slot]),
        max_health=float(C.MAX_HEALTH[cls]),
        alive=bool(state["alive"][slot]),
        shield=int(state["shield"][slot]),
        cooldown=int(state["cooldown"][slot]),
        status=tuple(int(v) for v in state["status"][slot]),
        relayed=relayed,
    )


def _floats(events: dict | None, direct: np.ndarray, oracle: bool) -> tuple[FloatText, ...]:
    """Damage and healing realised on units the view sees now (events of the last transition);
    in a point of view not on a unit that died in it (no observation holds the dead's health,
    RULES 5.2)."""
    if events is None:
        return ()
    if not oracle:
        direct = direct & ~np.asarray(events["died"], bool)
    out = []
    taken, healed = events["damage_realised"].sum(axis=0), events["heal_realised"].sum(axis=0)
    for slot in np.flatnonzero(direct):
        if taken[slot] >= 0.05:
            out.append(FloatText(int(slot), f"-{taken[slot]:.0f}", "damage"))
        if healed[slot] >= 0.05:
            out.append(FloatText(int(slot), f"+{healed[slot]:.0f}", "heal"))
    return tuple(out)


def scene_from_state(
    state: dict,
    *,
    view="oracle",
    visible=None,
    relayed=None,
    prev_state: dict | None = None,
    events: dict | None = None,
    selected: int | None = None,
    highlights=(),
    trails: dict | None = None,
    overlays=DEFAULT_OVERLAYS,
) -> Scene:
    """The Scene of one tick.

    state / prev_state: State fields without a time axis (NumPy); prev_state is the tick before
    (needed for relayed rows; without it relayed units are left out). visible / relayed:
    (10, 10) bool for this tick, required unless view == "oracle". events: the transition that
    led to `state` (for floating numbers), or None. Selection, highlights and trails of units
    the view does not know are dropped. Raises ValueError for an unknown view or missing masks.
    """
    if view != "oracle" and (visible is None or relayed is None):
        raise ValueError(f"view {view!r} needs the visible and relayed masks of the tick")
    zeros = np.zeros((C.NUM_SLOTS, C.NUM_SLOTS), bool)
    direct, relay = known_masks(
        view,
        zeros if visible is None else visible,
        zeros if relayed is None else relayed,
        state["alive"],
        state["active"],
    )
    if prev_state is None:
        relay[:] = False
    units = [_unit(state, int(s), False) for s in np.flatnonzero(direct)]
    units += [_unit(prev_state, int(s), True) for s in np.flatnonzero(relay)]
    units.sort(key=lambda u: u.slot)
    known = {u.slot for u in units}
    return Scene(
        tick=int(state["tick"]),
        view=view,
        obstacles=np.asarray(state["obstacles"]),
        red_zones=np.asarray(state["red_zones"]),
        pads=np.asarray(state["pads"]),
        units=tuple(units),
        score=(int(state["score"][0]), int(state["score"][1])),
        outcome=int(state["outcome"]),
        selected=selected if selected in known else None,
        highlights=frozenset(int(s) for s in highlights if s in known),
        trails={s: np.asarray(p) for s, p in (trails or {}).items() if s in known},
        floats=_floats(events, direct, view == "oracle"),
        overlays=frozenset(overlays),
    )


def view_trails(positions: np.ndarray, known: np.ndarray) -> dict:
    """Trails limited to what a view saw: positions (k, 10, 2), known (k, 10) bool -> dict.

    Each slot's trail keeps only the ticks at which the view knew the unit; a slot seen at fewer
    than two of the k ticks gets no trail.
    """
    out = {}
    for slot in range(positions.shape[1]):
        points = positions[known[:, slot], slot]
        if len(points) >= 2:
            out[slot] = points
    return out
