"""Team Deathmatch where researchers' code already is: JaxMARL-style and PettingZoo adapters.

    import adapters
    env = adapters.make("HeuristicEnemyTeamDeathmatch", maps="train", opponent="scripted:kiter")
    penv = adapters.parallel_env(maps=[0], rosters=["MWHRP/MWHRP"], render_mode="rgb_array")

- `adapters.jaxmarl_env`: pure JAX, dicts keyed by "ally_0" .. "enemy_4", `get_avail_actions`,
  `world_state`; jit, vmap and scan work. `reset_stacked`, `step_stacked` and `avail_stacked`
  hand over the same values as (num_agents, ...) arrays, what `batchify` makes of the dicts.
- `adapters.pettingzoo_env`: a PettingZoo `ParallelEnv` of one game on the host (needs the
  `pettingzoo` extra).
- `adapters.spaces`: Gymnasium spaces of observations and actions, and the flat layout.
"""

ENVIRONMENTS = ("TeamDeathmatch", "HeuristicEnemyTeamDeathmatch")


def make(name: str, **kwargs):
    """A JaxMARL-style environment by name (as `jaxmarl.make`); kwargs go to its constructor.
    Raises ValueError naming the known environments for an unknown name."""
    from adapters import jaxmarl_env

    if name not in ENVIRONMENTS:
        raise ValueError(f"environment {name!r} does not exist; choose one of {ENVIRONMENTS}")
    return getattr(jaxmarl_env, name)(**kwargs)


def parallel_env(**kwargs):
    """The PettingZoo ParallelEnv (`adapters.pettingzoo_env.TeamDeathmatchParallelEnv`)."""
    from adapters.pettingzoo_env import TeamDeathmatchParallelEnv

    return TeamDeathmatchParallelEnv(**kwargs)


def __getattr__(name: str):
    """`adapters.batchify` (`adapters.arrays.batchify`), imported when first asked for, as the
    environments are: `import adapters` stays free of JAX."""
    if name == "batchify":
        from adapters.arrays import batchify

        return batchify
    raise AttributeError(f"module 'adapters' has no attribute {name!r}")
