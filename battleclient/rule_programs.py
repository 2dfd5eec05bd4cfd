"""One compiled engine step and observation for every scenario: horizon and score to win as data.

A scenario's Config differs from the default rules only in `horizon` (start tick + ticks
allowed) and `score_threshold` (evaluation.scenarios.scenario_config), and the engine reads
those two fields only as numbers inside traced code (engine/lifecycle.outcome, RULES 4.3;
engine/observation.context, RULES 5). So here they enter the jitted function as int32
arguments: the programs are keyed by the rest of the Config (the *rules family*), all eight
scenarios share one step and one observation, and the persistent compile cache
(controllers.configure_jax) holds one entry for them instead of one per scenario. The values
are those of `evaluation.match.jit_step(config)` (tested tick for tick).
"""

import dataclasses
import functools

import jax
import numpy as np

from engine import constants as C
from engine import env as engine
from engine.observation import observe
from engine.types import Config
from evaluation import match

TRACED_FIELDS = ("horizon", "score_threshold")


def rules_family(config: Config) -> Config:
    """`config` with horizon and score to win at their defaults: the key of its programs."""
    return dataclasses.replace(config, horizon=C.HORIZON, score_threshold=C.SCORE_THRESHOLD)


def _with_numbers(family: Config, horizon, score_threshold) -> Config:
    """`family` holding traced horizon and score to win. Config's range checks work on Python
    ints and were run when the caller's Config was made, so the frozen fields are set directly."""
    rules = object.__new__(Config)
    for field in dataclasses.fields(Config):
        object.__setattr__(rules, field.name, getattr(family, field.name))
    object.__setattr__(rules, "horizon", horizon)
    object.__setattr__(rules, "score_threshold", score_threshold)
    return rules


@functools.cache
def _family_step(family: Config):
    def step(horizon, score_threshold, state, actions, fallback):
        obs, state, _, events = engine.step_env(
            _with_numbers(family, horizon, score_threshold), state, actions
        )
        return obs, state, events.replace(fallback=fallback)

    return jax.jit(step)


@functools.cache
def _family_observe(family: Config):
    def first_observation(horizon, score_threshold, state):
        return observe(_with_numbers(family, horizon, score_threshold), state)

    return jax.jit(first_observation)


def _numbers(config: Config) -> tuple:
    return np.int32(config.horizon), np.int32(config.score_threshold)


def rules_step(config: Config):
    """The step `(state, actions, fallback) -> (obs, state, events)` of `config` (the values
    of `evaluation.match.jit_step(config)`), compiled once per rules family. It is also made
    `match.jit_step(config)` for this process unless that one exists already, so host-stepped
    games of these rules (the winning line's play-out, `match.host_game`) reuse it."""
    step = functools.partial(_family_step(rules_family(config)), *_numbers(config))
    return match.STEP_CACHE.setdefault(config, step)


def rules_observe(config: Config, state):
    """The observation of `state` under `config` (engine.observation.observe, RULES 5), from
    the rules family's compiled program (no per-operation dispatch: seconds on a small CPU)."""
    return _family_observe(rules_family(config))(*_numbers(config), state)


def family_step_cache_size(config: Config) -> int:
    """How many shapes the step program of `config`'s rules family has compiled (0: none yet)."""
    return _family_step(rules_family(config))._cache_size()
