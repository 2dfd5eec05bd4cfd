"""Recurrent actor-critic for one agent, parameters shared by every agent (flax linen).

One forward pass handles N agents at once (N = games x 10 observers, flattened); the class id
is part of the input, so one set of parameters plays every class. Layout per agent:

    unit rows (10, 33 scaled + visible + relayed + public 3 + previous action one-hot 22)
        -> shared MLP -> unit embeddings (10, E)
    pooled own-team rows (mean, max), pooled enemy rows (mean, max), own row,
    obstacles (32, 8) -> Dense -> max pool, context (12, scaled), class one-hot (6)
        -> Dense -> GRU (H) -> h
    move head:  Dense(h) -> 9 logits, masked by Masks.move
    pair head:  joint (target, ult) over 11 x 2 = 22 logits, masked by Masks.pair: "no target"
                from h alone, target k from a small MLP over (h, embedding of unit row k) (a pointer
                head: a target's logit depends on what the agent knows about that unit)
    critic:     MLP(h) -> value

Why two heads and not the flat 198: the engine's flat mask is exactly move x pair
(engine.legality.masks), so the factorised policy pi(move) pi(target, ult) loses no legal
joint action, while 9 + 22 logits are cheaper and easier to learn than 198.

Masked entries get the logit `MASKED` (a large finite negative, not -inf, so entropies and
log-probabilities never produce 0 * inf = nan); sampling uses the Gumbel-max trick restricted
to legal entries, so it can never return an illegal action whatever the logits are.
"""

import functools
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import NamedTuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np

from engine import constants as C
from engine.types import CONTEXT_FEATURES, ROW_FEATURES, Actions, Obs

MASKED = -1e9
NUM_PAIR = C.NUM_TARGETS * C.NUM_ULT  # 22 joint (target, ult) choices, index = target * 2 + ult

# Fixed input scales (divide by): map units by the map size, hit points by the largest
# max health, ticks by the longest timer of their kind. Features not listed are already 0-1.
_ROW_SCALE = {"x": 20.0, "y": 10.0, "dx": 20.0, "dy": 10.0, "distance": 20.0}
_ROW_SCALE |= {"health": 200.0, "max_health": 200.0, "cooldown": 30.0, "speed": 2.0}
_ROW_SCALE |= {f"status_{n}": 5.0 for n in C.STATUS_NAMES} | {"shield": 3.0, "ooc": 5.0}
_CONTEXT_SCALE = {"tick": 300.0, "ticks_left": 300.0, "own_score": 20.0, "opp_score": 20.0}
_CONTEXT_SCALE |= {"score_threshold": 20.0, "own_team_size": 5.0, "opp_team_size": 5.0}
_CONTEXT_SCALE |= {"own_alive": 5.0, "opp_alive": 5.0, "own_wave_clock": 5.0}
_CONTEXT_SCALE |= {"opp_wave_clock": 5.0}
# Obstacle columns (RULES 1.2): type, x, y, radius, width, height, theta, active.
OBSTACLE_SCALE = np.array([2.0, 20.0, 10.0, 5.0, 20.0, 10.0, np.pi, 1.0], np.float32)
ROW_SCALE = np.array([_ROW_SCALE.get(n, 1.0) for n in ROW_FEATURES], np.float32)
CONTEXT_SCALE = np.array([_CONTEXT_SCALE.get(n, 1.0) for n in CONTEXT_FEATURES], np.float32)


# Network kinds by (recurrent, value_head): the name a policy file's metadata carries
# (policies.checkpoints), so a loader builds the network that was trained.
KINDS = {
    (True, True): "gru_actor_critic",  # recurrent IPPO
    (False, True): "ff_actor_critic",  # feed-forward IPPO
    (True, False): "gru_actor",  # recurrent MAPPO's actor (its critic is training-only)
    (False, False): "ff_actor",  # feed-forward MAPPO's actor
}


