"""`mbg scenarios`: list, validate, verify, solve and run the endgame scenarios (scenarios/).

    mbg scenarios list [--json]
    mbg scenarios validate [FILE_OR_ID ...]      every problem of every file at once
    mbg scenarios verify [FILE_OR_ID ...]        re-simulate every stored line; exit 1 if one fails
    mbg scenarios solve FILE_OR_ID [--depth N] [--budget N] [--positions N] [--deeper] [--json]
    mbg scenarios run --systems SPEC ... [--scenarios 1,2] [--games N] --out DIR
                      [--json] [--csv FILE] [--parquet FILE] [--devices N]

FILE_OR_ID: a scenario id (the number its file name starts with, in scenarios/ or in the folder
both apps save positions to, ui.paths.scenario_dir: the BattleClient's Scenarios screen numbers
those after the shipped ones) or a file path. `run --scenarios all` is the shipped ones alone.
"""

import json
import sys
from collections import Counter
from pathlib import Path

from evaluation import scenarios as S
from fileio import output_folder, output_options
from ui.explain import counted
from ui.paths import scenario_dir

# The actions in the order `register` adds them; `mbg --help` names them from here.
ACTIONS = ("list", "validate", "verify", "solve", "run")


FILE_OR_ID_HELP = (
    "a scenario id (the number its file name starts with, in scenarios/ or in the folder the "
    "apps save positions to) or a scenario file's path"
)


def register(subparsers) -> None:
    parser = subparsers.add_parser("scenarios", help=f"endgame scenarios: {', '.join(ACTIONS)}")
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    p = sub.add_parser("list", help="the scenarios with their skill, arena, horizon and hash")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_list)
    p = sub.add_parser("validate", help="check scenario files; report every problem at once")
    p.add_argument("names", nargs="*", metavar="FILE_OR_ID", help=FILE_OR_ID_HELP)
    p.set_defaults(func=run_validate)
    p = sub.add_parser("verify", help="re-simulate every stored winning line")
    p.add_argument("names", nargs="*", metavar="FILE_OR_ID", help=FILE_OR_ID_HELP)
    p.set_defaults(func=run_verify)
    p = sub.add_parser("solve", help="search the focal team's joint actions for winning lines")
    p.add_argument("name", metavar="FILE_OR_ID", help=FILE_OR_ID_HELP)
    p.add_argument("--depth", type=int, default=None, help="ticks to search (default horizon)")
    p.add_argument("--budget", type=int, default=20000, help="children a pass steps before pruning")
    p.add_argument("--positions", type=int, default=50_000, help="open positions kept a depth")
    p.add_argument("--deeper", action="store_true", help="go on past the first winning depth")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=run_solve)
    p = sub.add_parser("run", help="Systems as the focal team on the scenarios")
    p.add_argument("--systems", nargs="+", required=True, metavar="SPEC")
    p.add_argument("--scenarios", default="all", help="ids or files, comma-separated")
    p.add_argument("--games", type=int, default=256, help="seeds for Systems that sample")
    p.add_argument("--out", required=True, metavar="DIR", help="a new folder for the replays")
    p.add_argument("--json", action="store_true")
    p.add_argument("--csv", metavar="FILE", help="also write the table as CSV")
    p.add_argument("--parquet", metavar="FILE", help="also write the table as Parquet")
    p.add_argument(
        "--devices",
        type=int,
        default=None,
        help="host CPU devices to split each batch of games over (default: one a core, "
        "the largest power of two the cores allow)",
    )
    p.set_defaults(func=run_run)


def folders() -> tuple[Path, Path]:
    """Where an id is looked up: the shipped scenarios, then the apps' saved positions."""
    return (S.SCENARIOS_DIR, scenario_dir())


def _names(names) -> list:
    return list(names) if names else [str(p) for p in S.scenario_files()]


def run_list(args) -> int:
    rows, bad = [], 0
    for path in S.scenario_files():
        try:
            s = S.load_scenario_file(path)
        except S.ScenarioError as error:
            print(error, file=sys.stderr)
            bad += 1
            continue
        rows.append({
            "id": s.id, "title": s.title, "skill": s.skill, "arena": s.arena.name,
            "focal": "AB"[s.focal_team], "horizon": s.horizon, "lines": len(s.lines),
            "controller": s.controller, "start_hash": s.start_hash[:12], "file": path.name,
        })  # fmt: skip
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(f"{'id':>3}  {'title':<26} {'skill':<22} {'arena':<16} ticks lines hash")
        for r in rows:
            print(
                f"{r['id']:>3}  {r['title']:<26.26} {r['skill']:<22.22} {r['arena']:<16.16} "
                f"{r['horizon']:>5} {r['lines']:>5} {r['start_hash']}"
            )
        print(f"{len(rows)} scenarios in {S.SCENARIOS_DIR}")
    return 1 if bad else 0


