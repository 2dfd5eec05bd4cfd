"""`HostStepper`: one game stepped by `Env.step` from a Python loop, its outputs packed.

`jax.jit(env.step)` takes 25 leaves and returns 92 (state, observation with masks, reward,
done, the tick's 37 `Events` fields, `last_obs`); a jitted call from Python pays for each leaf
on the way out (one `jax.Array` made per output, the pytrees rebuilt), and for one game that
costs more than XLA's work (docs/PERFORMANCE.md, "One jitted step from Python"). Here
everything but the state comes back as one buffer per dtype (`engine.packing`), and on the host
each output is a NumPy view, cut out only when it is read. The results are those of `Env.step`
bit for bit (tested over random play).
"""

from functools import cached_property

import jax
import numpy as np

from engine import packing
from engine.env import Env
from engine.sampling import random_legal_actions
from engine.types import Actions, Obs, State


class HostStep:
    """What one `HostStepper` call returned, read lazily as NumPy (views of three host
    buffers: float32, int32, bool). Fields as `Env.step` names them (RULES 4, 5):

    obs: Obs, leading axis 10 observer slots (with `.mask`); reward (10,) float32;
    done () bool; info: dict of terminated () bool, truncated () bool, outcome () int32,
    events (`Events` of the finished tick) and, when the env keeps it, last_obs (Obs).
    """

    def __init__(self, layout: packing.Layout, buffers):
        self._layout = layout
        self._device = buffers

    @cached_property
    def _host(self) -> tuple[np.ndarray, ...]:
        return tuple(np.asarray(b) for b in self._device)

    def _part(self, index: int):
        # A reset's HostStep has only the observation: IndexError names the missing part.
        return packing.unpack_part(self._layout, self._host, index, np)

    @cached_property
    def obs(self) -> Obs:
        return self._part(0)

    @cached_property
    def reward(self) -> np.ndarray:
        return self._part(1)

    @cached_property
    def done(self) -> np.ndarray:
        return self._part(2)

    @cached_property
    def info(self) -> dict:
        return self._part(3)


class HostStepper:
    """One game of `env` stepped from Python, results as `Env.step`'s bit for bit.

        stepper = HostStepper(env)
        first = stepper.reset(key)                    # HostStep: obs only
        out = stepper.step(key, actions)              # HostStep: obs, reward, done, info
        stepper.state                                 # the current State (JAX arrays)

    key: a PRNG key as `jax.random.PRNGKey` makes ((2,) uint32), used as `Env.step` uses it (the
    auto-reset draw); actions: `Actions` of (10,) int32 heads (RULES 3.1), JAX or NumPy. The
    step auto-resets a finished game from the pool, or from `restart` (an authored State)
    when one is given, exactly as `Env.step(key, state, actions, restart=restart)`.
    Compiled once per stepper on first use, as `jax.jit(env.step)` is.

    The state goes in and out as its 21 arrays, and only the rest is packed: packing the state
    too (one buffer per dtype either way, with or without `lax.optimization_barrier` around the
    step) moved the observation's `distance` column by 1 ulp against `jax.jit(env.step)` on
    XLA:CPU (its LLVM contracts `dx * dx + dy * dy` into a fused multiply-add in one program and
    not in the other), and this layout is the one measured to keep every output bit for bit.
    """

    def __init__(self, env: Env, restart: State | None = None):
        self.env = env
        self.restart = restart
        key = jax.ShapeDtypeStruct((2,), np.uint32)
        obs, state = jax.eval_shape(env.reset, key)
        actions = jax.eval_shape(random_legal_actions, key, obs.mask)
        shapes = jax.eval_shape(env.step, key, state, actions, None, restart)
        self._step_layout = packing.layout_of(_host_part(shapes))
        self._reset_layout = packing.layout_of((obs,))
        self._jit_step = jax.jit(self._packed_step)
        self._jit_reset = jax.jit(self._packed_reset)
        self.state: State | None = None

    def _packed_reset(self, key):
        obs, state = self.env.reset(key)
        return state, packing.pack(self._reset_layout, (obs,))

    def _packed_step(self, key, state, actions, restart):
        out = self.env.step(key, state, actions, restart=restart)
        return out[1], packing.pack(self._step_layout, _host_part(out))

    def reset(self, key) -> HostStep:
        """Start a game drawn from the env's pool with `key`, as `Env.reset(key)`: a HostStep
        whose `obs` is the first observation (it has no reward, done or info)."""
        self.state, buffers = self._jit_reset(key)
        return HostStep(self._reset_layout, buffers)

    def step(self, key, actions: Actions) -> HostStep:
        """One tick with auto-reset from `self.state`, as `Env.step(key, state, actions)`;
        `self.state` becomes the next state. Assign `self.state` (e.g. an
        `engine.authored_state`) to continue from another game. Raises RuntimeError before
        `reset` or an assigned state."""
        if self.state is None:
            raise RuntimeError("HostStepper.step: no game yet; call reset(key) or set .state")
        self.state, buffers = self._jit_step(key, self.state, actions, self.restart)
        return HostStep(self._step_layout, buffers)


def _host_part(step_out) -> tuple:
    """`Env.step`'s (obs, state, reward, done, info) without the state: (obs, reward, done,
    info), the part that is packed."""
    obs, _, reward, done, info = step_out
    return obs, reward, done, info
