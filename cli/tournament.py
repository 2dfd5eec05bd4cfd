"""`mbg tournament run | challenge | analyse`: round robins, challengers, teamwork against Elo.

    mbg tournament run --entrants random=random brawler=scripted:brawler \\
        kiter=scripted:kiter --maps test --games-per-pair 200 --seed 0 --out runs/season0
    mbg tournament challenge --field runs/season0 --challenger mine=checkpoint:runs/x/policy.msgpack
    mbg tournament analyse runs/season0m --png teamwork.png

`run` plays every pair of entrants in side-swapped pairs of mirrored 5v5 games (one agent of each
class, slot order drawn per pair) with published seeds, on the vmapped engine sharded over
--devices host devices, and prints the leaderboard. Killed at any moment, the same command
continues where it stopped. --processes P --process-id I --coordinator HOST:PORT splits the
games over P processes (jax.distributed); each writes its own results parts, process 0 merges
them and prints the leaderboard. --metrics adds team-level metrics to every row (for analyse).
"""

import argparse
import sys
import time
from pathlib import Path

from cli.maps import add_maps_option
from cli.rate import add_rating_options, check_outputs, check_rating_options, rate_and_report
from evaluation.seeds import check_root_seed
from fileio import output_folder


def register(subparsers) -> None:
    """Add `tournament` with its run, challenge and analyse subcommands."""
    parser = subparsers.add_parser(
        "tournament",
        help="round-robin tournaments, challengers and the teamwork analysis",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="tournament_command", metavar="ACTION", required=True)
    run = sub.add_parser("run", help="play (or resume) a round robin and rate it")
    run.add_argument("--entrants", nargs="+", required=True, metavar="NAME=SPEC")
    add_maps_option(run, "test")
    run.add_argument("--games-per-pair", type=int, default=200, help="games a matchup (200)")
    run.add_argument("--seed", type=int, default=0, help="root seed of the game seeds (0)")
    run.add_argument("--out", required=True, metavar="DIR", help="the tournament folder")
    run.add_argument("--horizon", type=int, help="ticks before a draw (official: 300)")
    run.add_argument("--score-threshold", type=int, help="points to win (official: 20)")
    _play_options(run)
    add_rating_options(run)
    run.set_defaults(func=run_tournament)

    ch = sub.add_parser("challenge", help="a challenger plays the whole field of a tournament")
    ch.add_argument("--field", required=True, metavar="DIR", help="a tournament folder")
    ch.add_argument("--challenger", required=True, metavar="NAME=SPEC")
    ch.add_argument("--seed", type=int, help="root seed (default: drawn now and published)")
    _play_options(ch)
    add_rating_options(ch)
    ch.set_defaults(func=run_challenge)

    an = sub.add_parser("analyse", help="Spearman of team metrics against Elo, with Holm")
    an.add_argument("folder", metavar="DIR", help="a tournament folder run with --metrics")
    an.add_argument("--top", type=int, default=20, help="rows to print (20)")
    an.add_argument("--csv", metavar="FILE", help="write the whole table as CSV")
    an.add_argument("--png", metavar="FILE", help="plot the six strongest measures against Elo")
    an.set_defaults(func=run_analyse)


def _play_options(parser) -> None:
    parser.add_argument("--batch", type=int, help="games a vmapped batch (default: from G)")
    parser.add_argument("--devices", type=int, help="host CPU devices to shard batches over")
    parser.add_argument("--replays", action="store_true", help="write a replay a game")
    parser.add_argument("--metrics", choices=("none", "priority", "full"), default="none")
    parser.add_argument("--processes", type=int, default=1, help="jax.distributed processes")
    parser.add_argument("--process-id", type=int, default=0, help="this process (0..P-1)")
    parser.add_argument("--coordinator", metavar="HOST:PORT", help="process 0's address")
    parser.add_argument("--quiet", action="store_true", help="no progress bar or lines")