@dataclass(frozen=True)
class NetworkConfig:
    """Sizes of the actor-critic: unit embedding E, torso width, GRU hidden size H.

    recurrent=False puts a Dense(H) + relu where the GRU is: the same inputs and heads, no
    memory (the hidden state passes through unchanged). value_head=False leaves the critic out
    (MAPPO's actors; their values come from a centralised critic in training.mappo).
    layer_norm: LayerNorm before the ReLU of the torso and of the critic's hidden layer (the
    Q learners' choice, after Gallici et al. 2024, "Simplifying Deep Temporal Difference
    Learning"; off, the parameters are exactly those of the released IPPO policy).
    """

    embed: int = 32
    torso: int = 64
    hidden: int = 64
    recurrent: bool = True
    value_head: bool = True
    layer_norm: bool = False

    @property
    def kind(self) -> str:
        return KINDS[(self.recurrent, self.value_head)]

    def to_dict(self) -> dict:
        """The sizes only (the flags are the kind, see KINDS)."""
        out = asdict(self)
        del out["recurrent"], out["value_head"]
        return out

    @classmethod
    def from_kind(cls, kind: str, **sizes: int) -> "NetworkConfig":
        """The config of a kind name and sizes. Raises ValueError for an unknown kind."""
        flags = {name: key for key, name in KINDS.items()}
        if kind not in flags:
            raise ValueError(f"network kind {kind!r}: not one of {sorted(flags)}")
        recurrent, value_head = flags[kind]
        return cls(**sizes, recurrent=recurrent, value_head=value_head)


class Heads(NamedTuple):
    """Network outputs for N agents: masked logits move (N, 9), pair (N, 22); value (N,)
    (zeros without a value head)."""

    move: jax.Array
    pair: jax.Array
    value: jax.Array


def _dense(features: int, scale: float = np.sqrt(2.0), name: str | None = None) -> nn.Dense:
    return nn.Dense(features, kernel_init=nn.initializers.orthogonal(scale), name=name)


def unit_inputs(obs: Obs) -> jax.Array:
    """Per-row input features (N, 10, 60) float32 from an Obs with leading axis N."""
    prev = obs.prev_action  # -1 (hidden / none) one-hots to all zeros
    return jnp.concatenate(
        [
            obs.units / ROW_SCALE,
            obs.visible[..., None].astype(jnp.float32),
            obs.relayed[..., None].astype(jnp.float32),
            obs.public,
            jax.nn.one_hot(prev[..., 0], C.NUM_MOVES),
            jax.nn.one_hot(prev[..., 1], C.NUM_TARGETS),
            jax.nn.one_hot(prev[..., 2], C.NUM_ULT),
        ],
        axis=-1,
    )


def _pool(x: jax.Array, present: jax.Array) -> jax.Array:
    """Masked mean and max over rows: x (N, k, E), present (N, k) -> (N, 2E)."""
    w = present[..., None].astype(x.dtype)
    mean = jnp.sum(x * w, axis=1) / jnp.maximum(jnp.sum(w, axis=1), 1.0)
    peak = jnp.max(jnp.where(w > 0, x, -1e3), axis=1)
    peak = jnp.where(jnp.any(present, axis=1)[:, None], peak, 0.0)
    return jnp.concatenate([mean, peak], axis=-1)


# flax.linen.GRUCell's defaults, so that fresh parameters are drawn exactly as before.
_GRU_INPUT_INIT = nn.initializers.lecun_normal()
_GRU_RECURRENT_INIT = nn.initializers.orthogonal()


class _Weights(nn.Module):
    """The parameters of one Dense layer (kernel (fan_in, features), optional bias), for use
    inside `lax.scan`, where flax modules cannot be called."""

    fan_in: int
    features: int
    use_bias: bool
    kernel_init: Callable

    @nn.compact
    def __call__(self):
        kernel = self.param("kernel", self.kernel_init, (self.fan_in, self.features))
        if not self.use_bias:
            return kernel, None
        return kernel, self.param("bias", nn.initializers.zeros_init(), (self.features,))


class SequenceGRU(nn.Module):
    """flax's GRUCell (same parameters `ir iz in hr hz hn`, same equations) run over a whole
    sequence: the input projections are one matmul over all T ticks, only the recurrent part
    is scanned. The hidden state is zeroed before tick t where reset[t] is true."""

    features: int

    @nn.compact
    def __call__(self, hidden: jax.Array, x: jax.Array, reset: jax.Array):
        """hidden (N, H), x (T, N, F), reset (T, N) bool -> (hidden (N, H), outputs (T, N, H))."""
        dense_i = functools.partial(nn.Dense, self.features, kernel_init=_GRU_INPUT_INIT)
        xr, xz, xn = (dense_i(name=k)(x) for k in ("ir", "iz", "in"))
        fan_in = hidden.shape[-1]
        hr, hz, hn = (
            _Weights(fan_in, self.features, k == "hn", _GRU_RECURRENT_INIT, name=k)()
            for k in ("hr", "hz", "hn")
        )

        def tick(h, inputs):
            r_in, z_in, n_in, new = inputs
            h = jnp.where(new[:, None], 0.0, h)
            r = nn.sigmoid(r_in + h @ hr[0])
            z = nn.sigmoid(z_in + h @ hz[0])
            n = jnp.tanh(n_in + r * (h @ hn[0] + hn[1]))
            h = (1.0 - z) * n + z * h
            return h, h

        return jax.lax.scan(tick, hidden, (xr, xz, xn, reset))


