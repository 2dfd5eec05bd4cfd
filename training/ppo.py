"""The PPO half of recurrent IPPO, learner-independent of how games are collected: GAE, the
clipped PPO loss over masked agent sequences, the chunked gradient and one epoch of minibatch
steps (Schulman et al. 2016, 2017). `config` is any object with the PPO fields of
training.ippo.IPPOConfig (clip_eps, vf_coef, ent_coef, minibatches, grad_chunk).
"""

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax

from engine.types import Obs
from policies import networks as nets


def gae(rewards, values, dones, last_value, gamma: float, lam: float):
    """Generalised advantage estimation (Schulman et al. 2016), backwards over time.

    rewards, values, dones: (T, ...) with dones[t] true when the game ended on tick t (no
    bootstrap across it); last_value (...): V of the observation after tick T-1.
    Returns (advantages, returns = advantages + values), both (T, ...) float32.
    """

    def back(carry, x):
        adv_next, value_next = carry
        reward, value, done = x
        alive = 1.0 - done.astype(jnp.float32)
        delta = reward + gamma * value_next * alive - value
        adv = delta + gamma * lam * alive * adv_next
        return (adv, value), adv

    start = (jnp.zeros_like(last_value), last_value)
    _, adv = jax.lax.scan(back, start, (rewards, values, dones), reverse=True)
    return adv, adv + values


def masked_mean(x, mask):
    """Mean of x over entries where mask is true (0 when none)."""
    m = mask.astype(jnp.float32)
    return jnp.sum(x * m) / jnp.maximum(jnp.sum(m), 1.0)


def ppo_loss(logp, old_logp, adv, value, old_value, ret, ent, mask, clip_eps, vf_coef, ent_coef):
    """Clipped PPO objective (Schulman et al. 2017) with a clipped value loss, over `mask`.

    All inputs share one shape; adv is used as given (normalise it before). Returns
    (total, dict of policy, value, entropy, approx_kl, clip_frac).
    """
    ratio = jnp.exp(logp - old_logp)
    clipped = jnp.clip(ratio, 1.0 - clip_eps, 1.0 + clip_eps)
    policy = masked_mean(-jnp.minimum(ratio * adv, clipped * adv), mask)
    value_clipped = old_value + jnp.clip(value - old_value, -clip_eps, clip_eps)
    value_err = jnp.maximum(jnp.square(value - ret), jnp.square(value_clipped - ret))
    value_loss = 0.5 * masked_mean(value_err, mask)
    entropy = masked_mean(ent, mask)
    total = policy + vf_coef * value_loss - ent_coef * entropy
    return total, {
        "policy": policy,
        "value": value_loss,
        "entropy": entropy,
        "approx_kl": masked_mean((ratio - 1.0) - (logp - old_logp), mask),
        "clip_frac": masked_mean((jnp.abs(ratio - 1.0) > clip_eps).astype(jnp.float32), mask),
    }


def psum(x, axis_name: str | None):
    """Sum of x over the devices of `axis_name` (x itself when None)."""
    return x if axis_name is None else jax.lax.psum(x, axis_name)


def normalise(adv, mask, axis_name: str | None = None):
    """Advantages standardised over the masked entries (of every device of `axis_name`)."""
    if axis_name is None:
        mean = masked_mean(adv, mask)
        std = jnp.sqrt(masked_mean(jnp.square(adv - mean), mask))
        return (adv - mean) / (std + 1e-8)
    m = mask.astype(jnp.float32)
    count = jnp.maximum(psum(jnp.sum(m), axis_name), 1.0)
    mean = psum(jnp.sum(adv * m), axis_name) / count
    std = jnp.sqrt(psum(jnp.sum(jnp.square(adv - mean) * m), axis_name) / count)
    return (adv - mean) / (std + 1e-8)


class Batch(NamedTuple):
    """Learner agent sequences: leading axes (T, n agents)."""

    obs: Obs
    reset: jax.Array
    move: jax.Array
    pair: jax.Array
    logp: jax.Array
    value: jax.Array
    adv: jax.Array
    ret: jax.Array
    mask: jax.Array


def loss_fn(params, network: nets.ActorCritic, config, hidden0, batch: Batch):
    """Replay the network over the sequences from hidden0 (n, H) and return the PPO loss
    (total, dict of terms), advantages normalised over the batch."""
    batch = batch._replace(adv=normalise(batch.adv, batch.mask))
    return chunk_loss(params, network, config, hidden0, batch, 1.0)


def chunk_loss(params, network, config, hidden0, batch: Batch, share):
    """`share` x the PPO loss (total, dict of terms) of sequences whose advantages are already
    normalised. With share = (chunk's masked entries) / (minibatch's), the shares of the
    chunks of a minibatch sum to its loss, because every term is a masked mean.

    The whole (T, n) batch goes through the network in sequence mode: only the GRU's
    recurrence is a loop over T, everything else is one batch (policies.networks.ActorCritic).
    """
    _, heads = network.apply(params, hidden0, batch.obs, batch.reset)
    return shared_loss(heads, heads.value, batch, config, share)


