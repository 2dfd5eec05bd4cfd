"""Compiled programs a scenario shares: the engine step and observation, the machine players.

Horizon and score to win enter the jitted functions as int32 arguments (evaluation.
rule_numbers): the programs are keyed by the rest of the Config (the *rules family*), all eight
scenarios share one step and one observation, and the persistent compile cache
(controllers.configure_jax) holds one entry for them instead of one per scenario. The values
are those of `evaluation.match.jit_step(config)` (tested tick for tick).

A scripted bot's act is compiled for its static tuple of slots (policies.scripted.
scripted_system), and the slots a playtest's machines hold change with the roster and the
slots the person takes.
`shared_machines` gives each machine spec the System of a tuple already built in this process
that covers its slots (the lobby's warm-up game registers its own: `remember_machines`), else
the one over all ten slots, so one compile serves every scenario. A bot decides per agent
(policies/scripted.py), so the slots it owns play as before; merge_actions takes only those.
"""

import dataclasses
import functools
import threading

import jax
import numpy as np

from engine import constants as C
from engine import env as engine
from engine.observation import observe
from engine.types import Config
from evaluation import match
from evaluation.rule_numbers import numbers, rules_family, with_numbers
from policies.slotspec import resolve_slots
from policies.system import Lineup

PER_AGENT_KINDS = ("scripted",)  # Systems whose answer for a slot ignores which others they hold


@functools.cache
def _family_step(family: Config):
    def step(horizon, score_threshold, state, actions, fallback):
        obs, state, _, events = engine.step_env(
            with_numbers(family, horizon, score_threshold), state, actions
        )
        return obs, state, events.replace(fallback=fallback)

    return jax.jit(step)


@functools.cache
def _family_observe(family: Config):
    def first_observation(horizon, score_threshold, state):
        return observe(with_numbers(family, horizon, score_threshold), state)

    return jax.jit(first_observation)


def rules_step(config: Config):
    """The step `(state, actions, fallback) -> (obs, state, events)` of `config` (the values
    of `evaluation.match.jit_step(config)`), compiled once per rules family. It is also made
    `match.jit_step(config)` for this process unless that one exists already, so host-stepped
    games of these rules (the winning line's play-out, `match.host_game`) reuse it."""
    step = functools.partial(_family_step(rules_family(config)), *numbers(config))
    return match.STEP_CACHE.setdefault(config, step)


def rules_observe(config: Config, state):
    """The observation of `state` under `config` (engine.observation.observe, RULES 5), from
    the rules family's compiled program (no per-operation dispatch: seconds on a small CPU)."""
    return _family_observe(rules_family(config))(*numbers(config), state)


_BUILT: dict = {}  # machine spec -> the slot tuples its Systems were built for, newest first
_BUILT_LOCK = threading.Lock()


def _machines(lineup: Lineup):
    """(index, spec, slots) of each System of `lineup` of a PER_AGENT_KINDS kind (a checkpoint
    or random System keeps the slots it was built for: its answers may depend on them)."""
    for i, (system, owned) in enumerate(zip(lineup.systems, lineup.owners, strict=True)):
        slots = tuple(int(s) for s in np.flatnonzero(owned))
        spec = lineup.specs[slots[0]] if slots else ""
        if not system.host and spec.partition(":")[0].strip() in PER_AGENT_KINDS:
            yield i, spec, slots


def remember_machines(lineup: Lineup) -> None:
    """Note the slot tuples `lineup`'s machine Systems were built for (a game's lineup from
    `resolve_slots`, whose tuple is the slots owned), for `shared_machines` to reuse."""
    with _BUILT_LOCK:
        for _, spec, slots in _machines(lineup):
            tuples = _BUILT.setdefault(spec, [])
            if slots not in tuples:
                tuples.insert(0, slots)


def shared_machines(lineup: Lineup) -> Lineup:
    """`lineup` with each machine System swapped for the System of its spec over a slot tuple
    already built (`remember_machines`) that holds all its slots, else over all ten slots;
    owners and specs kept. Raises what `resolve_slots` raises."""
    systems = list(lineup.systems)
    with _BUILT_LOCK:
        for i, spec, slots in _machines(lineup):
            known = [t for t in _BUILT.get(spec, []) if set(slots) <= set(t)]
            chosen = known[0] if known else tuple(range(C.NUM_SLOTS))
            specs = [spec if s in chosen else "" for s in range(C.NUM_SLOTS)]
            systems[i] = resolve_slots(specs).systems[0]
            if not known:
                _BUILT.setdefault(spec, []).append(chosen)
    return dataclasses.replace(lineup, systems=tuple(systems))