def run_validate(args) -> int:
    bad = 0
    for name in _names(args.names):
        try:
            s = S.load_scenario(name, folders())
            print(f"ok   {s.source}: scenario {s.id} ({s.start_hash[:12]})")
        except (S.ScenarioError, ValueError) as error:
            bad += 1
            print(f"FAIL {error}")
    return 1 if bad else 0


def run_verify(args) -> int:
    from evaluation import scenario_lines as L

    failed = checked = broken = 0
    for name in _names(args.names):
        try:
            s = S.load_scenario(name, folders())
        except S.ScenarioError as error:  # a broken file fails the run; the others still play
            broken += 1
            print(f"FAIL {error}")
            continue
        if not s.lines:
            print(f"scenario {s.id}: no verified line to check ({s.source.name})")
        for line, played in L.verify(s):
            checked += 1
            ok = L.line_holds(s, line, played)
            failed += not ok
            verdict = "wins" if ok else "FAILS"
            print(
                f"scenario {s.id} {line!r}: {verdict} in {counted(played.ticks, 'tick')}, score "
                f"{played.score[0]}-{played.score[1]} ({s.start_hash[:12]})"
            )
    unread = f"; {counted(broken, 'file')} did not load" if broken else ""
    print(f"{checked - failed} of {checked} lines win{unread}")
    return 1 if failed or broken or not checked else 0


def run_solve(args) -> int:
    from cli.train import enable_compile_cache
    from evaluation import scenario_lines as L
    from evaluation import scenario_search as Q

    enable_compile_cache()  # a second solve of the same rules skips the compile
    s = S.load_scenario(args.name, folders())
    _check_solve_args(args, s.horizon, s.id)
    report = Q.solve(
        s, depth=args.depth, budget=args.budget, deeper=args.deeper, positions=args.positions
    )
    found = [
        L.line_document(f"found {i + 1}", t, s.focal_slots)
        for i, t in enumerate(report.lines.values())
    ]
    if args.json:
        print(json.dumps(_solve_summary(s, report, found), indent=1))
        return 0 if found else 1
    return _print_solve(s, report, found, Q.P.KEY_NAMES)


def _check_solve_args(args, horizon: int, scenario_id: int) -> None:
    """Raise ValueError naming the option of `mbg scenarios solve` that is out of range."""
    if args.depth is not None and not 1 <= args.depth <= horizon:
        raise ValueError(
            f"--depth {args.depth}: must be 1-{horizon} (scenario {scenario_id}'s horizon)"
        )
    if args.budget < 1:
        raise ValueError(f"--budget {args.budget}: must be 1 or more")
    if args.positions < 1:
        raise ValueError(f"--positions {args.positions}: must be 1 or more")


def _solve_summary(s, report, found: list) -> dict:
    """The --json object of a solve: the search's figures and the winning lines found."""
    return {
        "scenario": s.id, "start_hash": s.start_hash, "first_win_depth": report.first_win_depth,
        "shortest_proven": report.shortest_proven, "exhaustive": report.exhaustive,
        "pruned_at": report.pruned_at, "hidden_from": report.hidden_from,
        "first_tick_actions": report.first_tick_actions,
        "first_tick_winning": report.first_tick_winning, "depths": report.depths,
        "seconds": round(report.seconds, 1), "peak_rss_mib": round(report.peak_rss_mib),
        "lines": found,
    }  # fmt: skip