def shared_loss(heads, value, batch: Batch, config, share):
    """`share` x the PPO loss (total, dict of terms) of the policy `heads` and the values
    `value` (T, n) float32 (the actor-critic's own head, or MAPPO's centralised critic)."""
    total, terms = ppo_loss(
        nets.joint_log_prob(heads, batch.move, batch.pair),
        batch.logp,
        batch.adv,
        value,
        batch.value,
        batch.ret,
        nets.joint_entropy(heads),
        batch.mask,
        config.clip_eps,
        config.vf_coef,
        config.ent_coef,
    )
    return total * share, {k: v * share for k, v in terms.items()}


def num_chunks(sequences: int, most: int) -> int:
    """The fewest chunks, a divisor of `sequences`, with at most `most` sequences each."""
    return next(k for k in range(1, sequences + 1) if sequences % k == 0 and sequences // k <= most)


def swap_leading_axes(tree):
    """Swap the two leading axes of every leaf: (n, T, ...) <-> (T, n, ...)."""
    return jax.tree.map(lambda x: jnp.swapaxes(x, 0, 1), tree)


def make_grad(config, network, axis_name: str | None = None, loss=None):
    """grad(params, hidden0 (n, H), batch (n, T), agent-major) -> ((loss, terms), grads) of
    `loss_fn`, summed over chunks of at most config.grad_chunk agent sequences (`lax.scan`).

    Why agent-major: shuffling sequences and cutting chunks are then reshapes of the leading
    axis, and only one chunk at a time (small enough for the CPU's caches) is turned time-major
    for the network; time-major batches made the epochs copy the whole batch several times.
    With `axis_name`, each device holds part of the minibatch: advantages are standardised
    and the loss weighted over all devices' sequences, and the result is summed across them.
    `loss`: another learner's chunk loss with chunk_loss's signature (training.mappo).
    """
    loss = functools.partial(loss or chunk_loss, network=network, config=config)

    def chunk_grad(params, hidden0, seq, share):
        value_and_grad = jax.value_and_grad(loss, has_aux=True)
        return value_and_grad(params, hidden0=hidden0, batch=swap_leading_axes(seq), share=share)

    def grad(params, hidden0, batch: Batch):
        out = local_grad(
            params, hidden0, batch._replace(adv=normalise(batch.adv, batch.mask, axis_name))
        )
        return jax.tree.map(lambda x: psum(x, axis_name), out)

    def local_grad(params, hidden0, batch: Batch):
        k = num_chunks(hidden0.shape[0], config.grad_chunk)
        mask = batch.mask.astype(jnp.float32)
        total = jnp.maximum(psum(mask.sum(), axis_name), 1.0)
        if k == 1:
            return chunk_grad(
                params, hidden0, batch, 1.0 if axis_name is None else mask.sum() / total
            )
        parts = jax.tree.map(lambda x: x.reshape((k, -1) + x.shape[1:]), (hidden0, batch))
        shares = parts[1].mask.astype(jnp.float32).sum((1, 2)) / total

        def add(total, part):
            h0, seq, share = part
            return jax.tree.map(jnp.add, total, chunk_grad(params, h0, seq, share)), None

        first = jax.tree.map(lambda x: x[0], parts)
        shapes = jax.eval_shape(lambda: chunk_grad(params, *first, 1.0))
        zero = jax.tree.map(lambda x: jnp.zeros(x.shape, x.dtype), shapes)
        return jax.lax.scan(add, zero, (*parts, shares))[0]

    return grad


def make_epoch(config, network, tx, axis_name: str | None = None, loss=None):
    """One PPO epoch: `epoch((params, opt_state), key, hidden0, batch)` shuffles the agent
    sequences of `batch` (n, T, agent-major), cuts them into config.minibatches and takes one
    optimiser step on each; returns ((params, opt_state), losses stacked over minibatches).
    `loss`: as in make_grad."""
    grad_fn = make_grad(config, network, axis_name, loss)

    def minibatch_step(carry, part):
        params, opt_state = carry
        hidden0, batch = part
        (loss, aux), grads = grad_fn(params, hidden0, batch)
        updates, opt_state = tx.update(grads, opt_state, params)
        return (optax.apply_updates(params, updates), opt_state), {"total": loss, **aux}

    def epoch(carry, key, hidden0, batch: Batch):
        perm = jax.random.permutation(key, hidden0.shape[0])
        m = config.minibatches

        def split(x):  # shuffle agent sequences, then cut into m minibatches
            return jnp.take(x, perm, axis=0).reshape((m, -1) + x.shape[1:])

        return jax.lax.scan(minibatch_step, carry, jax.tree.map(split, (hidden0, batch)))

    return epoch
