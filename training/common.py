"""Pieces every learner shares: shaped rewards from Events, opponent groups and config files
(the host loop of a run is in training.runs).

Shaped rewards live only here, in training code (RULES_BRIEF A13): the engine's reward stays the
sparse outcome, and nothing here touches the score or a rating.
"""

import dataclasses
import json
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine import maps as map_files
from engine.types import Actions, Events, Obs
from policies import networks as nets

# --- Shaped rewards ---------------------------------------------------------------------------
# Each term is per slot, (10,) float32, from one tick's Events; a learner's reward is
# sum_k weight_k * term_k with the weights in its config (signs included).
SHAPING_TERMS = ("outcome", "score", "dealt", "taken", "healed", "kills", "deaths")
_TEAM = np.asarray(C.TEAM_OF_SLOT)
ENEMY = _TEAM[:, None] != _TEAM[None, :]  # (10, 10) [source, recipient] on opposite teams


def reward_terms(events: Events, reward: jax.Array) -> jax.Array:
    """The shaping terms of one tick, (7, 10) float32 in SHAPING_TERMS order.

    outcome: the engine's sparse reward (+1 / -1 / 0 on the final tick); score: own team's
    points this tick minus the opponents'; dealt / taken: realised damage to / from enemies in
    hundreds of hit points; healed: realised healing given to allies (hundreds of hit points);
    kills: enemies whose death this slot contributed damage to; deaths: 1 when this slot died.
    """
    enemy = jnp.asarray(ENEMY)
    dmg = jnp.where(enemy, events.damage_realised, 0.0)
    own = events.score_delta[_TEAM]
    opp = events.score_delta[1 - _TEAM]
    return jnp.stack(
        [
            reward,
            (own - opp).astype(jnp.float32),
            dmg.sum(axis=1) / 100.0,
            dmg.sum(axis=0) / 100.0,
            jnp.where(enemy, 0.0, events.heal_realised).sum(axis=1) / 100.0,
            jnp.sum(events.lethal & enemy, axis=1).astype(jnp.float32),
            events.died.astype(jnp.float32),
        ]
    )


# --- Config fields every learner shares -------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class GameFields:
    """The games a run trains on, first in every learner's config (engine Config fields where
    named so): map ids or splits, rosters, the chance a learner team spawns east, the score
    to win and horizon (ticks, RULES 4.3), and the opponent mix ((kind, weight), `Group`)."""

    maps: tuple = ("curriculum", "train")
    rosters: tuple = ("MWHRP/MWHRP",)
    p_east: float = 0.5
    score_threshold: int = C.SCORE_THRESHOLD
    horizon: int = C.HORIZON
    opponents: tuple = (("self", 0.5), ("scripted:brawler", 0.25), ("random", 0.25))


@dataclasses.dataclass(frozen=True)
class RewardFields:
    """The shaping weights of every learner's config: reward = sum of w_<term> * term over
    SHAPING_TERMS (signs included)."""

    w_outcome: float = 1.0
    w_score: float = 0.05
    w_dealt: float = 0.05
    w_taken: float = -0.02
    w_healed: float = 0.05
    w_kills: float = 0.05
    w_deaths: float = -0.05

    @property
    def weights(self) -> np.ndarray:
        """(7,) float32, the w_<term> fields in SHAPING_TERMS order."""
        return np.array([getattr(self, f"w_{k}") for k in SHAPING_TERMS], np.float32)


@dataclasses.dataclass(frozen=True)
class NetworkSizeFields:
    """The agent network's widths in every learner's config (policies.networks.NetworkConfig:
    unit embedding, torso, GRU hidden size; its defaults)."""

    embed: int = nets.NetworkConfig.embed
    torso: int = nets.NetworkConfig.torso
    hidden: int = nets.NetworkConfig.hidden


# --- Opponents ----------------------------------------------------------------------------------
class Group(NamedTuple):
    """Games [lo, hi) of the batch play `kind` as Team B: "self" (the current policy, learning
    on both sides), "pool" (ghost opponents, training.selfplay), "random", "scripted:NAME" or
    "checkpoint:PATH" (a released policy, a fixed System)."""

    kind: str
    lo: int
    hi: int


