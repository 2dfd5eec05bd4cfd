"""`mbg replay`: facts about replay files, and re-simulation checks.

mbg replay info game.mbgr [more.mbgr | folder ...] [--json]
mbg replay verify game.mbgr [more.mbgr | folder ...]

`verify` re-plays each replay's submitted actions through the engine from its tick-0 state and
compares every tick; it exits with status 1 naming the first tick (and field) that differs.
"""

import argparse
import json


def register(subparsers) -> None:
    """Adds the `replay` subcommand with `info` and `verify`."""
    parser = subparsers.add_parser(
        "replay",
        help="inspect or re-simulate replay files",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="replay_command", metavar="ACTION", required=True)
    info = actions.add_parser("info", help="header and result of replays")
    info.add_argument("paths", nargs="+", help="*.mbgr files or folders of them")
    info.add_argument("--json", action="store_true", help="print one JSON object a replay")
    info.set_defaults(func=run_info)
    verify = actions.add_parser("verify", help="re-simulate replays and compare every tick")
    verify.add_argument("paths", nargs="+", help="*.mbgr files or folders of them")
    verify.set_defaults(func=run_verify)


def run_info(args) -> int:
    """Prints `replay_summary` of each file (one JSON line each with --json); returns 0."""
    from evaluation.replay import read_replay, replay_paths, replay_summary

    files = replay_paths(args.paths)
    for n, path in enumerate(files):
        facts = replay_summary(read_replay(path))
        if args.json:
            print(json.dumps(facts))
            continue
        if len(files) > 1:
            print(("\n" if n else "") + f"== {path}")
        width = max(len(k) for k in facts)
        for key, value in facts.items():
            print(f"{key:<{width}}  {value}")
    return 0


def run_verify(args) -> int:
    """Re-simulates each file; prints one line a file; returns 1 if any does not reproduce."""
    from evaluation.record import first_difference
    from evaluation.replay import read_replay, replay_paths

    failed = 0
    for path in replay_paths(args.paths):
        replay = read_replay(path)
        found = first_difference(replay)
        if found is None:
            print(f"{path}: ok, {replay.ticks} ticks reproduce")
        else:
            failed += 1
            print(f"{path}: differs first at tick {found[0]} ({found[1]})")
    return 1 if failed else 0