class ActorCritic(nn.Module):
    """The recurrent actor-critic for N agents (see the module docstring), one tick or a
    whole sequence of ticks per call."""

    config: NetworkConfig

    @nn.compact
    def __call__(self, hidden: jax.Array, obs: Obs, reset: jax.Array):
        """One tick: hidden (N, H), obs with leading axis N, reset (N,) bool (a new game starts:
        the hidden state is zeroed first); returns (hidden (N, H), Heads with leading N).

        A sequence: obs with leading axes (T, N), reset (T, N); returns (hidden after the last
        tick (N, H), Heads with leading (T, N)), equal to T one-tick calls in turn. Everything
        but the GRU's recurrence runs as one batch over all T * N agent-ticks (why: PPO replays
        whole sequences, and one large matmul is far cheaper than T small ones, forward and
        backward)."""
        cfg = self.config
        norm = (lambda x: nn.LayerNorm()(x)) if cfg.layer_norm else (lambda x: x)
        one_tick = reset.ndim == 1
        if one_tick:
            obs, reset = jax.tree.map(lambda x: x[None], (obs, reset))
        t, n = reset.shape
        obs = jax.tree.map(lambda x: x.reshape((t * n,) + x.shape[2:]), obs)
        # Submodules are auto-named in creation order (Dense_0, Dense_1, ...): these steps
        # create them in the order of the released parameters, so checkpoints still load.
        units, x = _torso_inputs(cfg, obs)
        x = nn.relu(norm(_dense(cfg.torso)(x)))
        if cfg.recurrent:
            gru = SequenceGRU(cfg.hidden, name="GRUCell_0")  # the name of released parameters
            hidden, h = gru(hidden, x.reshape(t, n, -1), reset)
            h = h.reshape(t * n, -1)
        else:  # named, so the auto-numbered Dense layers keep the recurrent network's names
            h = nn.relu(_dense(cfg.hidden, name="FeedForward_0")(x))
        heads = _heads(cfg, norm, h, units, obs)
        shape = (n,) if one_tick else (t, n)
        return hidden, jax.tree.map(lambda x: x.reshape(shape + x.shape[1:]), heads)


