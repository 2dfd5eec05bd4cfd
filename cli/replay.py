"""`mbg replay`: facts about replay files, and re-simulation checks.

mbg replay info game.mbgr [more.mbgr | folder ...] [--json] [--recursive]
mbg replay verify game.mbgr [more.mbgr | folder ...] [--systems] [--recursive]
mbg replay export FOLDER [more ...] --to DIR [--format gif|mp4] [--from T] [--until T] [-r] ...

`verify` checks that a replay was recorded under this engine's rules version (naming both
when not), recomputes every header field the game determines (result, score, ticks, map,
spawn end, roster, team sizes) from the recorded states, then re-plays the submitted actions
from the tick-0 state and compares every tick, naming the first tick (and field) that differs;
`--systems` also re-runs the recorded Systems from the recorded seed. Both go through every
file: one that cannot be read is named on stderr with the reason. Exit status: 0 when every
file passed; 2 when some file could not be read or the arguments name no replay at all (bad
input, the status of every refusal in cli.main); 1 when every file was read and some did not
reproduce.
A folder means its own *.mbgr files; `--recursive` also reads those in its subfolders, at
any depth.
"""

import argparse
import json
import os
import sys
from pathlib import Path


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
    _recursive_option(info)
    info.set_defaults(func=run_info)
    verify = actions.add_parser("verify", help="re-simulate replays and compare every tick")
    verify.add_argument("paths", nargs="+", help="*.mbgr files or folders of them")
    verify.add_argument(
        "--systems",
        action="store_true",
        help="also re-run the recorded Systems from the recorded seed (checks the seed; slow)",
    )
    _recursive_option(verify)
    verify.set_defaults(func=run_verify)
    from replay_viewer.export_cli import register_batch  # pygame is imported only on export

    _recursive_option(register_batch(actions))


def _recursive_option(parser) -> None:
    parser.add_argument(
        "--recursive",
        "-r",
        action="store_true",
        help="a folder's subfolders too, at any depth (default: only the folder's own files)",
    )


def _report(action: str, path, error: Exception) -> None:
    """One stderr line naming the file and the reason (the reason's own leading path dropped)."""
    reason = str(error).removeprefix(f"{path}: ")
    print(f"mbg replay {action}: {path}: {reason}", file=sys.stderr)


