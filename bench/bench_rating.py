"""Rating speed: the Bradley-Terry-Davidson fit and its bootstrap on a Season-sized field.

    .venv/bin/python bench/bench_rating.py [--entrants 9] [--games 200] [--rounds 1000]

A field of N entrants with known Elo (evenly spread over 600 points, nu = 0.3) plays G games a
pair (N = 9, G = 200: 36 matchups, 7,200 games, 3,600 side-swapped pairs), drawn from the model
itself (evaluation.rating.simulate_field). Times the tally, the point fit, R bootstrap rounds
and the Fisher interval, and prints the largest error against the truth. Target: fit and
1,000 rounds for 9 entrants and 7,200 games in under 10 s. Prints figures; asserts nothing.
"""

import argparse
import time

import numpy as np

from evaluation import rating as R


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entrants", type=int, default=9)
    parser.add_argument("--games", type=int, default=200, help="games a pair")
    parser.add_argument("--rounds", type=int, default=1000)
    args = parser.parse_args()
    truth = np.linspace(900.0, 1500.0, args.entrants)
    games = R.simulate_field(truth, 0.3, args.games, seed=1)
    start = time.perf_counter()
    matchups = R.tally(R.games_frame(games))
    tallied = time.perf_counter()
    boot = R.fit_matchups(matchups, rounds=args.rounds, seed=0)
    booted = time.perf_counter()
    fisher = R.fit_matchups(matchups, interval="fisher")
    done = time.perf_counter()
    fitted = dict(zip(boot.entrants, boot.elo, strict=True))
    error = max(abs(fitted[f"e{i}"] - (t - truth.mean() + 1200)) for i, t in enumerate(truth))
    print(f"{args.entrants} entrants, {games.height:,} games, {args.rounds} bootstrap rounds")
    print(f"  tally of the results table   {tallied - start:8.3f} s")
    print(f"  fit + bootstrap              {booted - tallied:8.3f} s  (target < 10 s)")
    print(f"  fit + Fisher interval        {done - booted:8.3f} s")
    print(f"  largest |Elo - truth|        {error:8.1f}")
    widths = boot.high - boot.low
    print(f"  95% width, bootstrap / Fisher {widths.mean():6.1f} / "
          f"{(fisher.high - fisher.low).mean():6.1f} Elo (mean)")  # fmt: skip


if __name__ == "__main__":
    main()