class GameRate:
    """Progress of a run on stderr with games per minute: rich's bar on a terminal, a plain
    line at every tenth of the games elsewhere."""

    def __init__(self, quiet: bool, label: str = "mbg tournament"):
        self.quiet, self.total, self.done, self.bar = quiet, 0, 0, None
        self.label = label
        self.start = time.perf_counter()

    def begin(self, total: int) -> None:
        self.total, self.start = total, time.perf_counter()
        if self.quiet or total == 0 or not sys.stderr.isatty():
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.bar = Progress(
            TextColumn("games"), BarColumn(), MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}"), TimeElapsedColumn(),
            console=Console(stderr=True), transient=True,
        )  # fmt: skip
        self.bar.start()
        self.task = self.bar.add_task("games", total=total, rate="")

    def rate(self) -> float:
        return 60.0 * self.done / max(time.perf_counter() - self.start, 1e-9)

    def advance(self, count: int) -> None:
        before, self.done = self.done, self.done + count
        if self.bar is not None:
            self.bar.update(self.task, advance=count, rate=f"{self.rate():.0f} games/min")
        elif not self.quiet and self.total:
            step = max(1, self.total // 10)
            if before // step != self.done // step or self.done == self.total:
                print(f"{self.label}: {self.done}/{self.total} games, "
                      f"{self.rate():.0f} games/min", file=sys.stderr, flush=True)  # fmt: skip

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _start_jax(args):
    """Host devices, jax.distributed and the compile cache, before JAX starts; returns
    evaluation.tournament.Options for this process."""
    from evaluation.engine_bench import set_host_devices

    if args.devices is not None:
        if args.devices < 1:
            raise ValueError(f"--devices {args.devices}: must be 1 or more")
        set_host_devices(args.devices)
    if not 0 <= args.process_id < max(args.processes, 1):
        raise ValueError(f"--process-id {args.process_id}: must be in 0..{args.processes - 1}")
    import jax

    if args.processes > 1:
        if not args.coordinator:
            raise ValueError("--processes needs --coordinator HOST:PORT (process 0's address)")
        jax.distributed.initialize(args.coordinator, args.processes, args.process_id)
    from cli.train import enable_compile_cache
    from evaluation.tournament import Options

    enable_compile_cache()
    if args.batch is not None and args.batch < 1:
        raise ValueError(f"--batch {args.batch}: must be 1 or more")
    return Options(args.batch, args.replays, args.metrics, args.process_id, args.processes)


def _barrier(options, name: str) -> None:
    if options.processes > 1:
        from jax.experimental import multihost_utils

        multihost_utils.sync_global_devices(name)


def _play(folder, manifest, matchups, options, quiet) -> None:
    from evaluation.tournament import play_matchups

    progress = GameRate(quiet)
    try:
        played, _ = play_matchups(
            folder, manifest, matchups, options, progress.advance, progress.begin
        )
    finally:
        progress.stop()
    seconds = time.perf_counter() - progress.start
    who = f"process {options.process}: " if options.processes > 1 else ""
    print(f"{who}{played} games played in {seconds:.0f} s ({progress.rate():.0f} games/min, "
          "compilation included)", file=sys.stderr)  # fmt: skip


def run_tournament(args) -> int:
    """Open or resume the tournament folder, play what is missing, print the leaderboard."""
    from cli.maps import map_specs
    from evaluation import tournament_store as store
    from evaluation.tournament import open_tournament, parse_entrants

    entrants = parse_entrants(args.entrants)
    map_specs(args.maps, "--maps")  # unknown ids or bad files fail before any game
    check_rating_options(args)
    check_root_seed(args.seed)
    folder = output_folder(args.out, "--out")  # before JAX starts, as the other options
    options = _start_jax(args)
    if options.process == 0:
        rules = {"horizon": args.horizon, "score_threshold": args.score_threshold}
        rules = {k: v for k, v in rules.items() if v is not None}
        manifest = open_tournament(
            folder, entrants, args.maps, args.games_per_pair, args.seed, rules
        )
    _barrier(options, "manifest")
    if options.process != 0:
        manifest = store.read_manifest(folder)
    _play(folder, manifest, manifest["matchups"], options, args.quiet)
    _barrier(options, "played")
    if options.process == 0:
        _report(folder, args)
    return 0


def _report(folder, args) -> list:
    """Merge the parts into DIR/results.parquet, print and write the leaderboard."""
    from evaluation import tournament_store as store

    table = store.merge(folder)
    if not table.height:
        raise ValueError(f"{folder}: no finished games to rate")
    print(f"{folder}: {table.height} games")
    return rate_and_report(table, args)


def run_challenge(args) -> int:
    """Open or resume a challenge, play it, refit everything and record the decision."""
    from evaluation.rating import fit_ratings
    from evaluation.tournament_challenge import challenge_matchups, decide, open_challenge

    check_rating_options(args)
    check_root_seed(args.seed)  # None: drawn at play time
    options = _start_jax(args)
    if options.processes > 1:
        raise ValueError("--processes: challenge runs in one process")
    folder = Path(args.field)
    manifest, challenge = open_challenge(folder, args.challenger, args.seed)
    print(f"challenge {challenge['name']} (seed {challenge['seed']}) against "
          f"{', '.join(challenge['field'])}", file=sys.stderr)  # fmt: skip
    _play(folder, manifest, challenge_matchups(manifest, challenge), options, args.quiet)
    _report(folder, args)
    if not challenge["decided"]:
        from evaluation import tournament_store as store

        ratings = fit_ratings(store.read_results(folder), interval="fisher")  # point fit
        challenge = decide(folder, manifest, challenge, ratings)
    verdict = f"replaced {challenge['replaced']}" if challenge["replaced"] else "was not admitted"
    print(
        f"challenger {challenge['name']} ({challenge['challenger_elo']:.0f} Elo) {verdict}; "
        f"lowest of the field it met: {challenge['lowest']} ({challenge['lowest_elo']:.0f})"
    )
    return 0


def run_analyse(args) -> int:
    """The teamwork table (and plot) of a tournament folder played with --metrics."""
    from evaluation.tournament_analysis import analyse_folder, print_analysis

    check_outputs(args, ("csv", "png"))
    result = analyse_folder(Path(args.folder))
    print_analysis(result, args.top)
    from fileio import write_new_file

    if args.csv:
        write_new_file(Path(args.csv), result.table.write_csv().encode())
    if args.png:
        from evaluation.tournament_plots import measures_png

        write_new_file(Path(args.png), measures_png(result.per_entrant, result.elo, result.table))
    return 0
