"""Where the time of one game stepped from a Python loop goes, and what `HostStepper` saves.

    JAX_PLATFORMS=cpu .venv/bin/python bench/bench_host_step.py [--steps 100] [--rounds 7]

Every program steps one game `--steps` ticks from Python (the same key and actions each tick)
and is timed in alternating rounds in this one process (ABBA order, `evaluation.interleaved`),
by the wall clock and by this process's CPU clock; a ratio is the median of per-round ratios
against `jax.jit(env.step)` ("current"), with its IQR. The programs:
- current: `jax.jit(env.step)`, 25 leaves in, 92 out (what `mbg bench engine` timed);
- donated: the same with `donate_argnums` on the state (JAX:CPU honours it: printed);
- all packed: state in and out as one buffer per dtype as well (not bit for bit: the
  observation's distance moves by 1 ulp, see `engine.host`);
- HostStepper: `engine.host`, the 71 non-state outputs packed, the state as its 21 arrays;
- HostStepper, no last_obs: the same on `Env(..., keep_last_obs=False)`;
- HostStepper + host reads: the stepper plus reading reward, done and the Obs as NumPy;
- fill 92 / fill 24: jitted functions that only fill outputs of the shapes of the current step
  and of the stepper (the Python side's share of each).
Then the Python-side pieces alone: flattening and rebuilding the 92-leaf result, `np.asarray`
of the stepper's three buffers, and cutting its Obs out of them. Prints figures; asserts
nothing (`tests/engine/test_engine_host.py` checks the results bit for bit).
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from evaluation import interleaved  # noqa: E402


def fill_fn(shapes):
    """A jitted (key, arg, actions) -> zeros of `shapes` (plus key[0], so XLA cannot fold it)."""

    def fill(key, arg, actions):
        return jax.tree_util.tree_map(
            lambda x: jnp.zeros(x.shape, x.dtype) + key[0].astype(x.dtype), shapes
        )

    return jax.jit(fill)


def packed_state_fn(env, state, shapes):
    """The step with the state packed in and out as well (`engine.packing`)."""
    from engine import host, packing

    state_layout = packing.layout_of(state)
    rest_layout = packing.layout_of(host._host_part(shapes))

    def step(key, carry, actions):
        out = env.step(key, packing.unpack(state_layout, carry), actions)
        return packing.pack(state_layout, out[1]), packing.pack(rest_layout, host._host_part(out))

    return jax.jit(step), packing.pack(state_layout, state)


def programs(env, steps: int) -> dict:
    """name -> a warm program stepping one game `steps` ticks; prints donation's effect."""
    from engine import Config, Env
    from engine.host import HostStepper
    from engine.sampling import random_legal_actions

    key = jax.random.PRNGKey(0)
    obs, state = jax.jit(env.reset)(key)
    actions = jax.jit(random_legal_actions)(key, obs.mask)
    shapes = jax.eval_shape(env.step, key, state, actions)

    def loop(step, start, copy=False):
        def run():
            carry = jax.tree_util.tree_map(jnp.copy, start) if copy else start
            for _ in range(steps):
                out = step(key, carry, actions)
                carry = out[1] if isinstance(out, tuple) and len(out) == 5 else out[0]
            return jax.block_until_ready(carry)

        run()
        return run

    current = jax.jit(env.step)
    donated = jax.jit(env.step, donate_argnums=1)
    probe = jax.tree_util.tree_map(jnp.copy, state)
    donated(key, probe, actions)
    print(f"donation honoured by JAX:CPU: {probe.pos.is_deleted()} (the donated state deleted)")
    packed, packed_state = packed_state_fn(env, state, shapes)

    def stepper_loop(stepper, read=False):
        stepper.reset(key)

        def run():
            for _ in range(steps):
                out = stepper.step(key, actions)
                if read:
                    out.reward, out.done, out.obs  # noqa: B018  (the host reads them)
            return jax.block_until_ready(stepper.state)

        run()
        return run

    plain = HostStepper(env)
    fast = HostStepper(Env(Config(), env.pool, keep_last_obs=False))
    stepper_shapes = jax.eval_shape(plain._jit_step, key, state, actions, None)
    return {
        "current": loop(current, state),
        "donated": loop(donated, state, copy=True),
        "all packed": loop(packed, packed_state),
        "HostStepper": stepper_loop(plain),
        "HostStepper, no last_obs": stepper_loop(fast),
        "HostStepper + host reads": stepper_loop(plain, read=True),
        "fill 92": loop(fill_fn(shapes), state),
        "fill 24": loop(fill_fn(stepper_shapes), state),
    }, (current(key, state, actions), plain, actions)


def per_call_us(run, calls: int = 2000) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        run()
    return (time.perf_counter() - start) / calls * 1e6


def python_pieces(result, stepper, actions) -> dict:
    """Microseconds of the host-side pieces alone, best of 3 timings."""
    from engine import packing

    leaves, treedef = jax.tree_util.tree_flatten(result)
    key = jax.random.PRNGKey(0)
    out = stepper.step(key, actions)
    host = [np.asarray(b) for b in out._device]
    pieces = {
        "flatten the 92-leaf result": lambda: jax.tree_util.tree_flatten(result),
        "rebuild the 92-leaf result": lambda: jax.tree_util.tree_unflatten(treedef, leaves),
        "np.asarray of the stepper's 3 buffers": lambda: [np.asarray(b) for b in out._device],
        "cut the Obs out (NumPy views)": lambda: packing.unpack_part(out._layout, host, 0, np),
    }
    return {name: min(per_call_us(run) for _ in range(3)) for name, run in pieces.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=100, help="ticks a timed call")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    jax.config.update("jax_enable_compilation_cache", False)
    from engine import Config, Env, maps

    env = Env(Config(), maps.make_pool(maps="train", rosters=("MWHRP/MWHRP",)))
    progs, (result, stepper, actions) = programs(env, args.steps)
    load = os.getloadavg()[0]
    seconds = interleaved.interleave_clocks(
        {n: (lambda r=r: interleaved.time_clocks(r, 1)) for n, r in progs.items()}, args.rounds
    )
    load = (load + os.getloadavg()[0]) / 2
    print(
        f"jax {jax.__version__}; {args.steps} ticks a call, {args.rounds} rounds; load {load:.1f}"
    )
    print(f"{'program':<28} {'wall us':>8} {'CPU us':>8}   current / program, wall (IQR)")
    for name in progs:
        wall, cpu = seconds["wall"][name], seconds["cpu"][name]
        ratio = interleaved.ratio_summary(seconds["wall"]["current"], wall)
        print(
            f"{name:<28} {statistics.median(wall) / args.steps * 1e6:>8.0f} "
            f"{statistics.median(cpu) / args.steps * 1e6:>8.0f}   {interleaved.describe(ratio)}"
        )
    print("host-side pieces alone, us a call:")
    for name, us in python_pieces(result, stepper, actions).items():
        print(f"  {name:<40} {us:>7.1f}")


if __name__ == "__main__":
    main()
