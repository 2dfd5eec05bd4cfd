"""Team Deathmatch behind JaxMARL's multi-agent interface (dicts keyed by agent name).

    env = adapters.make("HeuristicEnemyTeamDeathmatch", opponent="scripted:kiter")
    obs, state = env.reset(key)                    # {"ally_0": (680,) float32, ...}
    avail = env.get_avail_actions(state)           # {"ally_0": (198,) bool, ...}
    obs, state, rewards, dones, infos = env.step(key, state, {"ally_0": 17, ...})
    # rewards {name: () float32}; dones {name: () bool, "__all__": () bool};
    # infos {"terminated", "truncated", "won"}: (num_agents,) each, one entry per agent

Every method is pure: `jit`, `vmap` and `lax.scan` work, and a finished game restarts in place
(the engine's auto-reset, RULES 4.4). Agents never leave the dicts: a dead agent keeps its key,
its observation (no unit rows, RULES 5.2) and a mask with only the no-op, and comes back with
the respawn wave; its `done` is the game's. `TeamDeathmatch` exposes all ten slots (both teams
learn); `HeuristicEnemyTeamDeathmatch` exposes Team A only and plays Team B with a System given
by a slot-spec kind ("scripted:tactician", "random", "checkpoint:PATH"), the way JaxMARL's
HeuristicEnemySMAX hides its enemies. A game with fewer than five agents a team keeps all the
names; its unused slots see nothing and have only the no-op (RULES 2.1).

The stacked path gives the same values as one array per kind, agents in `env.agents` order, what
`batchify` (JaxMARL's helper) makes of the dicts, for a learner that keeps a rollout buffer:

    obs, state = env.reset_stacked(key)            # (num_agents, 680) float32
    avail = env.avail_stacked(state)               # (num_agents, 198) bool
    obs, state, rewards, dones, infos = env.step_stacked(key, state, actions)  # (num_agents,)
"""

import jax
import jax.numpy as jnp
import numpy as np
from flax import struct

from adapters import arrays, spaces
from engine import constants as C
from engine import maps as map_files
from engine.env import Env
from engine.types import Actions, Config, Obs, State
from policies.system import Lineup, merge_actions, noop_actions


@struct.dataclass
class AdapterState:
    """One game as the adapter carries it (RULES 4.4 auto-reset keeps its shapes).

    game: the engine State; move_mask (10, 9) and pair_mask (10, 11, 2) bool: the legal heads
    of this state (`engine.Masks`, RULES 3.5); opponent_actions: the hidden team's Actions for
    the coming tick ((10,) int32 heads, no-ops where the agents play); carries: the hidden
    team's System carries; action_type: "flat" or "heads" (static).
    """

    game: State
    move_mask: jnp.ndarray
    pair_mask: jnp.ndarray
    opponent_actions: Actions
    carries: tuple
    action_type: str = struct.field(pytree_node=False, default="flat")

    @property
    def avail(self) -> jnp.ndarray:
        """(10, 198) or (10, 22) bool legal actions of this state, built when asked: the state
        keeps the 9 + 22 head masks, because XLA on a CPU fuses the whole legality computation
        into each of the 198 flat entries when the flat mask is the only one kept."""
        return arrays.mask_from_heads(self.move_mask, self.pair_mask, self.action_type)


