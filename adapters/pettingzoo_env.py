"""Team Deathmatch as a PettingZoo `ParallelEnv`: one game on the host (needs `pettingzoo`).

    env = TeamDeathmatchParallelEnv(maps=[47], rosters=["MWHRP/MWHRP"], render_mode="rgb_array")
    obs, infos = env.reset(seed=0)
    while env.agents:
        actions = {a: env.action_space(a).sample(obs[a]["action_mask"]) for a in env.agents}
        obs, rewards, terminations, truncations, infos = env.step(actions)

Agents are named as in JaxMARL ("ally_0" .. "ally_4" for Team A, "enemy_0" .. "enemy_4" for
Team B). `possible_agents` are the slots some roster of the pool uses, and every one of them is
an agent of every game from reset to the game's end (a slot this game leaves empty sees nothing
and has only the no-op, RULES 2.1, so PettingZoo's agent list never changes mid-game). A dead agent
stays in every dict with an observation that shows no units (RULES 5.2) and an `action_mask`
that allows only the no-op (flat index 0), and the respawn wave brings it back (RULES 4.2). When
the game ends, every agent is terminated (a team reached the score threshold) or truncated (the
horizon, RULES 4.3) and `agents` empties. Observations are dicts, as PettingZoo documents for
action masks: "observation" (680,) float32 (`adapters.spaces`) and "action_mask" int8. The
engine's step is jitted once per process and configuration; `render()` draws the Oracle view
with the apps' arena renderer (`ui.arena`) and returns (height, width, 3) uint8.
"""

import functools

import gymnasium
import jax
import numpy as np
from pettingzoo import ParallelEnv

from adapters import arrays, spaces
from engine import constants as C
from engine import env as engine_env
from engine import maps as map_files
from engine import observation
from engine.types import Config

RENDER_SIZE = (800, 416)  # pixels: the 20 x 10 map at 39 pixels a map unit, with margins


@functools.cache
def _compiled(config: Config, action_type: str):
    """Jitted (reset, step) of one game, shared by every env with this config."""

    def reset(pool, key):
        game = engine_env.draw_state(config, pool, key)
        obs = observation.observe(config, game)
        return game, arrays.flatten_obs(obs), arrays.action_mask(obs.mask, action_type)

    def step(game, values):
        obs, game, reward, events = engine_env.step_env(
            config, game, arrays.to_actions(values, action_type)
        )
        flat, mask = arrays.flatten_obs(obs), arrays.action_mask(obs.mask, action_type)
        ends = (events.terminated, events.truncated)
        return game, (flat, mask, reward, events.died, events.respawned, ends)

    return jax.jit(reset), jax.jit(step)


