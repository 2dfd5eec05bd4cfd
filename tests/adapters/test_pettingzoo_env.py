"""The PettingZoo ParallelEnv passes PettingZoo's own API and seed tests on games with deaths
and respawns, plays the engine's games, keeps dead agents in every dict and renders."""

import warnings

import jax
import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from pettingzoo.test import parallel_api_test, parallel_seed_test  # noqa: E402

import adapters  # noqa: E402
from adapters import arrays  # noqa: E402
from engine import env as engine_env  # noqa: E402
from ui.theme import TEAM_COLOURS  # noqa: E402

# open maps and a Hunter-heavy small roster: random agents meet and kill within 300 ticks
POOL = dict(maps=[0, 2], rosters=["MWHRP/MWHRP", "HHHH/MMM"])


def seeded(env):
    """Seed the action spaces, so the agents' random actions (and the test) are reproducible."""
    for i, agent in enumerate(env.possible_agents):
        env.action_space(agent).seed(i)
    return env


class Counting:
    """Wraps an env's step to count deaths and respawns from the infos."""

    def __init__(self, env):
        self.env, self.deaths, self.respawns, self.steps = env, 0, 0, 0
        original = env.step

        def step(actions):
            out = original(actions)
            self.steps += 1
            self.deaths += sum(i["died"] for i in out[4].values())
            self.respawns += sum(i["respawned"] for i in out[4].values())
            return out

        env.step = step


def test_parallel_api_test_passes_with_deaths_and_respawns():
    env = seeded(adapters.parallel_env(**POOL))
    counter = Counting(env)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # PettingZoo reports most API faults as warnings
        parallel_api_test(env, num_cycles=1000)
    assert counter.steps == 600  # two full 300-tick games
    assert counter.deaths > 0 and counter.respawns > 0


def test_parallel_seed_test_passes():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        parallel_seed_test(lambda: adapters.parallel_env(**POOL), num_cycles=50)


def test_game_equals_core_engine_and_dead_agents_stay():
    env = seeded(adapters.parallel_env(**POOL))
    obs, _ = env.reset(seed=3)
    game = engine_env.draw_state(env.config, env.pool, jax.random.split(jax.random.PRNGKey(3))[1])
    step = jax.jit(lambda g, a: engine_env.step_env(env.config, g, a))
    dead_seen = 0
    while env.agents:
        actions = {a: env.action_space(a).sample(obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, terms, truncs, infos = env.step(actions)
        flat = np.zeros(10, np.int32)
        for agent, action in actions.items():
            flat[arrays.SLOT_OF[agent]] = action
        core_obs, game, reward, _ = step(game, arrays.to_actions(flat, "flat"))
        for x, y in zip(jax.tree.leaves(env.game), jax.tree.leaves(game), strict=True):
            np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
        assert [rewards[a] for a in env.possible_agents] == np.asarray(reward).tolist()
        mine = np.stack([obs[a]["observation"] for a in env.possible_agents])
        np.testing.assert_array_max_ulp(mine, np.asarray(arrays.flatten_obs(core_obs)), maxulp=2)
        for agent in env.possible_agents:
            assert agent in obs and agent in rewards and agent in terms and agent in infos
            if not infos[agent]["alive"]:
                dead_seen += 1
                assert np.flatnonzero(obs[agent]["action_mask"]).tolist() == [0]
    assert dead_seen > 0
    assert all(truncs.values()) or all(terms.values())
    with pytest.raises(RuntimeError, match="reset"):
        env.step({})


def test_bad_actions_are_named():
    env = adapters.parallel_env(maps=[8])
    env.reset(seed=0)
    with pytest.raises(ValueError, match="'ally_9' is not a live agent"):
        env.step({"ally_9": 0})
    with pytest.raises(ValueError, match="action of 'ally_0': 198 is not in Discrete"):
        env.step({"ally_0": 198})
    with pytest.raises(ValueError, match="render_mode 'human'"):
        adapters.parallel_env(maps=[8], render_mode="human")


def test_render_draws_the_oracle_view():
    env = adapters.parallel_env(maps=[8], render_mode="rgb_array")
    env.reset(seed=1)
    frame = env.render()
    assert frame.shape == (416, 800, 3) and frame.dtype == np.uint8
    colours = {tuple(c) for c in frame.reshape(-1, 3)[::7]}
    assert tuple(TEAM_COLOURS[0]) in colours and tuple(TEAM_COLOURS[1]) in colours
    assert env.state().shape == (10, 342)