class TeamDeathmatch:
    """JaxMARL-style Team Deathmatch; all ten slots are agents, named as SMAX names them."""

    agent_slots = tuple(range(C.NUM_SLOTS))

    def __init__(
        self,
        maps="train",
        rosters=("MWHRP/MWHRP",),
        p_east: float = 0.5,
        action_type: str = "flat",
        **config,
    ):
        """maps, rosters, p_east and config as `engine.make`; action_type "flat" (Discrete(198))
        or "heads" (MultiDiscrete([9, 11, 2])). Raises ValueError on a bad value."""
        self.action_type = spaces.check_action_type(action_type)
        pool = map_files.make_pool(maps=maps, rosters=rosters, p_east=p_east)
        self.core = Env(Config(**config), pool, keep_last_obs=False)
        self.agents = [arrays.AGENT_NAMES[s] for s in self.agent_slots]
        self.num_agents = len(self.agents)
        obs_space = spaces.flat_observation_space(self.core.config, pool)
        self.observation_spaces = {a: obs_space for a in self.agents}
        self.action_spaces = {a: spaces.action_space(action_type) for a in self.agents}
        self.lineup = Lineup((), np.zeros((0, C.NUM_SLOTS), bool), ("",) * C.NUM_SLOTS)

    def observation_space(self, agent: str):
        """Box (680,) float32 (`adapters.spaces`); KeyError for an unknown agent name."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str):
        """Discrete(198) or MultiDiscrete([9, 11, 2]); KeyError for an unknown agent name."""
        return self.action_spaces[agent]

    @property
    def name(self) -> str:
        return type(self).__name__

    # --- the JaxMARL interface ---------------------------------------------------------------
    def reset(self, key: jax.Array) -> tuple[dict, AdapterState]:
        """Draw a game from the pool (RULES 4.4): ({agent: (680,) float32}, state)."""
        obs, state = self._reset(key)
        return self._obs_dict(obs), state

    def from_game(self, key: jax.Array, game: State) -> tuple[dict, AdapterState]:
        """Start from any engine State (an authored scenario, `engine.initial_state`): (obs,
        state) as `reset` gives them; key is the hidden team's (unused by scripted bots)."""
        carries = tuple(system.initial_carry() for system in self.lineup.systems)
        obs, state = self._wrap(key, self.core.observe(game), game, carries)
        return self._obs_dict(obs), state

    def step(self, key, state: AdapterState, actions: dict, reset_state=None):
        """One tick with auto-reset: (obs, state, rewards, dones, infos), see the module doc.

        actions: {agent: flat index () or heads (3,)} for every agent (KeyError names a missing
        one); illegal values play the no-op (RULES 3.6). reset_state: an AdapterState to restart
        a finished game from instead of drawing one from the pool.
        """
        values = jnp.stack([jnp.asarray(actions[a]) for a in self.agents])
        obs, nxt, reward, done, info = self._step(key, state, values, reset_state)
        rewards = {a: reward[s] for a, s in zip(self.agents, self.agent_slots, strict=True)}
        dones = {a: done for a in self.agents} | {"__all__": done}
        return self._obs_dict(obs), nxt, rewards, dones, self._infos(info)

    def get_avail_actions(self, state: AdapterState) -> dict:
        """{agent: (198,) or (22,) bool}: the legal actions of the current state (RULES 3.5)."""
        return {a: state.avail[s] for a, s in zip(self.agents, self.agent_slots, strict=True)}

    # --- the stacked path: the same values, one array each, agents in `self.agents` order ----
    def reset_stacked(self, key: jax.Array) -> tuple[jnp.ndarray, AdapterState]:
        """`reset` with the observations stacked: ((num_agents, 680) float32, state)."""
        obs, state = self._reset(key)
        return self._rows(arrays.flatten_obs(obs)), state

    def step_stacked(self, key, state: AdapterState, actions: jnp.ndarray, reset_state=None):
        """`step` with every output stacked over the agents, as `batchify` stacks the dicts:
        obs (num_agents, 680) float32, state, rewards (num_agents,) float32, dones
        (num_agents,) bool (the game's done, RULES 4.3-4.4), infos as `step`'s.

        actions: (num_agents,) flat indices or (num_agents, 3) heads, any int dtype; illegal
        values play the no-op (RULES 3.6); ValueError names another shape. The observation
        block is built once and handed over whole, where the dict path builds one buffer a row
        and a learner's `jnp.stack` gathers the rows back each tick.
        """
        values = jnp.asarray(actions)
        expected = (self.num_agents,) if self.action_type == "flat" else (self.num_agents, 3)
        if values.shape != expected:
            raise ValueError(
                f"actions: shape {values.shape}; expected {expected} ({self.action_type} actions "
                f"of {', '.join(self.agents)})"
            )
        obs, nxt, reward, done, info = self._step(key, state, values, reset_state)
        dones = jnp.broadcast_to(done, (self.num_agents,))
        return (
            self._rows(arrays.flatten_obs(obs)),
            nxt,
            self._rows(reward),
            dones,
            self._infos(info),
        )

    def avail_stacked(self, state: AdapterState) -> jnp.ndarray:
        """`get_avail_actions` stacked: (num_agents, 198) or (num_agents, 22) bool."""
        return self._rows(state.avail)

    def world_state(self, state: AdapterState) -> jnp.ndarray:
        """Critic world state (RULES 5.9): (num_agents, 342) float32, one row per agent."""
        return self._rows(self.core.world_state(state.game))

    # --- helpers -----------------------------------------------------------------------------
    def _rows(self, per_slot: jnp.ndarray) -> jnp.ndarray:
        """(10, ...) -> (num_agents, ...): the agents' rows (their slots are consecutive), cut as
        a slice so that XLA reads them in place."""
        return per_slot[self.agent_slots[0] : self.agent_slots[-1] + 1]

    def _obs_dict(self, obs: Obs) -> dict:
        """{agent: (680,) float32}, each row concatenated from the observation's fields."""
        return dict(zip(self.agents, arrays.agent_vectors(obs, self.agent_slots), strict=True))

    def _reset(self, key: jax.Array) -> tuple[Obs, AdapterState]:
        k_game, k_opponent = jax.random.split(key)
        obs, game = self.core.reset(k_game)
        carries = tuple(system.initial_carry() for system in self.lineup.systems)
        return self._wrap(k_opponent, obs, game, carries)

    def _step(self, key, state: AdapterState, values: jnp.ndarray, reset_state):
        """One engine tick from the agents' stacked actions: (Obs, next state, reward (10,),
        done (), the engine's info)."""
        k_game, k_opponent = jax.random.split(key)
        mine = arrays.to_actions(values, self.action_type)
        first, last = self.agent_slots[0], self.agent_slots[-1] + 1
        joint = jax.tree.map(  # a static slice: XLA writes the rows in place (no scatter)
            lambda own, other: other.at[first:last].set(own.astype(jnp.int32)),
            mine,
            state.opponent_actions,
        )
        restart = None if reset_state is None else reset_state.game
        obs, game, reward, done, info = self.core.step(k_game, state.game, joint, restart=restart)
        carries = jax.tree.map(
            lambda fresh, kept: jnp.where(done, fresh, kept),
            tuple(system.initial_carry() for system in self.lineup.systems),
            state.carries,
        )
        obs, nxt = self._wrap(k_opponent, obs, game, carries)
        return obs, nxt, reward, done, info

    def _wrap(self, key, obs: Obs, game: State, carries: tuple) -> tuple[Obs, AdapterState]:
        opponent, carries = self._opponent(key, obs, carries)
        state = AdapterState(
            game=game,
            move_mask=obs.mask.move,
            pair_mask=obs.mask.pair,
            opponent_actions=opponent,
            carries=carries,
            action_type=self.action_type,
        )
        return obs, state

    def _opponent(self, key, obs: Obs, carries: tuple) -> tuple[Actions, tuple]:
        """The hidden team's decision on this observation (no-ops when nobody is hidden)."""
        if not self.lineup.systems:
            return noop_actions(), carries
        keys = jax.random.split(key, len(self.lineup.systems))
        parts, kept = [], []
        for system, carry, k in zip(self.lineup.systems, carries, keys, strict=True):
            actions, carry = system.act(obs, obs.mask, carry, k)
            parts.append(actions)
            kept.append(carry)
        joint, _ = merge_actions(parts, self.lineup.owners)
        return joint, tuple(kept)

    def _infos(self, info: dict) -> dict:
        """Per-agent (num_agents,) leaves, the shape JaxMARL learners reshape infos to."""
        team = np.asarray(C.TEAM_OF_SLOT)[list(self.agent_slots)]
        winner = jnp.select([info["outcome"] == C.A_WINS, info["outcome"] == C.B_WINS], [0, 1], -1)
        ones = jnp.ones(self.num_agents, bool)
        return {
            "terminated": info["terminated"] & ones,
            "truncated": info["truncated"] & ones,
            "won": team == winner,
        }


class HeuristicEnemyTeamDeathmatch(TeamDeathmatch):
    """Team A ("ally_0" .. "ally_4") are the agents; a System plays Team B inside the env."""

    agent_slots = tuple(range(C.TEAM_SIZE))

    def __init__(self, *args, opponent: str = "scripted:tactician", **kwargs):
        """opponent: a slot-spec kind for Team B (`policies.slotspec`, a JAX System: "random",
        "scripted:NAME", "checkpoint:PATH"); the other arguments as `TeamDeathmatch`. Raises
        ValueError for an unknown kind or a host System (it could not run inside jit)."""
        from policies.slotspec import resolve_slots

        super().__init__(*args, **kwargs)
        self.lineup = resolve_slots(f"B*={opponent}")
        hosts = [s.name for s in self.lineup.systems if s.host]
        if hosts:
            raise ValueError(f"opponent {opponent!r}: {hosts[0]} is a host System, not JAX")
