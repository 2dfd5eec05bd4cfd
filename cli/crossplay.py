"""`mbg crossplay run | report`: stranger cost, the cross-play matrix and spacing (seed 000, S9).

    mbg crossplay run --teams ippo=checkpoint:policies/released/ippo_v1.msgpack \\
        --strangers brawler=scripted:brawler kiter=scripted:kiter \\
        --opponents tactician=scripted:tactician --maps validation --pairs 10 --out runs/xp
    mbg crossplay run --teams a=SPEC b=SPEC c=SPEC --opponents brawler=scripted:brawler \\
        --out runs/matrix          # no --strangers: every team with every other's agents
    mbg crossplay report runs/xp

Every team plays side-swapped pairs (Team A west, then east) against every opponent with its
own agents (matched) and again with the agents of each set of --replace classes played by each
stranger (mixed), on the same maps and seeds. The report gives the stranger cost (matched minus
mixed margin, 95% intervals), the team x stranger matrix (diagonal: matched), each class's home
spacing, the stranger's stray from it and the correlation of stray with cost; it writes
cost.csv/.parquet, matrix.csv, spacing.csv, report.json and crossplay_cost.png into the folder.
Killed at any moment, the same command continues where it stopped.
"""

import argparse
import json
import sys
from pathlib import Path

from cli.maps import add_maps_option
from evaluation.seeds import check_root_seed


def register(subparsers) -> None:
    """Add `crossplay` with its run and report subcommands."""
    parser = subparsers.add_parser(
        "crossplay",
        help="stranger cost, cross-play matrix and spacing (zero-shot coordination)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="crossplay_command", metavar="ACTION", required=True)
    run = sub.add_parser("run", help="play (or resume) a cross-play run, then report it")
    run.add_argument("--teams", nargs="+", required=True, metavar="NAME=SPEC")
    run.add_argument("--strangers", nargs="+", metavar="NAME=SPEC", help="default: the teams")
    run.add_argument("--opponents", nargs="+", required=True, metavar="NAME=SPEC")
    add_maps_option(run, "validation")
    run.add_argument("--roster", default="MWHRP", help="mirrored roster, or random (MWHRP)")
    run.add_argument("--pairs", type=int, default=10, help="side-swapped pairs a cell (10)")
    run.add_argument("--replace", type=int, default=1, help="agents a stranger plays (1)")
    run.add_argument("--seed", type=int, default=0, help="first pair's seed (0)")
    run.add_argument("--out", required=True, metavar="DIR", help="the cross-play folder")
    run.add_argument("--batch", type=int, help="games a vmapped batch (default: up to 128)")
    run.add_argument("--devices", type=int, help="host CPU devices to shard batches over")
    run.add_argument("--quiet", action="store_true", help="no progress bar or lines")
    run.set_defaults(func=run_crossplay)
    report = sub.add_parser("report", help="tables, heat map and correlation of a folder")
    report.add_argument("folder", metavar="DIR")
    report.add_argument("--top", type=int, default=20, help="cost rows to print (20)")
    report.set_defaults(func=run_report)


def run_crossplay(args) -> int:
    from evaluation.engine_bench import set_host_devices

    if args.devices is not None:
        if args.devices < 1:
            raise ValueError(f"--devices {args.devices}: must be 1 or more")
        set_host_devices(args.devices)
    if args.batch is not None and args.batch < 1:
        raise ValueError(f"--batch {args.batch}: must be 1 or more")
    from cli.maps import map_specs
    from cli.tournament import GameRate
    from cli.train import enable_compile_cache
    from evaluation.crossplay import Plan
    from evaluation.crossplay_run import run
    from evaluation.tournament import check_entrants, parse_entrants

    map_specs(args.maps, "--maps")  # unknown ids or bad files fail before any game
    check_root_seed(args.seed)
    enable_compile_cache()
    teams = parse_entrants(args.teams)
    strangers = parse_entrants(args.strangers) if args.strangers else dict(teams)
    opponents = parse_entrants(args.opponents)
    plan = Plan(
        teams, strangers, opponents, args.maps, args.roster, args.pairs, args.replace, args.seed
    )
    # Before the manifest fixes the folder's plan (a resume needs the same entrants).
    for option, entrants in (("--teams", teams), ("--strangers", strangers),
                             ("--opponents", opponents)):  # fmt: skip
        check_entrants(entrants, option)
    progress = GameRate(args.quiet, "mbg crossplay")
    try:
        run(args.out, plan, args.batch, progress.begin, progress.advance)
    finally:
        progress.stop()
    return _report(Path(args.out), top=20)


def run_report(args) -> int:
    return _report(Path(args.folder), args.top)


def _report(folder: Path, top: int) -> int:
    from evaluation import crossplay_report as rep
    from evaluation.crossplay_run import read_parts
    from evaluation.tournament_store import frame_bytes, replace_file

    results = read_parts(folder)
    if not results.height:
        raise ValueError(f"{folder}: no cross-play results (run `mbg crossplay run` first)")
    cost, matrix = rep.cost_table(results), rep.matrix(results)
    spacing = rep.stranger_spacing(results)
    home = rep.home_spacing(results)
    correlation = rep.stray_correlation(cost, spacing) if cost.height else {}
    for name, frame in (("cost.csv", cost), ("matrix.csv", matrix), ("spacing.csv", spacing)):
        replace_file(folder / name, frame.write_csv().encode())
    replace_file(folder / "home_spacing.csv", home.write_csv().encode())
    replace_file(folder / "cost.parquet", frame_bytes(cost))
    report = {"games": results.height, "stray_vs_cost": correlation}
    replace_file(folder / "report.json", (json.dumps(report, indent=1) + "\n").encode())
    try:
        replace_file(folder / "crossplay_cost.png", rep.cost_png(matrix))
    except ValueError as error:  # matplotlib is an optional extra
        print(f"mbg crossplay: no heat map: {error}", file=sys.stderr)
    _print(matrix, cost, correlation, top, results.height)
    return 0


def _print(matrix, cost, correlation, top: int, games: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    table = Table(title=f"Cross-play matrix ({games} games): cost = matched - mixed margin")
    for column in ("team", "stranger", "games", "margin", "cost [95%]", "win rate"):
        table.add_column(column, justify="left" if column in ("team", "stranger") else "right")
    for row in matrix.iter_rows(named=True):
        table.add_row(
            row["team"], row["stranger"], str(row["games"]), f"{row['margin_mixed']:+.2f}",
            f"{row['cost']:+.2f} [{row['cost_lo']:+.2f}, {row['cost_hi']:+.2f}]",
            f"{row['win_rate_mixed']:.2f}",
        )  # fmt: skip
    console.print(table)
    if cost.height:
        detail = Table(title="Stranger cost by class and opponent (largest first)")
        for column in ("team", "stranger", "classes", "opponent", "games", "cost [95%]"):
            detail.add_column(column)
        for row in cost.sort("cost", descending=True).head(top).iter_rows(named=True):
            detail.add_row(
                row["team"], row["stranger"], row["classes"], row["opponent"],
                str(row["games"]),
                f"{row['cost']:+.2f} [{row['cost_lo']:+.2f}, {row['cost_hi']:+.2f}]",
            )  # fmt: skip
        console.print(detail)
    if correlation.get("pearson_r") is not None:
        console.print(
            f"spacing stray vs cost over {correlation['cells']} cells: Pearson r "
            f"{correlation['pearson_r']:+.2f} (p {correlation['pearson_p']:.2g}), Spearman rho "
            f"{correlation['spearman_rho']:+.2f} (p {correlation['spearman_p']:.2g})"
        )
