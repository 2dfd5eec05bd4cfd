"""The range of the seeds a command line accepts (`--seed`).

A game's PRNG key is `jax.random.key(seed)` (evaluation.match.start). With 64-bit types off,
as this project runs JAX, the key keeps only the seed's low 32 bits, so seed 2**32 plays the
game of seed 0 and a seed of 2**63 or more does not convert at all. The games of a run take
seeds above its root (`seed + k`, tournament matchups `seed + m G / 2`), so roots stop at
2**31, which leaves 2**31 games of room before two seeds of one run share a key.
"""

ROOT_SEED_LIMIT = 2**31  # root seeds are 0 to ROOT_SEED_LIMIT - 1


def check_root_seed(seed: int | None, option: str = "--seed") -> int | None:
    """`seed` (None: not given) if it is a root seed this project can play, else ValueError
    naming the option and value: "--seed 4294967296: must be 0 to 2147483647 (...)"."""
    if seed is not None and not 0 <= seed < ROOT_SEED_LIMIT:
        raise ValueError(
            f"{option} {seed}: must be 0 to {ROOT_SEED_LIMIT - 1} (JAX keeps 32 bits of a game's "
            "seed, and a run's games use the seeds above its root)"
        )
    return seed
