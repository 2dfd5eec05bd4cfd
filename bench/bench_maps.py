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
        M.clear_map_caches()
        start, cpu = time.perf_counter(), time.process_time()
        specs = M.load_maps(ids)
        loaded = time.perf_counter()
        pool = M.make_pool(specs, ["MWHRP"])
        pool.obstacles.block_until_ready()
        end = time.perf_counter()
        timings.append((loaded - start, end - loaded, time.process_time() - cpu))
    load, pack, cpu = (min(t[k] for t in timings) for k in range(3))
    print(f"maps: {len(specs)}, obstacles: {sum(s.num_obstacles for s in specs)}")
    print(f"load + validate: {load * 1e3:.1f} ms ({load / len(specs) * 1e3:.2f} ms a map)")
    print(f"pack into Pool:  {pack * 1e3:.1f} ms")
    print(f"total:           {(load + pack) * 1e3:.1f} ms (target < 500 ms; best of 5)")
    print(f"CPU time:        {cpu * 1e3:.1f} ms (steadier than wall time on a busy machine)")
    print(f"cached reload:   {_cached(ids) * 1e3:.2f} ms")


def _cached(ids: list[int]) -> float:
    start = time.perf_counter()
    M.load_maps(ids)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
