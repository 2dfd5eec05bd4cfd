"""IPPO in the purejaxrl style through the JaxMARL interface: Team A learns against a bot.

The learner knows only JaxMARL's interface (`env.agents`, `reset`, `step`, `get_avail_actions`,
`observation_space(a).shape`, `action_space(a).n`, dicts keyed by agent name), so the same code
trains on JaxMARL's SMAX with only the environment name changed:

    python examples/ippo_jaxmarl_style.py --env HeuristicEnemyTeamDeathmatch --updates 50
    .venv-smax/bin/python examples/ippo_jaxmarl_style.py --env HeuristicEnemySMAX

Parameters are shared by the agents, logits masked by the legal actions; the whole run is one
jitted `lax.scan` over updates (rollout, GAE, PPO epochs over minibatches).
"""

import argparse
import time
from collections import namedtuple

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax

Transition = namedtuple("Transition", "obs avail action log_prob value reward done")


class ActorCritic(nn.Module):
    actions: int

    @nn.compact
    def __call__(self, obs, avail):
        x = jnp.sign(obs) * jnp.log1p(jnp.abs(obs))  # symlog: one input scale for any env
        x = nn.tanh(nn.Dense(128)(nn.tanh(nn.Dense(128)(x))))
        logits = nn.Dense(self.actions, kernel_init=nn.initializers.orthogonal(0.01))(x)
        return jnp.where(avail, logits, -1e9), nn.Dense(1)(x)[..., 0]


def batchify(tree: dict, agents) -> jax.Array:  # {agent: (envs, ...)} -> (agents * envs, ...)
    return jnp.concatenate([tree[a] for a in agents])


def gae(traj: Transition, last_value, gamma=0.99, lam=0.95):
    def back(carry, t):
        advantage, next_value = carry
        delta = t.reward + gamma * next_value * (1 - t.done) - t.value
        advantage = delta + gamma * lam * (1 - t.done) * advantage
        return (advantage, t.value), advantage

    _, adv = jax.lax.scan(back, (jnp.zeros_like(last_value), last_value), traj, reverse=True)
    return adv, adv + traj.value


def ppo_loss(params, net, batch: Transition, adv, target, clip=0.2, ent=0.01, vf=0.5):
    logits, value = net.apply(params, batch.obs, batch.avail)
    log_pi = jax.nn.log_softmax(logits)
    log_prob = jnp.take_along_axis(log_pi, batch.action[..., None], -1)[..., 0]
    ratio, adv = jnp.exp(log_prob - batch.log_prob), (adv - adv.mean()) / (adv.std() + 1e-8)
    actor = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - clip, 1 + clip) * adv).mean()
    entropy = -(jnp.exp(log_pi) * jnp.where(batch.avail, log_pi, 0.0)).sum(-1).mean()
    return actor + vf * ((value - target) ** 2).mean() - ent * entropy


def make_train(env, num_envs=16, num_steps=64, updates=20, epochs=4, minibatches=4, lr=3e-4):
    agents, net = env.agents, ActorCritic(env.action_space(env.agents[0]).n)
    optimiser = optax.chain(optax.clip_by_global_norm(0.5), optax.adam(lr))
    step_envs, avail_envs = jax.vmap(env.step), jax.vmap(env.get_avail_actions)

    def env_step(carry, key):
        params, state, obs = carry
        k_act, k_step = jax.random.split(key)
        x, avail = batchify(obs, agents), batchify(avail_envs(state), agents)
        logits, value = net.apply(params, x, avail)
        action = jax.random.categorical(k_act, logits)
        log_prob = jnp.take_along_axis(jax.nn.log_softmax(logits), action[:, None], 1)[:, 0]
        split = dict(zip(agents, action.reshape(len(agents), num_envs), strict=True))
        obs, state, reward, done, info = step_envs(jax.random.split(k_step, num_envs), state, split)
        t = Transition(x, avail, action, log_prob, value, batchify(reward, agents),
                       batchify(done, agents).astype(jnp.float32))  # fmt: skip
        won = info.get("won", jnp.zeros((num_envs, len(agents)), bool))[:, 0] & done["__all__"]
        return (params, state, obs), (t, done["__all__"].sum(), won.sum())

    def minibatch(carry, batch):
        params, opt_state = carry
        loss, grads = jax.value_and_grad(ppo_loss)(params, net, *batch)
        updates_, opt_state = optimiser.update(grads, opt_state)
        return (optax.apply_updates(params, updates_), opt_state), loss

    def update(carry, key):
        params, opt_state, state, obs = carry
        k_roll, k_perm = jax.random.split(key)
        (params, state, obs), (traj, ends, wins) = jax.lax.scan(
            env_step, (params, state, obs), jax.random.split(k_roll, num_steps)
        )
        _, last_value = net.apply(params, batchify(obs, agents), jnp.ones((1, net.actions), bool))
        adv, target = gae(traj, last_value)
        flat = jax.tree.map(lambda x: x.reshape(-1, *x.shape[2:]), (traj, adv, target))
        order = jax.vmap(jax.random.permutation, (0, None))(
            jax.random.split(k_perm, epochs), flat[1].shape[0]
        ).reshape(epochs * minibatches, -1)
        batches = jax.tree.map(lambda x: x[order], flat)
        (params, opt_state), loss = jax.lax.scan(minibatch, (params, opt_state), batches)
        games = ends.sum()
        returns = traj.reward.sum() / len(agents) / jnp.maximum(games, 1)
        stats = {"loss": loss.mean(), "games": games, "return": returns, "wins": wins.sum()}
        return (params, opt_state, state, obs), stats

    def train(key):
        key, k_init, k_reset = jax.random.split(key, 3)
        obs, state = jax.vmap(env.reset)(jax.random.split(k_reset, num_envs))
        dim = env.observation_space(agents[0]).shape[0]
        params = net.init(k_init, jnp.zeros((1, dim)), jnp.ones((1, net.actions), bool))
        carry = (params, optimiser.init(params), state, obs)
        carry, stats = jax.lax.scan(update, carry, jax.random.split(key, updates))
        return carry[0], stats

    return train


