"""The curriculum runner: which stage a run trains in, when it advances, and which side of an
uneven roster learns (seed 001's `team_change`), for any learner that draws its games from an
`engine.types.Pool` it carries as data.

A stage (`Stage` here: name, map ids, rosters, score to win) comes from an engine.curriculum
stage (`from_engine_stage`: its maps, its team sizes as mirrored rosters, its threshold), from
the built-in `engine.curriculum.CURRICULUM` over maps 0-11 (1v1 up to 5v5, the maps' own team
sizes), from a stages file (`engine.curriculum.load_curriculum`) or, without a curriculum, from
the learner's own maps and rosters (one stage that never advances). No stage may draw a
validation, test or scenario map (RULES_BRIEF A5): `Stage` refuses them.

A stage advances (`AdvanceRule`) when the learner's win rate against the stage's opponents
(every game not against itself) over its latest `games` finished games reaches `win_rate`, or
when it has trained `budget` env-steps in the stage; the last stage never advances. The runner
sees results once per chunk of updates, so "the latest games" are those of the fewest latest
chunks that hold at least `games` games (the window keeps WINDOW_CHUNKS chunks).

Switching stage swaps the pool: games in flight finish under the new stage's score threshold
and every new game is drawn from the new stage (a game never changes map or roster mid-way).
A stage with another score threshold needs its own compiled step (a static engine Config field).

`CurriculumState` is arrays only, so the learner's checkpoint holds it and a resumed run
continues mid-stage exactly.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine import curriculum as engine_curriculum
from engine.maps import make_pool
from engine.types import Pool
from training import common

WINDOW_CHUNKS = 64


@dataclass(frozen=True)
class Stage:
    """One training stage: maps (ids), rosters ("MW/MW", ...) and the points that win a game.
    Raises ValueError when a map is a validation, test or scenario map."""

    name: str
    map_ids: tuple[int, ...]
    rosters: tuple[str, ...]
    score_threshold: int

    def __post_init__(self):
        common.check_training_maps(list(self.map_ids))
        if not self.rosters:
            raise ValueError(f"stage {self.name!r}: rosters: needs at least one roster")
        if self.score_threshold < 1:
            raise ValueError(f"stage {self.name!r}: score_threshold must be >= 1")


def from_engine_stage(stage: engine_curriculum.Stage) -> Stage:
    """A runner stage from an engine.curriculum stage (mirrored rosters of its team sizes)."""
    rosters = tuple(engine_curriculum.stage_rosters(stage))
    return Stage(stage.name, tuple(stage.map_ids), rosters, stage.score_threshold)


def load_stages(curriculum: str, maps: Sequence, rosters: Sequence, score: int):
    """The stages of a run: "" (one stage of `maps`, `rosters`, `score`), "builtin"
    (engine.curriculum.CURRICULUM) or the path of a stages file. Raises ValueError."""
    if curriculum == "":
        ids = common.check_training_maps(list(maps))
        return (Stage("all", tuple(ids), tuple(rosters), score),)
    if curriculum == "builtin":
        stages = engine_curriculum.CURRICULUM
    else:
        stages = engine_curriculum.load_curriculum(curriculum)
    return tuple(from_engine_stage(s) for s in stages)


@dataclass(frozen=True)
class AdvanceRule:
    """When a stage ends: win rate >= `win_rate` over the latest `games` games (a win rate
    above 1 never triggers), or `budget` env-steps in the stage (0: no budget)."""

    win_rate: float = 0.7
    games: int = 200
    budget: int = 0

    def __post_init__(self):
        if self.games < 1 or self.budget < 0 or self.win_rate < 0:
            raise ValueError(f"advance rule: games >= 1, budget >= 0, win_rate >= 0: {self!r}")


class CurriculumState(NamedTuple):
    """Where a run stands (arrays, checkpointed with the learner)."""

    stage: object  # () int32 index of the current stage
    stage_start: object  # () int32 env-steps when the stage began
    window: object  # (WINDOW_CHUNKS, 2) float32 (wins, games) of the latest chunks, newest first
    side: object  # () int32 1 when the rosters are flipped (Team B's roster learns)
    since_change: object  # () int32 trainer steps since the last team change


def initial_state() -> CurriculumState:
    return CurriculumState(
        jnp.int32(0),
        jnp.int32(0),
        jnp.zeros((WINDOW_CHUNKS, 2), jnp.float32),
        jnp.int32(0),
        jnp.int32(0),
    )


def window_win_rate(window: np.ndarray, games: int) -> float | None:
    """Win rate over the fewest latest chunks holding >= `games` games (None if too few)."""
    totals = np.cumsum(np.asarray(window, np.float64), axis=0)
    enough = np.flatnonzero(totals[:, 1] >= games)
    if not len(enough):
        return None
    wins, played = totals[enough[0]]
    return float(wins / played)


def flip_rosters(pool: Pool) -> Pool:
    """The pool with each roster's teams exchanged (Team A plays what Team B did)."""
    half = C.TEAM_SIZE
    rosters = jnp.concatenate([pool.rosters[:, half:], pool.rosters[:, :half]], axis=1)
    return pool.replace(rosters=rosters)


