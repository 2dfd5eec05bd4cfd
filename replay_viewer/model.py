"""What the viewer shows, without pygame: the timeline, the view, and per-tick facts.

`ViewerModel` holds one replay and answers, for the current tick and view, the Scene to draw,
the event-log lines, the selected agent's orders and changes, and plot series, each limited to
what the view knew. Tick t shows states[t] and explains the transition t-1 -> t (events[t-1]).
"""

from functools import lru_cache

import numpy as np

from evaluation.replay import Replay
from evaluation.replay_verify import fact_differences, result_facts
from replay_viewer import story
from replay_viewer.agent_panel import AgentPanel
from ui.explain import explain_tick
from ui.rules import C, unit_name
from ui.scene import (
    DEFAULT_OVERLAYS,
    Scene,
    known_masks,
    scene_from_state,
    view_label,
    view_trails,
)

SPEEDS = (1, 2, 4, 8, 15, 30)  # playback presets, ticks per second
TRAIL_TICKS = 8
# The log of a tick with no event: the Oracle view sees everything, so nothing happened; a
# point of view may have missed what happened out of its sight.
QUIET_TICK = {
    "oracle": "Nothing happened this tick.",
    "pov": "Nothing this view could see happened.",
}


class Timeline:
    """Current tick (0..last), play/pause and playback speed; `advance(dt)` moves it on."""

    def __init__(self, last: int):
        self.last, self.tick, self.playing, self.speed_index = int(last), 0, False, 2
        self._carry = 0.0

    @property
    def speed(self) -> int:
        return SPEEDS[self.speed_index]

    @property
    def phase(self) -> float:
        """While playing, how far playback is into the transition tick -> tick+1, in [0, 1)."""
        return self._carry if self.playing and self.tick < self.last else 0.0

    def seek(self, tick: int) -> int:
        self.tick, self._carry = max(0, min(self.last, int(tick))), 0.0
        return self.tick

    def step(self, delta: int) -> int:
        self.playing = False
        return self.seek(self.tick + delta)

    def toggle(self) -> None:
        if not self.playing and self.tick >= self.last:
            self.seek(0)  # play from the start again
        self.playing = not self.playing

    def faster(self, delta: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + delta))

    def advance(self, dt: float) -> bool:
        """Moves on by dt seconds of playback; True if the tick changed."""
        if not self.playing:
            return False
        self._carry += dt * self.speed
        steps = int(self._carry)
        if steps == 0:
            return False
        self._carry -= steps
        before = self.tick
        self.tick = min(self.last, self.tick + steps)
        if self.tick >= self.last:
            self.playing = False
        return self.tick != before


def game_result(replay: Replay) -> tuple[dict, list[str]]:
    """The game's result as its states give it ({outcome, outcome_name, score, ticks}, as the
    header's `result`), and each line where the header says otherwise (a file edited by hand):
    the viewer trusts what it shows, the states (evaluation.replay_verify.result_facts)."""
    facts = result_facts(replay)
    result = {key.split(".", 1)[1]: value for key, value in facts.items()}
    return result, fact_differences(replay.header, facts)


