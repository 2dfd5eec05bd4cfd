"""One game's arrays, checked, plus the derived per-tick arrays that many metrics share.

`Game` wraps a replay (or its parts) without copying: states with a leading axis T+1, events
with a leading axis T, visibility (T+1, 10, 10). Derived arrays are cached properties, so the
priority level computes only what its 16 values need. No JAX here: the viewer imports this.
"""

from functools import cached_property

import numpy as np

from engine import constants as C
from evaluation.replay_schema import EVENT_FIELDS, LAYOUT_FIELDS, STATE_FIELDS

TEAM = C.TEAM_OF_SLOT
EYE = np.eye(C.NUM_SLOTS, dtype=bool)
STUN_CHANNELS = C.IS_STUN
SLOW_CHANNELS = C.SLOW_FACTOR < 1
STATE_USED = ("class_id", "active", "red_zones", "spawn_end", "pos", "health", "alive")
STATE_USED += ("cooldown", "status", "shield", "ooc", "score", "outcome")
DAMAGE_STAGES = ("raw", "source", "recipient", "realised")
HEAL_STAGES = ("raw", "recipient", "realised")


class MetricsInputError(ValueError):
    """Arrays that metrics cannot be computed from; the message names the field and problem."""


def _part(obj, name, required=True):
    value = obj.get(name) if isinstance(obj, dict) else getattr(obj, name, None)
    if value is None and required:
        raise MetricsInputError(f"metrics input: {name}: missing")
    return value


def _check(array, field: str, trailing: tuple, lead: int | None) -> np.ndarray:
    if not isinstance(array, np.ndarray):
        array = np.asarray(array)
    want = trailing if lead is None else (lead, *trailing)
    if array.shape != want:
        raise MetricsInputError(f"metrics input: {field}: shape {array.shape}, expected {want}")
    return array


