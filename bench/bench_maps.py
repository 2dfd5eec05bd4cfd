"""Time loading (parse + validate) and packing all 52 maps; target under 0.5 s (issue 3).

JAX_PLATFORMS=cpu .venv/bin/python bench/bench_maps.py
"""

import time

import jax.numpy as jnp

from engine import maps as M


def main() -> None:
    jnp.zeros(1).block_until_ready()  # start the JAX backend outside the timing
    ids = M.split_ids("all")
    timings = []
    for _ in range(5):
        M.load_map.cache_clear()
        start = time.perf_counter()
        specs = M.load_maps(ids)
        loaded = time.perf_counter()
        pool = M.make_pool(specs, ["MWHRP"])
        pool.obstacles.block_until_ready()
        timings.append((loaded - start, time.perf_counter() - loaded))
    load, pack = min(t[0] for t in timings), min(t[1] for t in timings)
    print(f"maps: {len(specs)}, obstacles: {sum(s.num_obstacles for s in specs)}")
    print(f"load + validate: {load * 1e3:.1f} ms ({load / len(specs) * 1e3:.2f} ms a map)")
    print(f"pack into Pool:  {pack * 1e3:.1f} ms")
    print(f"total:           {(load + pack) * 1e3:.1f} ms (target < 500 ms; best of 5)")
    print(f"cached reload:   {_cached(ids) * 1e3:.2f} ms")


def _cached(ids: list[int]) -> float:
    start = time.perf_counter()
    M.load_maps(ids)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