class CurriculumRunner:
    """Stages, the advance rule and team_change (trainer steps; 0 never flips)."""

    def __init__(self, stages, rule: AdvanceRule, team_change: int = 0, p_east: float = 0.5):
        if not stages:
            raise ValueError("curriculum: needs at least one stage")
        self.stages, self.rule, self.team_change = tuple(stages), rule, team_change
        self._pools = [make_pool(list(s.map_ids), list(s.rosters), p_east) for s in self.stages]

    def stage(self, state: CurriculumState) -> Stage:
        return self.stages[int(state.stage)]

    def pool(self, state: CurriculumState) -> Pool:
        """The pool new games are drawn from now (flipped rosters when side is 1)."""
        pool = self._pools[int(state.stage)]
        return flip_rosters(pool) if int(state.side) else pool

    def after_chunk(self, state, wins: float, games: float, env_steps: int, trainer_steps: int):
        """The state after a chunk with `games` finished games against the stage's opponents
        (`wins` won), ending at `env_steps` after `trainer_steps` learner agent-steps in all.
        Returns (state, what changed: "" / "stage" / "side" / "stage+side")."""
        window = np.roll(np.asarray(state.window), 1, axis=0)
        window[0] = (wins, games)
        state = state._replace(window=jnp.asarray(window))
        changed = []
        stage = int(state.stage)
        if stage + 1 < len(self.stages):
            rate = window_win_rate(window, self.rule.games)
            spent = env_steps - int(state.stage_start)
            if (rate is not None and rate >= self.rule.win_rate) or (
                self.rule.budget and spent >= self.rule.budget
            ):
                state = state._replace(
                    stage=jnp.int32(stage + 1),
                    stage_start=jnp.int32(env_steps),
                    window=jnp.zeros_like(state.window),
                )
                changed.append("stage")
        # seed 001: the learning team changes every team_change trainer steps; flipping a
        # mirrored roster changes nothing, so the side is just the parity of changes so far.
        side = (trainer_steps // self.team_change) % 2 if self.team_change else 0
        if side != int(state.side):
            changed.append("side")
        since = trainer_steps % self.team_change if self.team_change else trainer_steps
        state = state._replace(side=jnp.int32(side), since_change=jnp.int32(since))
        return state, "+".join(changed)

    def scalars(self, state: CurriculumState) -> dict[str, float]:
        """Log values: the stage index and its window win rate."""
        out = {"curriculum/stage": float(state.stage), "curriculum/side": float(state.side)}
        rate = window_win_rate(np.asarray(state.window), self.rule.games)
        if rate is not None:
            out["curriculum/win_rate"] = rate
        return out