def _print_solve(s, report, found: list, key_names) -> int:
    """Print a solve for a person: each depth, how the search ended, the lines found; returns
    the exit status (1 when no winning line was found). key_names: the pruning's ranking keys."""
    print(
        f"scenario {s.id} {s.title} ({s.start_hash[:12]}), {report.seconds:.1f} s, "
        f"peak {report.peak_rss_mib:.0f} MiB resident"
    )
    for d in report.depths:
        opened = (
            "open positions not counted (the last depth searched)" if d["unique_open"] is None
            else f"{d['unique_open']} distinct open positions"
        )  # fmt: skip
        print(
            f"  depth {d['depth']}: {d['frontier']} positions, {d['children']} joint actions "
            f"({d['stepped']} stepped), {d['wins']} win, {d['decided_otherwise']} decided "
            f"otherwise, {opened}"
        )
    how = "exhaustive" if report.exhaustive else (
        f"pruned (positions kept in turn by {', '.join(key_names)}; depth, positions, "
        f"kept: {report.pruned_at}; wins may be hidden from depth {report.hidden_from} on)"
    )  # fmt: skip
    print(f"search: {how}")
    if report.first_win_depth is None:
        print("no winning line found")
        return 1
    shortest = "no shorter line exists" if report.shortest_proven else "shorter lines may exist"
    print(f"first win at depth {report.first_win_depth} ({shortest})")
    print(
        f"first-tick joint actions from which a win was found: {report.first_tick_winning} of "
        f"{report.first_tick_actions} ({100 * report.first_tick_fraction:.2f}%"
        f"{'' if report.exhaustive else '; pruned: at least this many'})"
    )
    print(f"{len(found)} distinct combat plans win:")
    for line in found:
        print(json.dumps(line))
    return 0


def scenario_names(text: str) -> list[str] | None:
    """`--scenarios` (ids or files, comma-separated; "all": None); an empty entry is an error."""
    if text == "all":
        return None
    names = [name.strip() for name in text.split(",")]
    if not all(names):
        raise ValueError(f"--scenarios {text!r}: an empty entry between commas")
    return names


def _use_devices(devices: int | None) -> None:
    """Ask XLA for `devices` host devices (None: a power of two up to the CPU cores, so a
    batch of `scenario_batch.BATCH` games splits evenly); ValueError unless 1 <= devices and
    it divides the batch."""
    import os

    from evaluation.engine_bench import set_host_devices
    from evaluation.scenario_batch import BATCH

    if devices is None:
        devices = 1 << (max(os.cpu_count() or 1, 1).bit_length() - 1)
        devices = min(devices, BATCH)
    if devices < 1 or BATCH % devices:
        raise ValueError(f"--devices {devices}: must be 1 or more and divide {BATCH}")
    set_host_devices(devices)


def run_run(args) -> int:
    from cli.train import enable_compile_cache
    from evaluation import scenario_run as R
    from policies.slotspec import check_headless_system

    if args.games < 1:
        raise ValueError(f"--games {args.games}: must be 1 or more")
    _use_devices(args.devices)  # before JAX starts its CPU backend
    out = output_folder(args.out, "--out")
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"--out {out}: not empty; choose a new folder")
    tables = output_options(args, ("csv", "parquet"))  # checked now, written after every game
    for spec in args.systems:  # a bad later System would otherwise fail after the first played
        check_headless_system(spec, f"--systems {spec}", "mbg scenarios run")
    scenarios = S.load_scenarios(scenario_names(args.scenarios), folders())
    counts = Counter(s.start_hash for s in scenarios)
    twice = [s.id for s in scenarios if counts[s.start_hash] > 1]
    if twice:  # their replays would share names: refused before any game, not 20 s in
        raise ValueError(f"--scenarios {args.scenarios}: scenario {twice[0]} is named twice")
    out.mkdir(parents=True, exist_ok=True)  # only once the scenarios load

    def progress(row):
        print(
            f"{row['system']:<28.28} scenario {row['scenario']}: {row['solved']}/{row['games']} "
            f"solved",
            file=sys.stderr,
        )

    def system_done(spec, games, seconds):
        print(f"{spec}: {games} games in {seconds:.1f} s", file=sys.stderr)

    enable_compile_cache()  # a later run of the same Systems loads the compiled programs
    table, figures = R.run_all(scenarios, args.systems, args.games, out, progress, system_done)
    import io

    from fileio import write_new_file  # atomic, never over an existing file

    if "csv" in tables:
        write_new_file(tables["csv"], table.write_csv().encode())
    if "parquet" in tables:
        buffer = io.BytesIO()
        table.write_parquet(buffer)
        write_new_file(tables["parquet"], buffer.getvalue())
    if args.json:
        print(json.dumps({"rows": table.to_dicts(), **figures}, indent=1))
        return 0
    print(R.table_text(table))
    print(
        f"{figures['games']} games in {figures['wall_s']:.1f} s wall (compilation included), "
        f"{figures['games_per_s']:.1f} games/s; replays in {out}"
    )
    return 0