def _reader_gone() -> int:
    """stdout's reader has closed the pipe (`mbg replay info FOLDER | head`): stop printing
    and blame no file. stdout is pointed at /dev/null so that Python's flush at exit stays
    quiet (the recipe of the Python docs, signal module, "Note on SIGPIPE"). Returns 1."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):  # a stdout with no file descriptor (a test's capture)
        pass
    return 1


def _exit_code(action: str, passed: int, failed: int, refused: int) -> int:
    """The exit status of a run over replays, with one stderr line counting the files at fault:
    2 when some could not be read (bad input, the status of every refusal in cli.main), else
    1 when some were read but did not pass (`verify`: did not reproduce), else 0."""
    total = passed + failed + refused
    counts = [(refused, "could not be read"), (failed, "did not pass")]
    said = "; ".join(f"{n} of {total} {what}" for n, what in counts if n)
    if said:
        print(f"mbg replay {action}: {said}", file=sys.stderr)
    return 2 if refused else 1 if failed else 0


def _run_all(paths, action: str, each, recursive: bool = False) -> int:
    """Runs each(n, path, replay) -> bool over every replay file the arguments name (a folder's
    own files; with `recursive` its subfolders' too), n the number that passed before it. A
    path naming no replay, a file that cannot be read and a ValueError or OSError from `each`
    (a header this engine cannot check) are reported on stderr, one line each, and the rest go
    on. Returns 0 when every file passed, 2 when some were refused or the arguments name no
    replay file at all, 1 when every file was read and some did not pass (_exit_code)."""
    from evaluation.replay import read_replay, replay_paths

    found = passed = failed = refused = 0
    for name in paths:
        try:
            files = replay_paths([name], recursive=recursive)
        except OSError as error:
            _report(action, name, error)
            refused += 1
            continue
        for path in files:
            found += 1
            try:
                ok = each(passed, path, read_replay(path))
            except BrokenPipeError:  # a subclass of OSError, but no file is at fault
                return _reader_gone()
            except (ValueError, OSError) as error:
                _report(action, path, error)
                refused += 1
                continue
            passed, failed = passed + ok, failed + (not ok)
    if not found:
        return 2
    return _exit_code(action, passed, failed, refused)


def _teams(values, show) -> str:
    """Per-slot values (10,) -> "A: ... / B: ...", each team's run of equal values as one."""
    half = len(values) // 2
    parts = []
    for name, team in (("A", values[:half]), ("B", values[half:])):
        shown = [show(v) for v in team]
        text = f"{shown[0]} x{len(shown)}" if len(set(shown)) == 1 else ", ".join(shown)
        parts.append(f"{name}: {text}")
    return " / ".join(parts)


def readable_facts(facts: dict) -> dict:
    """`replay_summary` facts as text for a person: classes by letter, per-team lists, the map
    by name; keys without a rule here are shown as they are."""
    from engine import constants as C
    from evaluation.replay_verify import rules_name, rules_version

    def letter(class_id):
        return C.CLASS_GLYPHS[class_id] if class_id else "-"

    def rules_line(version):
        ours = rules_version()
        if version == ours:
            return version
        return (
            f"{rules_name(version)}; this engine runs {rules_name(ours)}: facts as recorded; "
            "mbg replay verify cannot re-simulate it"
        )

    rules = {
        "rules_version": rules_line,
        "map": lambda m: f"{m['id']} {m['name']} ({m['split']})",
        "roster": lambda r: " / ".join(
            "".join(letter(c) for c in team) for team in (r[: len(r) // 2], r[len(r) // 2 :])
        ),
        "team_sizes": lambda t: f"{t[0]}v{t[1]}",
        "systems": lambda s: _teams(s, lambda v: str(v) or "-"),
        "spawn_end": lambda e: f"Team A {'east' if e else 'west'}",
        "seeds": lambda d: ", ".join(f"{k} {v}" for k, v in d.items()),
        "score": lambda s: f"A {s[0]} - B {s[1]}",
        "deaths": lambda d: f"A {d[0]}, B {d[1]}",
        "takebacks": lambda t: f"{len(t)} (undone: tick {', '.join(str(x) for x in t)})",
        "parent": lambda p: f"{p['replay']} from tick {p['tick']} (sha256 {p['sha256'][:12]})",
    }
    out = {}
    for key, value in facts.items():
        if key == "outcome_name":
            continue  # shown with the outcome code
        if key == "outcome":
            out[key] = f"{facts.get('outcome_name', '')} ({value})".strip()
            continue
        try:
            out[key] = rules[key](value) if key in rules else value
        except (KeyError, IndexError, TypeError):  # an unusual value: shown as stored
            out[key] = value
    return out


def run_info(args) -> int:
    """Prints `replay_summary` of each file (one JSON line each with --json). Every file is
    tried; each unreadable one is named on stderr. Returns 0, or 2 when some file could not
    be read."""
    from evaluation.replay import replay_summary

    several = len(args.paths) > 1 or any(Path(p).is_dir() for p in args.paths)

    def info(n, path, replay) -> bool:
        facts = replay_summary(replay)
        if args.json:
            print(json.dumps(facts))
            return True
        if several:
            print(("\n" if n else "") + f"== {path}")
        lines = readable_facts(facts)
        width = max(len(k) for k in lines)
        for key, value in lines.items():
            print(f"{key:<{width}}  {value}")
        return True

    return _run_all(args.paths, "info", info, args.recursive)


def ok_line(ticks: int, systems: bool, human: bool = False) -> str:
    """What a replay that checks out was checked for: without --systems its header "seeds"
    and "systems" are not, since only re-running the Systems tests them
    (evaluation.replay_verify.systems_difference), nor with it when a human played."""
    if systems and human:
        why = "header.seeds and systems not checked: a human played in this game"
        return f"ok, header and {ticks} ticks reproduce; {why}"
    if systems:
        return f"ok, header, {ticks} ticks and the Systems re-run from header.seeds reproduce"
    unchecked = "header.seeds and systems not checked (--systems re-runs them)"
    return f"ok, header and {ticks} ticks reproduce; {unchecked}"


def run_verify(args) -> int:
    """Re-simulates each file; prints one line a file; after trying every file returns 2 if
    any cannot be read (each named on stderr), else 1 if any does not reproduce, else 0."""
    from evaluation.replay_verify import human_played
    from evaluation.replay_verify import verify as check

    systems = getattr(args, "systems", False)

    def verify(n, path, replay) -> bool:
        problems = check(replay, systems=systems)
        if not problems:
            print(f"{path}: {ok_line(replay.ticks, systems, human_played(replay.header))}")
            return True
        for problem in problems:
            print(f"{path}: {problem}")
        return False

    return _run_all(args.paths, "verify", verify, args.recursive)