class ViewerModel(AgentPanel):
    """One replay being viewed (tick, view, selection, overlays) and its per-tick facts; the
    Agent panel's lines are replay_viewer.agent_panel."""

    def __init__(self, replay: Replay, name: str = "replay"):
        self.replay, self.name = replay, name
        self.result, self.header_problems = game_result(replay)
        self.timeline = Timeline(replay.ticks)
        self.view = "oracle"
        self.selected: int | None = None
        self.overlays = set(DEFAULT_OVERLAYS)
        self._state = lru_cache(maxsize=64)(self._state_uncached)
        self._events = lru_cache(maxsize=64)(self._events_uncached)
        self._mask_cache: dict = {}
        self._marks: dict = {}  # (view, tick) -> that tick's story marks

    # --- raw access --------------------------------------------------------------------------
    @property
    def tick(self) -> int:
        """The replay index shown (0..ticks); `game_tick` is the number a person reads."""
        return self.timeline.tick

    @property
    def first_tick(self) -> int:
        """The game tick of replay index 0: 0 for a whole game, the start tick of a scenario's
        replay (e.g. 294), whose states begin where the scenario starts (State.tick, RULES 0)."""
        return int(self.replay.states["tick"][0])

    def game_tick(self, t: int) -> int:
        """The game tick of replay index `t`, as the BattleClient and the state number it."""
        return self.first_tick + int(t)

    def _state_uncached(self, t: int) -> dict:
        return {k: v[t] for k, v in self.replay.states.items()}

    def _events_uncached(self, t: int) -> dict:
        return {k: v[t] for k, v in self.replay.events.items()}

    def state(self, t: int) -> dict:
        return self._state(int(t))

    def events(self, t: int) -> dict:
        """Events of the transition t -> t+1."""
        return self._events(int(t))

    def all_masks(self, view=None) -> tuple[np.ndarray, np.ndarray]:
        """(direct, relayed) (T+1, 10) bool: who the view draws at each tick (ui.scene rules)."""
        view = self.view if view is None else view
        if view not in self._mask_cache:
            r = self.replay
            alive, active = r.states["alive"], r.states["active"]
            pairs = [
                known_masks(view, r.visible[t], r.relayed[t], alive[t], active[t])
                for t in range(r.ticks + 1)
            ]
            self._mask_cache[view] = (
                np.stack([p[0] for p in pairs]),
                np.stack([p[1] for p in pairs]),
            )
        return self._mask_cache[view]

    def masks(self, t: int, view=None) -> tuple[np.ndarray, np.ndarray]:
        """(direct, relayed) (10,) bool at tick t."""
        direct, relay = self.all_masks(view)
        return direct[t], relay[t]

    def known(self, t: int, view=None) -> set[int]:
        direct, relay = self.masks(t, view)
        return set(np.flatnonzero(direct | relay).tolist())

    def known_transition(self, t: int) -> set[int]:
        """Slots the view knew around the transition into tick t (at t-1 or at t)."""
        return self.known(t) | (self.known(t - 1) if t > 0 else set())

    # --- per-tick outputs ------------------------------------------------------------------
    def set_view(self, view) -> None:
        self.view = view
        if self.selected is not None and self.selected not in self.known(self.tick):
            self.selected = None

    def scene(self, t: int | None = None) -> Scene:
        """The Scene of tick `t` (default: the current tick) in the current view."""
        t = self.tick if t is None else int(t)
        trails = None
        if "trails" in self.overlays:
            first = max(0, t - TRAIL_TICKS)
            pos = self.replay.states["pos"][first : t + 1]
            alive = self.replay.states["alive"][first : t + 1]
            seen = self.all_masks()[0][first : t + 1] & alive
            trails = view_trails(pos, seen)
        return scene_from_state(
            self.state(t),
            view=self.view,
            visible=self.replay.visible[t],
            relayed=self.replay.relayed[t],
            prev_state=self.state(t - 1) if t > 0 else None,
            events=self.events(t - 1) if t > 0 else None,
            selected=self.selected,
            trails=trails,
            overlays=self.overlays,
        )

    def log_lines(self, t: int | None = None) -> list[str]:
        """Event-log sentences for the transition into tick `t` (default: the current tick)."""
        t = self.tick if t is None else int(t)
        if t == 0:
            what = "the game starts" if self.first_tick == 0 else "the replay starts"
            return [f"Tick {self.first_tick}: {what}; step forward to see what happens."]
        known, seen, seen_before = None, None, None
        if self.view != "oracle":
            known = self.known_transition(t)
            seen = set(np.flatnonzero(self.masks(t)[0]).tolist())  # relayed rows: last tick
            seen_before = set(np.flatnonzero(self.masks(t - 1)[0]).tolist())
        ev, before, after = self.events(t - 1), self.state(t - 1), self.state(t)
        lines = explain_tick(ev, before, after, self.view, known, seen, seen_before)
        return lines or [QUIET_TICK["oracle" if self.view == "oracle" else "pov"]]

    def marks(self, t: int) -> list:
        """The story marks (replay_viewer.story) of the transition into tick `t` in this view."""
        key = (self.view, int(t))
        if key not in self._marks:
            self._marks[key] = story.tick_marks(self, int(t))
        return self._marks[key]

    def unit_label(self, slot: int) -> str:
        return unit_name(slot, self.replay.states["class_id"][0][slot])

    def view_name(self, view=None) -> str:
        """`view`'s label (default: the current view's) with this game's classes ("A0 Mage"),
        ui.scene.view_label over the header's roster."""
        return view_label(self.view if view is None else view, self.replay.header["roster"])

    # --- series for plots ----------------------------------------------------------------------
    def health_series(self) -> np.ndarray:
        """(T+1, 10) health with NaN where the view did not know the unit (or in the future)."""
        health = self.replay.states["health"].astype(np.float32).copy()
        health[:, ~self.replay.states["active"][0]] = np.nan
        if self.view == "oracle":
            return health
        known = self.all_masks()[0].copy()
        known[self.tick + 1 :] = False
        health[~known] = np.nan
        return health

    def relayed_health(self) -> np.ndarray:
        """(T+1, 10) health of the units the view knows at each tick only through a relayed
        row: the value of the tick before, as the board and the unit tooltip draw them
        (ui.scene, RULES 5.7); NaN elsewhere (direct sight, unknown, the future, Oracle)."""
        shape = self.replay.states["health"].shape
        out = np.full(shape, np.nan, np.float32)
        if self.view == "oracle":
            return out
        relay = self.all_masks()[1].copy()
        relay[self.tick + 1 :] = False
        relay[0] = False  # no tick before the first state, so no relayed row
        before = self.replay.states["health"][:-1].astype(np.float32)
        out[1:][relay[1:]] = before[relay[1:]]
        return out

    def score_series(self) -> np.ndarray:
        score = self.replay.states["score"].astype(np.float32).copy()
        if self.view != "oracle":
            score[self.tick + 1 :] = np.nan  # scores are public, the future is not
        return score

    def damage_series(self) -> np.ndarray:
        """(T, 2) realised damage dealt per tick by each team (POV: known recipients, past only)."""
        dmg = self.replay.events["damage_realised"]
        if self.ticks == 0:
            return np.zeros((0, 2), np.float32)
        if self.view == "oracle":
            per_recipient = dmg
        else:
            # this tick's damage is observed where the recipient is seen directly after it,
            # alive (a unit that died in the tick has no row, RULES 5.2)
            known = self.all_masks()[0][1:] & ~self.replay.events["died"]
            per_recipient = dmg * known[:, None, :]
        by_source = per_recipient.sum(axis=2)
        out = np.stack([by_source[:, :5].sum(1), by_source[:, 5:].sum(1)], 1).astype(np.float32)
        if self.view != "oracle":
            out[self.tick :] = np.nan
        return out

    @property
    def ticks(self) -> int:
        return self.replay.ticks

    def pair_matrices(self) -> dict[str, np.ndarray]:
        """Whole-game (10, 10) [source, recipient] totals: damage, healing (hit points), control
        (ticks of stun and slow applied, RULES 2.3 durations)."""
        ev = self.replay.events
        control = np.zeros((C.NUM_SLOTS, C.NUM_SLOTS), np.float32)
        cls = self.replay.states["class_id"][0]
        hard = C.IS_STUN | (C.SLOW_FACTOR < 1)
        for t in range(self.ticks):
            fresh = ev["status_applied"][t] | ev["status_refreshed"][t]
            for s in np.flatnonzero((ev["lane"][t] > 0) & (ev["recipient"][t] >= 0)):
                r, lane = ev["recipient"][t][s], ev["lane"][t][s]
                channels = C.STATUS_ON_HIT[cls[s], lane - 1] & fresh[r] & hard
                control[s, r] += C.STATUS_DURATION[channels].sum()
        return {
            "damage": ev["damage_realised"].sum(axis=0),
            "healing": ev["heal_realised"].sum(axis=0),
            "control": control,
        }

    def peak_tick(self, kind: str, source: int, target: int) -> int | None:
        """The tick (state index) right after the transition with the most `kind` s -> r."""
        field = {"damage": "damage_realised", "healing": "heal_realised"}.get(kind)
        if field is None or self.ticks == 0:
            return None
        series = self.replay.events[field][:, source, target]
        return int(np.argmax(series)) + 1 if series.max() > 0 else None