class TeamDeathmatchParallelEnv(ParallelEnv):
    """One Team Deathmatch game behind PettingZoo's parallel API (see the module doc)."""

    metadata = {"render_modes": ["rgb_array"], "name": "team_deathmatch_v0", "render_fps": 5}

    def __init__(
        self,
        maps="train",
        rosters=("MWHRP/MWHRP",),
        p_east: float = 0.5,
        action_type: str = "flat",
        render_mode: str | None = None,
        **config,
    ):
        """maps, rosters, p_east, config: as `engine.make`; action_type "flat" (Discrete(198))
        or "heads" (MultiDiscrete([9, 11, 2])). Raises ValueError on a bad value."""
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode {render_mode!r}: expected None or 'rgb_array'")
        self.render_mode = render_mode
        self.action_type = spaces.check_action_type(action_type)
        self.config = Config(**config)
        self.pool = map_files.make_pool(maps=maps, rosters=rosters, p_east=p_east)
        rosters_used = np.asarray(self.pool.rosters[: int(self.pool.num_rosters)])
        used = np.flatnonzero((rosters_used > 0).any(axis=0))
        self.possible_agents = [arrays.AGENT_NAMES[s] for s in used]
        obs_space = gymnasium.spaces.Dict(
            {
                "observation": spaces.flat_observation_space(self.config, self.pool),
                "action_mask": spaces.mask_space(action_type),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.action_space(action_type) for a in self.possible_agents}
        self.agents: list[str] = []
        self.game = None
        self._key = jax.random.PRNGKey(0)
        self._renderer = None

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None):
        """Draw a game (RULES 4.4): (observations, infos). seed: the game's key is
        PRNGKey(seed); without one, the next key of this env's sequence."""
        if seed is not None:
            self._key = jax.random.PRNGKey(seed)
        self._key, key = jax.random.split(self._key)
        reset, _ = _compiled(self.config, self.action_type)
        self.game, flat, mask = reset(self.pool, key)
        self.agents = list(self.possible_agents)
        zeros = np.zeros(C.NUM_SLOTS, bool)
        return self._observations(flat, mask), self._infos(zeros, zeros)

    def step(self, actions: dict):
        """One tick: (observations, rewards, terminations, truncations, infos).

        actions: {agent: action} for agents in `self.agents`; an agent left out plays the no-op,
        an illegal action is played as the engine's no-op (RULES 3.6). Raises ValueError for an
        unknown agent or an action outside the action space, and RuntimeError after the end.
        """
        if not self.agents:
            raise RuntimeError("step: the game is over (or not started); call reset()")
        values = self._action_values(actions)
        _, step = _compiled(self.config, self.action_type)
        self.game, host = step(self.game, values)
        flat, mask, reward, died, respawned, (terminated, truncated) = jax.device_get(host)
        observations = self._observations(flat, mask)
        rewards = {a: float(reward[arrays.SLOT_OF[a]]) for a in self.agents}
        terminations = dict.fromkeys(self.agents, bool(terminated))
        truncations = dict.fromkeys(self.agents, bool(truncated))
        infos = self._infos(died, respawned)
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _action_values(self, actions: dict) -> np.ndarray:
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise ValueError(f"step: {unknown[0]!r} is not a live agent (agents: {self.agents})")
        shape = () if self.action_type == "flat" else (3,)
        values = np.zeros((C.NUM_SLOTS, *shape), np.int32)
        for agent, action in actions.items():
            value = np.asarray(action)
            if not self.action_spaces[agent].contains(value.astype(np.int64)):
                space = self.action_spaces[agent]
                raise ValueError(f"step: action of {agent!r}: {action!r} is not in {space}")
            values[arrays.SLOT_OF[agent]] = value
        return values

    def _observations(self, flat, mask) -> dict:
        flat, mask = np.asarray(flat), np.asarray(mask, np.int8)
        return {
            a: {"observation": flat[arrays.SLOT_OF[a]], "action_mask": mask[arrays.SLOT_OF[a]]}
            for a in self.agents
        }

    def _infos(self, died, respawned) -> dict:
        alive = np.asarray(self.game.alive)
        out = {}
        for agent in self.agents:
            slot = arrays.SLOT_OF[agent]
            out[agent] = {
                "alive": bool(alive[slot]),
                "died": bool(died[slot]),
                "respawned": bool(respawned[slot]),
            }
        return out

    def state(self) -> np.ndarray:
        """The critic world state of the current game (RULES 5.9): (10, 342) float32."""
        return np.asarray(observation.world_state(self.config, self.game))

    def render(self):
        """The Oracle view of the current state as (416, 800, 3) uint8, or None (with a
        Gymnasium warning) when render_mode is not "rgb_array"."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without render_mode='rgb_array'")
            return None
        import pygame

        from ui.arena import ArenaRenderer
        from ui.scene import scene_from_state

        if self._renderer is None:
            self._renderer = ArenaRenderer()
        host = {k: np.asarray(v) for k, v in vars(jax.device_get(self.game)).items()}
        surface = pygame.Surface(RENDER_SIZE)
        self._renderer.draw(surface, scene_from_state(host), surface.get_rect())
        return np.transpose(pygame.surfarray.array3d(surface), (1, 0, 2)).copy()

    def close(self):
        self._renderer = None