class Game:
    """Checked arrays of one game. `ev(name)` and `st(name)` give events and states arrays."""

    def __init__(self, replay_or_parts, game: str | None = None):
        header = _part(replay_or_parts, "header", required=False) or {}
        states = _part(replay_or_parts, "states")
        events = _part(replay_or_parts, "events")
        if "lane" not in events:
            raise MetricsInputError("metrics input: events.lane: missing")
        self.T = int(np.shape(events["lane"])[0])
        self.events = {}
        for name, (trailing, _) in EVENT_FIELDS.items():
            if name not in events:
                raise MetricsInputError(f"metrics input: events.{name}: missing")
            self.events[name] = _check(events[name], f"events.{name}", trailing, self.T)
        self.states = {}
        for name in STATE_USED:
            if name not in states:
                raise MetricsInputError(f"metrics input: states.{name}: missing")
            trailing = STATE_FIELDS[name][0]
            array = np.asarray(states[name])
            if name in LAYOUT_FIELDS and array.shape == trailing:
                self.states[name] = array  # stored once
                continue
            array = _check(array, f"states.{name}", trailing, self.T + 1)
            self.states[name] = array[0] if name in LAYOUT_FIELDS else array
        for name in ("visible", "relayed"):
            array = _check(_part(replay_or_parts, name), name, (10, 10), self.T + 1)
            setattr(self, name, array.astype(bool, copy=False))
        self.header = header
        self.game = str(game if game is not None else header.get("game_id", "game"))
        self.active = self.states["active"].astype(bool)
        self.cls = np.where(self.active, self.states["class_id"], 0).astype(np.int64)

    def ev(self, name: str) -> np.ndarray:
        """An events array, leading axis T."""
        return self.events[name]

    def st(self, name: str) -> np.ndarray:
        """A dynamic states array, leading axis T+1."""
        return self.states[name]

    # --- layout -------------------------------------------------------------------------------
    @cached_property
    def maxhp(self) -> np.ndarray:
        """(10,) max health of each slot, hit points."""
        return C.MAX_HEALTH[self.cls].astype(np.float64)

    @cached_property
    def enemy(self) -> np.ndarray:
        """(10, 10) bool: both active, different teams."""
        both = self.active[:, None] & self.active[None, :]
        return both & (TEAM[:, None] != TEAM[None, :])

    @cached_property
    def ally(self) -> np.ndarray:
        """(10, 10) bool: both active, same team (self included)."""
        both = self.active[:, None] & self.active[None, :]
        return both & (TEAM[:, None] == TEAM[None, :])

    @cached_property
    def mate(self) -> np.ndarray:
        """(10, 10) bool: allies other than oneself."""
        return self.ally & ~EYE

    @cached_property
    def team_end(self) -> np.ndarray:
        """(2,) spawn end of each team: 0 west, 1 east."""
        end = int(np.asarray(self.states["spawn_end"]).reshape(-1)[0])
        return np.array([end, 1 - end])

    # --- per-tick state at tick start (T, ...) -------------------------------------------------
    @cached_property
    def alive(self) -> np.ndarray:
        """(T, 10) bool: active and alive at tick start."""
        return self.st("alive")[:-1].astype(bool) & self.active

    @cached_property
    def status(self) -> np.ndarray:
        """(T, 10, 9) int: status counters at tick start."""
        return self.st("status")[:-1]

    @cached_property
    def stunned(self) -> np.ndarray:
        """(T, 10) bool: alive with a stun channel running."""
        return self.alive & ((self.status > 0) & STUN_CHANNELS).any(-1)

    @cached_property
    def slowed(self) -> np.ndarray:
        """(T, 10) bool: alive with a slow channel running."""
        return self.alive & ((self.status > 0) & SLOW_CHANNELS).any(-1)

    @cached_property
    def controlled(self) -> np.ndarray:
        """(T, 10) bool: stunned or slowed."""
        return self.stunned | self.slowed

    @cached_property
    def shielded(self) -> np.ndarray:
        """(T, 10) bool: alive with a spawn shield."""
        return self.alive & (self.st("shield")[:-1] > 0)

    @cached_property
    def acting(self) -> np.ndarray:
        """(T, 10) bool: alive and unshielded (may use abilities)."""
        return self.alive & ~self.shielded

    @cached_property
    def pos(self) -> np.ndarray:
        """(T, 10, 2) positions at tick start, map units."""
        return self.st("pos")[:-1].astype(np.float64)

    @cached_property
    def dist(self) -> np.ndarray:
        """(T, 10, 10) centre distances at tick start, map units."""
        delta = self.pos[:, :, None] - self.pos[:, None, :]
        return np.hypot(delta[..., 0], delta[..., 1])

    @cached_property
    def both_alive(self) -> np.ndarray:
        """(T, 10, 10) bool: both units alive at tick start."""
        return self.alive[:, :, None] & self.alive[:, None, :]

    @cached_property
    def health(self) -> np.ndarray:
        """(T, 10) health at tick start."""
        return self.st("health")[:-1].astype(np.float64)

    @cached_property
    def score_after(self) -> np.ndarray:
        """(T, 2) score after each tick."""
        return self.st("score")[1:].astype(np.int64)

    # --- per-tick events -----------------------------------------------------------------------
    @cached_property
    def damage(self) -> dict:
        """Stage -> (T, 10, 10) float64 [source, recipient] damage."""
        return {s: self.ev(f"damage_{s}").astype(np.float64) for s in DAMAGE_STAGES}

    @cached_property
    def heal(self) -> dict:
        """Stage -> (T, 10, 10) float64 [source, recipient] healing."""
        return {s: self.ev(f"heal_{s}").astype(np.float64) for s in HEAL_STAGES}

    @cached_property
    def hit(self) -> np.ndarray:
        """(T, 10, 10) bool: positive raw damage from source to recipient."""
        return self.damage["raw"] > 0

    @cached_property
    def lethal(self) -> np.ndarray:
        """(T, 10, 10) bool [source, victim] lethal contributions."""
        return self.ev("lethal").astype(bool)

    @cached_property
    def contributors(self) -> np.ndarray:
        """(T, 10) number of lethal contributors of each victim."""
        return self.lethal.sum(1)

    @cached_property
    def died(self) -> np.ndarray:
        """(T, 10) bool deaths."""
        return self.ev("died").astype(bool) & self.active

    @cached_property
    def lane(self) -> np.ndarray:
        """(T, 10) accepted lane: 0 none, 1 Basic, 2 Ultimate."""
        return self.ev("lane")

    @cached_property
    def routed(self) -> np.ndarray:
        """(T, 10, 10) bool: the source's accepted ability went to the recipient."""
        rec = self.ev("recipient")
        return (rec[:, :, None] == np.arange(C.NUM_SLOTS)) & (self.lane > 0)[:, :, None]

    def team_sum(self, per_slot: np.ndarray) -> np.ndarray:
        """(..., 10) -> (2,) sums over each team's active slots (and any leading axes)."""
        values = np.where(self.active, per_slot, 0).reshape(-1, C.NUM_SLOTS).sum(0)
        return np.array([values[TEAM == k].sum() for k in range(C.NUM_TEAMS)])

    def by_team(self, per_tick_slot: np.ndarray) -> np.ndarray:
        """(T, 10) -> (T, 2) sums over each team's active slots per tick."""
        values = np.where(self.active, per_tick_slot, 0)
        return np.stack([values[:, TEAM == k].sum(1) for k in range(C.NUM_TEAMS)], 1)


def ratio(num, den) -> np.ndarray:
    """num / den elementwise, NaN where den is 0."""
    num, den = np.asarray(num, np.float64), np.asarray(den, np.float64)
    return np.divide(num, den, out=np.full(np.broadcast(num, den).shape, np.nan), where=den != 0)


def masked_mean(values: np.ndarray, mask: np.ndarray, axis=0) -> np.ndarray:
    """Mean of values where mask holds, along axis; NaN where nothing is selected."""
    return ratio(np.where(mask, values, 0).sum(axis), mask.sum(axis))


def first_tick(flags: np.ndarray) -> np.ndarray:
    """(T, ...) bool -> first t with a flag along axis 0, -1 where none."""
    if flags.shape[0] == 0:
        return np.full(flags.shape[1:], -1)
    return np.where(flags.any(0), flags.argmax(0), -1)


def window_sum(per_tick: np.ndarray, back: int, forward: int) -> np.ndarray:
    """Sum over ticks [t - back, t + forward] (clipped to the game) for each t, along axis 0."""
    T = per_tick.shape[0]
    pad = np.zeros((1, *per_tick.shape[1:]), per_tick.dtype)
    cs = np.concatenate([pad, np.cumsum(per_tick, 0)])
    t = np.arange(T)
    hi = np.minimum(t + forward, T - 1) + 1
    lo = np.maximum(t - back, 0)
    return cs[hi] - cs[lo]
