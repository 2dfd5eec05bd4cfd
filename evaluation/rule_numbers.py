"""Horizon and score to win as traced numbers: one compiled engine program for many scenarios.

A scenario's Config differs from the default rules only in `horizon` (start tick + ticks
allowed) and `score_threshold` (evaluation.scenarios.scenario_config), and the engine reads
those two fields only as numbers inside traced code (engine/lifecycle.outcome, RULES 4.3;
engine/observation.context, RULES 5). A program keyed by the rest of the Config (the *rules
family*) that takes the two as int32 arguments therefore serves every scenario of the family
(the BattleClient's battleclient/rule_programs.py and `mbg scenarios run`'s
evaluation/scenario_batch.py).
"""

import dataclasses

import numpy as np

from engine import constants as C
from engine.types import Config


def rules_family(config: Config) -> Config:
    """`config` with horizon and score to win at their defaults: the key of its programs."""
    return dataclasses.replace(config, horizon=C.HORIZON, score_threshold=C.SCORE_THRESHOLD)


def with_numbers(family: Config, horizon, score_threshold) -> Config:
    """`family` holding traced horizon and score to win (int32 scalars, under jit and vmap).

    Config's range checks work on Python ints and were run when the caller's Config was made,
    so the frozen fields are set directly."""
    rules = object.__new__(Config)
    for field in dataclasses.fields(Config):
        object.__setattr__(rules, field.name, getattr(family, field.name))
    object.__setattr__(rules, "horizon", horizon)
    object.__setattr__(rules, "score_threshold", score_threshold)
    return rules


def numbers(config: Config) -> tuple:
    """(horizon, score to win) of `config` as np.int32, the arguments `with_numbers` takes."""
    return np.int32(config.horizon), np.int32(config.score_threshold)