def _torso_inputs(cfg: NetworkConfig, obs: Obs) -> tuple[jax.Array, jax.Array]:
    """Unit embeddings (M, 10, E) and the torso's input (M, F) of M agent-ticks: the own row,
    pooled own-team and enemy rows, pooled obstacles, context and class (module docstring).
    Called inside `ActorCritic.__call__` (its Dense layers are the module's)."""
    units = nn.relu(_dense(cfg.embed)(unit_inputs(obs)))
    units = nn.relu(_dense(cfg.embed)(units))  # (M, 10, E)
    present = obs.public[..., 0] > 0  # the unit exists in this game
    own = units[:, : C.TEAM_SIZE]
    enemy = units[:, C.TEAM_SIZE :]
    # The observer's own row, as a one-hot sum: the gradient of a gather is a scatter,
    # which is slow on CPU.
    pick = jax.nn.one_hot(obs.self_index, C.NUM_SLOTS, dtype=units.dtype)
    me = jnp.einsum("nk,nke->ne", pick, units)
    blocks = nn.relu(_dense(cfg.embed // 2)(obs.obstacles / OBSTACLE_SCALE))
    active = obs.obstacles[..., C.OBS_ACTIVE] > 0
    walls = jnp.max(jnp.where(active[..., None], blocks, 0.0), axis=1)
    x = jnp.concatenate(
        [
            me,
            _pool(own, present[:, : C.TEAM_SIZE]),
            _pool(enemy, present[:, C.TEAM_SIZE :]),
            walls,
            obs.context / CONTEXT_SCALE,
            jax.nn.one_hot(obs.class_id, C.NUM_CLASSES),
        ],
        axis=-1,
    )
    return units, x


def _heads(cfg: NetworkConfig, norm, h: jax.Array, units: jax.Array, obs: Obs) -> Heads:
    """The move, pair and value heads of M agent-ticks from h (M, H) and the unit embeddings
    (M, 10, E), logits masked by obs.mask. Called inside `ActorCritic.__call__`."""
    m = h.shape[0]
    move = _dense(C.NUM_MOVES, 0.01)(h)
    # Pointer head: Dense(concat(h, unit_k)) written as Dense(h) + Dense(unit_k), so the
    # h projection is computed once per agent instead of once per row.
    point = nn.relu(_dense(cfg.embed)(units) + _dense(cfg.embed)(h)[:, None, :])
    pair_rows = _dense(C.NUM_ULT, 0.01)(point)  # (M, 10, 2): targets 1-10
    pair_none = _dense(C.NUM_ULT, 0.01)(h)[:, None, :]  # target 0 (none)
    pair = jnp.concatenate([pair_none, pair_rows], axis=1).reshape(m, NUM_PAIR)
    if cfg.value_head:
        value = _dense(1, 1.0)(nn.relu(norm(_dense(cfg.torso)(h))))[:, 0]
    else:
        value = jnp.zeros(m, jnp.float32)
    return Heads(
        move=masked_logits(move, obs.mask.move),
        pair=masked_logits(pair, obs.mask.pair.reshape(m, NUM_PAIR)),
        value=value,
    )


def masked_logits(logits: jax.Array, mask: jax.Array) -> jax.Array:
    """Illegal entries -> MASKED (finite), so softmax gives them probability exactly 0."""
    return jnp.where(mask, logits, MASKED)


def sample_masked(key: jax.Array, logits: jax.Array, mask: jax.Array) -> jax.Array:
    """Sample from softmax(logits) restricted to `mask` (Gumbel-max), over the last axis.

    Always returns a legal index when a row has one (the engine's masks always allow index 0,
    the no-op); a row with no legal entry returns 0. int32, shape logits.shape[:-1].
    """
    gumbel = jax.random.gumbel(key, logits.shape, logits.dtype)
    return jnp.argmax(jnp.where(mask, logits + gumbel, -jnp.inf), axis=-1).astype(jnp.int32)


def greedy_masked(values: jax.Array, mask: jax.Array) -> jax.Array:
    """The legal argmax over the last axis, int32: illegal entries never win whatever the
    values (even below MASKED); a row with no legal entry returns 0."""
    return jnp.argmax(jnp.where(mask, values, -jnp.inf), axis=-1).astype(jnp.int32)


def log_prob(logits: jax.Array, action: jax.Array) -> jax.Array:
    """log pi(action) under masked logits (..., K); action (...) int."""
    logp = jax.nn.log_softmax(logits, axis=-1)
    # A one-hot sum rather than a gather: its gradient needs no scatter (slow on CPU).
    return jnp.sum(logp * jax.nn.one_hot(action, logits.shape[-1], dtype=logp.dtype), axis=-1)


def entropy(logits: jax.Array) -> jax.Array:
    """Entropy (nats) of the masked categorical; masked entries contribute exactly 0."""
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.sum(jnp.exp(logp) * logp, axis=-1)


def sample_actions(key: jax.Array, heads: Heads, obs: Obs) -> tuple[jax.Array, jax.Array]:
    """Sample (move (N,), pair (N,)) legal under obs.mask; pair = target * 2 + ult."""
    k_move, k_pair = jax.random.split(key)
    n = heads.move.shape[0]
    move = sample_masked(k_move, heads.move, obs.mask.move)
    pair = sample_masked(k_pair, heads.pair, obs.mask.pair.reshape(n, NUM_PAIR))
    return move, pair


def joint_log_prob(heads: Heads, move: jax.Array, pair: jax.Array) -> jax.Array:
    """log pi(move) + log pi(target, ult), (N,)."""
    return log_prob(heads.move, move) + log_prob(heads.pair, pair)


def joint_entropy(heads: Heads) -> jax.Array:
    """Entropy of the factorised policy: H(move) + H(target, ult), (N,)."""
    return entropy(heads.move) + entropy(heads.pair)


def to_actions(move: jax.Array, pair: jax.Array) -> Actions:
    """Head indices -> engine Actions (int32, same shape)."""
    return Actions(
        move=move.astype(jnp.int32),
        target=(pair // C.NUM_ULT).astype(jnp.int32),
        ult=(pair % C.NUM_ULT).astype(jnp.int32),
    )


def flatten_agents(tree, lead: int = 2):
    """Merge the first `lead` axes of every leaf (e.g. games x observers -> N)."""
    return jax.tree.map(lambda x: x.reshape((-1,) + x.shape[lead:]), tree)


def initial_hidden(config: NetworkConfig, n: int) -> jax.Array:
    """Zero GRU state (n, H) float32."""
    return jnp.zeros((n, config.hidden), jnp.float32)


def init_params(config: NetworkConfig, key: jax.Array, obs: Obs) -> dict:
    """Parameters for `config`, initialised from one example Obs (leading axis N)."""
    n = obs.class_id.shape[0]
    return ActorCritic(config).init(key, initial_hidden(config, n), obs, jnp.zeros(n, bool))