def opponent_groups(mix: Sequence[tuple[str, float]], num_envs: int) -> tuple[Group, ...]:
    """Split num_envs games between opponent kinds by weight (largest remainder, in order).

    The split is fixed for the run: a game keeps its opponent kind across auto-resets.
    Raises ValueError for an unknown kind, a negative weight or an empty mix.
    """
    from policies.scripted import BOTS

    kinds = [k for k, _ in mix]
    weights = np.array([float(w) for _, w in mix])
    valid = {"self", "pool", "random"} | {f"scripted:{b}" for b in BOTS}
    for kind in kinds:
        if kind not in valid and not kind.startswith("checkpoint:"):
            raise ValueError(f"opponents: unknown kind {kind!r}; use one of {sorted(valid)}")
    if not kinds or np.any(weights < 0) or weights.sum() <= 0:
        raise ValueError(f"opponents: weights must be >= 0 with a positive sum, got {mix!r}")
    share = weights / weights.sum() * num_envs
    counts = np.floor(share).astype(int)
    for i in np.argsort(-(share - counts), kind="stable")[: num_envs - counts.sum()]:
        counts[i] += 1
    groups, lo = [], 0
    for kind, count in zip(kinds, counts, strict=True):
        if count:
            groups.append(Group(kind, lo, lo + int(count)))
            lo += int(count)
    return tuple(groups)


LEARNED_KINDS = ("self", "pool")  # Team B played by the learner's own parameters


def fixed_groups(groups: Sequence[Group]) -> tuple[Group, ...]:
    """The groups whose opponent is a fixed System (rated as one Elo entrant each)."""
    return tuple(g for g in groups if g.kind not in LEARNED_KINDS)


def learner_slots(groups: Sequence[Group], num_envs: int, partners: str = "") -> np.ndarray:
    """(num_envs, 10) bool: slots the learner plays (all ten in self-play, Team A otherwise),
    less the Team A slots of frozen `partners` (a Team A slot spec, `partner_lineup`)."""
    table = np.zeros((num_envs, C.NUM_SLOTS), bool)
    table[:, : C.TEAM_SIZE] = True
    for g in groups:
        if g.kind == "self":
            table[g.lo : g.hi] = True
    lineup = partner_lineup(partners)
    if lineup is not None:
        owned = lineup.owners.any(0)
        table[:, owned] = False
    return table


def opponent_systems(groups: Sequence[Group]) -> tuple:
    """The System playing Team B in each group (None for self-play and ghost-pool games),
    built through the slot-spec registry exactly as `mbg play` would build "B*=KIND"."""
    from policies.slotspec import resolve_slots

    return tuple(
        None if g.kind in LEARNED_KINDS else resolve_slots(f"B*={g.kind}").owner_of(C.TEAM_SIZE)
        for g in groups
    )


def _fresh(system, count: int):
    """The System's initial carry, stacked for `count` games."""
    first = system.initial_carry()
    return jax.tree.map(lambda x: jnp.broadcast_to(jnp.asarray(x), (count, *jnp.shape(x))), first)


def initial_carries(groups: Sequence[Group], systems: Sequence) -> tuple:
    """Per group, the opponents' carries for its games (() for self-play)."""
    return tuple(
        () if system is None else _fresh(system, g.hi - g.lo)
        for g, system in zip(groups, systems, strict=True)
    )


def opponent_actions(groups, systems, obs: Obs, actions: Actions, carries, reset, key):
    """Replace Team B's heads in every non-self group by its System's choice.

    obs: batched Obs (num_envs, 10, ...); actions: heads (num_envs, 10); carries: per group,
    from `initial_carries`; reset (num_envs,) bool: the game is new (its carry restarts).
    Returns (actions, carries).
    """
    team_b = slice(C.TEAM_SIZE, C.NUM_SLOTS)
    out = []
    for i, (g, system) in enumerate(zip(groups, systems, strict=True)):
        if system is None:
            out.append(())
            continue
        part = jax.tree.map(lambda x, g=g: x[g.lo : g.hi], obs)
        fresh = _fresh(system, g.hi - g.lo)
        new = reset[g.lo : g.hi]
        carry = jax.tree.map(
            lambda a, b, new=new: jnp.where(new.reshape((-1,) + (1,) * (a.ndim - 1)), a, b),
            fresh,
            carries[i],
        )
        keys = jax.random.split(jax.random.fold_in(key, i), g.hi - g.lo)
        bot, carry = jax.vmap(system.act)(part, part.mask, carry, keys)
        actions = jax.tree.map(
            lambda mine, theirs, g=g: mine.at[g.lo : g.hi, team_b].set(theirs[:, team_b]),
            actions,
            bot,
        )
        out.append(carry)
    return actions, tuple(out)


