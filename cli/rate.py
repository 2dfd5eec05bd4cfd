"""`mbg rate RESULTS...`: the Bradley-Terry-Davidson leaderboard of results tables and replays.

    mbg rate runs/season0                         # a tournament folder
    mbg rate a.parquet b.parquet --interval fisher
    mbg rate runs/games_folder --csv board.csv --json board.json --png board.png

RESULTS are tournament folders, Parquet results tables (one row a game) or folders of replays
(each team's System spec is its entrant). All games are fitted together (evaluation.rating);
groups of entrants that never met are rated each on their own, with a warning.
"""

import argparse
import json
import sys
import warnings
from pathlib import Path

from fileio import output_options


def register(subparsers) -> None:
    """Add the `rate` subcommand."""
    parser = subparsers.add_parser(
        "rate",
        help="Elo leaderboard (Bradley-Terry-Davidson) of results tables and replays",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("results", nargs="+", metavar="RESULTS", help="folders or .parquet files")
    add_rating_options(parser)
    parser.set_defaults(func=run)


def add_rating_options(parser) -> None:
    """The interval and output options shared with `mbg tournament`."""
    parser.add_argument("--interval", choices=("bootstrap", "fisher"), default="bootstrap")
    parser.add_argument("--rounds", type=int, default=1000, help="bootstrap rounds (1000)")
    parser.add_argument("--rating-seed", type=int, default=0, help="bootstrap seed (0)")
    parser.add_argument("--csv", metavar="FILE", help="write the leaderboard as CSV")
    parser.add_argument("--json", metavar="FILE", help="write leaderboard and fit as JSON")
    parser.add_argument("--png", metavar="FILE", help="draw the ratings with their intervals")


def rating_options(args) -> dict:
    """Keyword options of evaluation.rating from the parsed arguments."""
    return {"interval": args.interval, "rounds": args.rounds, "seed": args.rating_seed}


def print_board(ratings, title: str = "") -> None:
    """The leaderboard as a text table, with the draw parameter and how intervals were made."""
    if title:
        print(title)
    print(f"{'rank':>4}  {'entrant':<24} {'Elo':>7}  {'95% interval':>17} {'games':>6} "
          f"{'W':>5} {'D':>5} {'L':>5}")  # fmt: skip
    for row in ratings.table().iter_rows(named=True):
        print(f"{row['rank']:>4}  {row['entrant']:<24} {row['elo']:7.0f}  "
              f"[{row['low']:6.0f}, {row['high']:6.0f}] {row['games']:>6} {row['wins']:>5} "
              f"{row['draws']:>5} {row['losses']:>5}")  # fmt: skip
    how = (
        f"bootstrap over side-swapped pairs, {ratings.rounds} rounds, seed {ratings.seed}"
        if ratings.method == "bootstrap"
        else "Fisher information"
    )
    print(f"draw parameter nu = {ratings.draw_nu:.3f} (95% [{ratings.draw_low:.3f}, "
          f"{ratings.draw_high:.3f}]); intervals: {how}")  # fmt: skip
    if ratings.widened:
        print(f"intervals widened to the Fisher bounds (a matchup whose pairs all ended alike): "
              f"{', '.join(ratings.widened)}")  # fmt: skip


def write_outputs(all_ratings, args) -> None:
    """CSV / JSON / PNG outputs, each written atomically and never over an existing file."""
    import io

    import polars as pl

    from fileio import write_new_file

    many = len(all_ratings) > 1
    if args.csv:
        frames = [
            r.table().with_columns(pl.lit(g).alias("group")) if many else r.table()
            for g, r in enumerate(all_ratings)
        ]
        buffer = io.BytesIO()
        pl.concat(frames).write_csv(buffer)
        write_new_file(Path(args.csv), buffer.getvalue())
    if args.json:
        doc = [r.summary() for r in all_ratings]
        write_new_file(
            Path(args.json), (json.dumps(doc if many else doc[0], indent=1) + "\n").encode()
        )
    if args.png:
        from evaluation.tournament_plots import ratings_png

        write_new_file(Path(args.png), ratings_png(all_ratings))


def check_outputs(args, options=("csv", "json", "png")) -> None:
    """Refuse, before any work, each of the output options named that cannot be a new file
    (fileio.output_file: empty, a folder, below a file, or an existing file, which is never
    written over). Raises ValueError or OSError naming the option and its path."""
    output_options(args, options)


def check_rating_options(args) -> None:
    """Refuse bad rating options before any work (a tournament's games take minutes): --rounds
    under 2 with the bootstrap (evaluation.rating needs 2 or more; Fisher intervals draw no
    rounds), and the --csv, --json and --png of `check_outputs`. Raises ValueError or OSError
    naming the option and its value."""
    if args.interval == "bootstrap" and args.rounds < 2:
        raise ValueError(
            f"--rounds {args.rounds}: the bootstrap needs at least 2 (--interval fisher needs none)"
        )
    check_outputs(args)


def rate_and_report(table, args) -> list:
    """Rate a results table (each connected group apart) and print / write the leaderboard."""
    from evaluation.rating import rate_groups

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        all_ratings = rate_groups(table, **rating_options(args))
    for warning in caught:
        print(f"mbg: warning: {warning.message}", file=sys.stderr)
    for g, ratings in enumerate(all_ratings):
        print_board(ratings, f"group {g + 1}" if len(all_ratings) > 1 else "")
    write_outputs(all_ratings, args)
    return all_ratings


def run(args) -> int:
    """Read every RESULTS, rate them together, print and write the leaderboard."""
    import polars as pl

    from evaluation.tournament_store import load_results

    check_rating_options(args)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        tables = [load_results(path) for path in args.results]
    for warning in caught:
        print(f"mbg: warning: {warning.message}", file=sys.stderr)
    table = pl.concat(tables, how="diagonal_relaxed")
    if not table.height:
        raise ValueError(f"{', '.join(args.results)}: no games to rate")
    rate_and_report(table, args)
    return 0