def named(option: str, value, make):
    """make(); a ValueError comes back naming the option and its value, as `mbg` does."""
    try:
        return make()
    except ValueError as error:
        text = str(error)
        raise ValueError(text if text.startswith(option) else f"{option} {value}: {text}") from None


def make_env(name: str, maps="curriculum", opponent="scripted:brawler"):
    """Ours by name (with --maps and --opponent), any other name JaxMARL's (`jaxmarl.make`).
    Raises ValueError naming the option and value at fault."""
    try:
        import adapters
        from cli.maps import map_specs
    except ModuleNotFoundError:  # JaxMARL's own venv, without this project
        return __import__("jaxmarl").make(name)
    if name not in adapters.ENVIRONMENTS:
        try:
            import jaxmarl  # most often a mistyped name of ours, not a missing JaxMARL
        except ModuleNotFoundError:
            raise ValueError(
                f"--env {name}: not one of {', '.join(adapters.ENVIRONMENTS)}, and JaxMARL (for "
                "its own environments) is not installed here: `make bench-smax-venv`"
            ) from None
        return jaxmarl.make(name)
    kwargs = {"maps": named("--maps", maps, lambda: map_specs(maps, "--maps"))}
    if name != "TeamDeathmatch":  # there all ten slots learn: nobody is hidden
        kwargs["opponent"] = opponent
    return named(
        "--opponent", opponent, lambda: adapters.make(name, rosters=["MWHRP/MWHRP"], **kwargs)
    )


def main(argv=None, minibatches=4) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="HeuristicEnemyTeamDeathmatch")
    parser.add_argument("--opponent", default="scripted:brawler", help="our envs only")
    parser.add_argument("--maps", default="curriculum", help="our envs only")
    for option, default in (("--num-envs", 16), ("--num-steps", 64), ("--updates", 20)):
        parser.add_argument(option, type=int, default=default)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    sizes = {"--num-envs": args.num_envs, "--num-steps": args.num_steps, "--updates": args.updates}
    for option, value in sizes.items():
        if value < 1:
            parser.error(f"{option} {value}: expected >= 1")
    try:
        env = make_env(args.env, args.maps, args.opponent)
    except ValueError as error:
        parser.error(str(error))
    if (samples := args.num_envs * args.num_steps * len(env.agents)) % minibatches:
        parser.error(
            f"--num-envs {args.num_envs} x --num-steps {args.num_steps} x {len(env.agents)} "
            f"agents = {samples} samples: not a multiple of the {minibatches} minibatches"
        )
    train = jax.jit(make_train(env, args.num_envs, args.num_steps, args.updates))
    start = time.perf_counter()
    _, stats = jax.block_until_ready(train(jax.random.PRNGKey(args.seed)))
    seconds = time.perf_counter() - start
    for i, row in enumerate(zip(*(stats[k].tolist() for k in stats), strict=True)):
        print(
            f"update {i:3d} " + " ".join(f"{k} {v:8.3f}" for k, v in zip(stats, row, strict=True))
        )
    steps = args.num_envs * args.num_steps * args.updates
    print(f"{steps} env-steps in {seconds:.1f} s (compile included)")
    return {k: v.tolist() for k, v in stats.items()}


if __name__ == "__main__":
    main()
