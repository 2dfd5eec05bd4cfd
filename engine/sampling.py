"""Random legal actions: the engine's uniform sampler over each head's legal values.

`random_legal_actions(key, obs.mask)` is the random policy of the README's first example, of
`mbg bench engine` and of the SMAX comparison (bench/smax_rollout.py). It draws one uniform
number per agent and head and maps it to the k-th legal value, instead of a Gumbel draw per
value: on a CPU the random bits were the cost (310 Gumbel draws a 5v5 tick with our heads;
20 us a game-tick against 3.6 us this way). `pick_legal` depends on JAX and NumPy alone, so
JaxMARL's own virtual environment imports it too and both engines pay the same for their
random policy. (The `random` System, policies/random_system.py, samples the flat action
uniformly instead: RULES A12.)
"""

import jax
import jax.numpy as jnp
import numpy as np


def pick_legal(draw: jnp.ndarray, legal: jnp.ndarray) -> jnp.ndarray:
    """The legal value of each row chosen by a uniform draw: (n,) float32 in [0, 1) and (n, k)
    bool -> (n,) int32 column.

    A draw in [j / c, (j + 1) / c) picks the (j + 1)-th legal value of a row with c legal
    values, so each has probability 1 / c; a row with no legal value yields 0. Ranks come from
    a product with a triangular 0/1 matrix, exact in float32 for k < 2**24 and cheaper on a CPU
    than a cumulative sum.
    """
    k = legal.shape[-1]
    upper = jnp.asarray(np.triu(np.ones((k, k), np.float32)))
    rank = jnp.dot(legal.astype(jnp.float32), upper, precision=jax.lax.Precision.HIGHEST)
    count = rank[:, -1]
    wanted = jnp.minimum(jnp.floor(draw * count) + 1.0, jnp.maximum(count, 1.0))
    return jnp.argmax(legal & (rank == wanted[:, None]), axis=-1).astype(jnp.int32)


def random_legal_actions(key: jax.Array, mask):
    """Each head sampled uniformly among its legal values: a PRNG key and `Masks` of one game
    (move (10, 9) bool, pair (10, 11, 2) bool) -> `Actions` (move, target, ult: (10,) int32).
    The move is drawn from `mask.move`, the (target, Ultimate) pair from `mask.pair`, so every
    action returned is legal (RULES 3). Jit- and vmap-friendly."""
    from engine.types import Actions

    slots = mask.move.shape[0]
    draw = jax.random.uniform(key, (2, slots))
    move = pick_legal(draw[0], mask.move)
    pair = pick_legal(draw[1], mask.pair.reshape(slots, -1))
    return Actions(move, pair // 2, pair % 2)


def random_play(env, keys: jax.Array, ticks: int):
    """`ticks` ticks of random legal actions (`random_legal_actions`) in a batch of games, from
    reset, with the engine's own auto-reset of finished games: keys (games, 2) uint32 ->
    (Observation, State) of the batch after the last tick. The first key also seeds the
    per-tick draws. Traceable: jit it, or call it inside a jitted function or shard_map."""
    batch = keys.shape[0]
    start = jax.vmap(env.reset)(keys)

    def tick(carry, key):
        obs, state = carry
        k_act, k_step = jax.random.split(key)
        actions = jax.vmap(random_legal_actions)(jax.random.split(k_act, batch), obs.mask)
        obs, state, *_ = jax.vmap(env.step)(jax.random.split(k_step, batch), state, actions)
        return (obs, state), None

    return jax.lax.scan(tick, start, jax.random.split(keys[0], ticks))[0]