# --- Frozen partners -----------------------------------------------------------------------------
def partner_lineup(spec: str):
    """The Systems of `spec`, a slot spec on Team A only ("A3-A4=scripted:tactician"), that
    play some of the learner's own slots in every game (ad hoc teamwork); None for "".
    Raises ValueError when the spec names a Team B slot or all of Team A."""
    if not spec:
        return None
    from policies.slotspec import parse_slots, resolve_slots

    slots = parse_slots(spec)
    taken = [i for i, s in enumerate(slots) if s]
    if any(i >= C.TEAM_SIZE for i in taken) or len(taken) == C.TEAM_SIZE:
        raise ValueError(f"partners {spec!r}: name some of Team A's slots A0-A4, not all")
    return resolve_slots(slots)


def partner_carries(lineup, num_envs: int) -> tuple:
    """Per partner System, its carries for all games (() without partners)."""
    return () if lineup is None else tuple(_fresh(s, num_envs) for s in lineup.systems)


def partner_actions(lineup, obs: Obs, actions: Actions, carries, reset, key):
    """Set each partner System's slots of every game to its choice (see opponent_actions for
    the arguments). Returns (actions, carries)."""
    if lineup is None:
        return actions, ()
    out = []
    for i, (system, owned) in enumerate(zip(lineup.systems, lineup.owners, strict=True)):
        fresh = _fresh(system, reset.shape[0])
        carry = jax.tree.map(
            lambda a, b: jnp.where(reset.reshape((-1,) + (1,) * (a.ndim - 1)), a, b),
            fresh,
            carries[i],
        )
        keys = jax.random.split(jax.random.fold_in(key, 1000 + i), reset.shape[0])
        chosen, carry = jax.vmap(system.act)(obs, obs.mask, carry, keys)
        mine = jnp.asarray(owned)[None]
        actions = jax.tree.map(lambda a, c, m=mine: jnp.where(m, c, a), actions, chosen)
        out.append(carry)
    return actions, tuple(out)


def check_training_maps(maps) -> list[int]:
    """Map ids of a selection, refusing validation and test maps (RULES_BRIEF A5) and scenario
    arenas (ids 900-999)."""
    ids = map_files.resolve_maps(maps)
    map_files.refuse_scenario_arenas(ids, "maps")
    held_out = [i for i in ids if map_files.split_of(i) in ("validation", "test")]
    if held_out:
        raise ValueError(f"maps: {held_out} are validation/test maps; train on curriculum/train")
    return ids


# --- Config files -------------------------------------------------------------------------------
def _plain(value):
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def config_to_dict(config) -> dict:
    """A config dataclass -> JSON-ready dict (tuples become lists)."""
    return {f.name: _plain(getattr(config, f.name)) for f in dataclasses.fields(config)}


def _tupled(value):
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value


def config_from_dict(cls, doc: dict, source: str = "<config>"):
    """Build config dataclass `cls` from a dict; unknown or mistyped fields raise ValueError
    naming the source and the field."""
    if not isinstance(doc, dict):
        raise ValueError(f"{source}: expected a table of config fields, got {type(doc).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(doc) - set(fields))
    if unknown:
        raise ValueError(f"{source}: field {unknown[0]!r} is not a {cls.__name__} field")
    values = {}
    for name, value in doc.items():
        default = getattr(cls(), name)
        value = _tupled(value)
        if isinstance(default, float) and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if type(default) is not type(value):
            raise ValueError(
                f"{source}: field {name!r}: expected {type(default).__name__}, got {value!r}"
            )
        values[name] = value
    try:
        return cls(**values)
    except (TypeError, ValueError) as error:
        raise ValueError(f"{source}: {error}") from None


def read_config_document(path: str | Path) -> dict:
    """The field values of a JSON or TOML config file, unchecked. Raises ValueError naming the
    file when it cannot be read or parsed."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        return tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: cannot read a config: {error}") from None


def load_config(cls, path: str | Path):
    """Config from a JSON or TOML file of field values (missing fields keep their defaults)."""
    return config_from_dict(cls, read_config_document(path), str(path))
