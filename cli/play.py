"""`mbg play`: headless games between any Systems, with a replay file a game on request.

mbg play --maps 47 --team-a scripted:kiter --team-b scripted:tactician --games 20 --out runs/x
mbg play --maps validation --slots "A0=random,A1-A4=scripted:brawler,B*=scripted:tactician"
mbg play --maps 47 --team-a random --team-b random --json
mbg play --maps my_maps/arena.json --team-a scripted:kiter --team-b random

Games come in pairs on the same map, roster and seed with the spawn ends swapped (--no-swap
turns that off); maps cycle over the selection, which may name map files (a path, or NAME.json).
Slot kinds: random, scripted:NAME, checkpoint:PATH, llm:CONFIG.json or llm:MODEL@URL (see
policies/slotspec.py); --workers N plays N host-stepped games at once (LLM games overlap their
calls). Games here are headless: for human players use `battleclient`.
"""

import argparse
import json
import sys
from pathlib import Path

from cli.maps import add_maps_option
from cli.progress import game_progress
from fileio import output_folder

INFO_REGIMES = ("shared_obs", "no_shared_obs")
METRIC_LEVELS = ("none", "priority", "full")


def register(subparsers) -> None:
    """Adds the `play` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="play headless games between Systems (scripted bots, checkpoints, ...)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_maps_option(parser, "validation", old="--map")
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--slots", metavar="SPEC", help='e.g. "A0=random,A1-A4=scripted:kiter,..."')
    who.add_argument("--team-a", metavar="SPEC", help="System of every Team A slot")
    parser.add_argument("--team-b", metavar="SPEC", help="System of every Team B slot")
    parser.add_argument(
        "--roster",
        default="MWHRP/MWHRP",
        help='roster(s), comma separated (MWHRP/MWHRP); "random": MWHRP shuffled, a pair',
    )
    parser.add_argument("--games", type=int, default=2, help="number of games (2)")
    parser.add_argument("--seed", type=int, default=0, help="root seed; pair k uses seed + k")
    parser.add_argument("--out", metavar="DIR", help="write one replay a game into DIR")
    parser.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    parser.add_argument("--metrics", choices=METRIC_LEVELS, default="none", help="with --out")
    parser.add_argument("--info-regime", choices=INFO_REGIMES, default="shared_obs")
    parser.add_argument("--score-threshold", type=int, default=None, help="points to win (20)")
    parser.add_argument("--horizon", type=int, default=None, help="ticks before a draw (300)")
    parser.add_argument("--no-swap", action="store_true", help="do not swap spawn ends in pairs")
    parser.add_argument(
        "--headless",
        action="store_true",
        help="accepted as in battleclient --headless: every game here is headless",
    )
    parser.add_argument(
        "--mode", choices=("auto", "batch", "host"), default="auto", help="see evaluation.match"
    )
    parser.add_argument(
        "--workers", type=int, default=1, help="host-stepped games at once (1; LLM Systems)"
    )
    parser.set_defaults(func=run)


def _config(args):
    from engine.types import Config

    values = {"shared_obs": args.info_regime == "shared_obs"}
    for field in ("score_threshold", "horizon"):
        value = getattr(args, field)
        if value is None:
            continue
        try:
            Config(**{field: value})  # the engine holds the ranges (engine/types.py)
        except ValueError as error:
            raise ValueError(f"--{field.replace('_', '-')} {value}: {error}") from None
        values[field] = value
    return Config(**values)


def _slot_text(args) -> str:
    """The slot spec of --slots, or of --team-a/--team-b. Raises ValueError naming the option at
    fault ("--team-b foo: unknown kind 'foo'; ...")."""
    from policies.slotspec import check_kind_spec, team_spec

    if args.slots is not None:
        if args.team_b is not None:
            raise ValueError("--team-b goes with --team-a, not with --slots")
        return args.slots
    if args.team_b is None:
        raise ValueError("--team-a needs --team-b")
    for option, spec in (("--team-a", args.team_a), ("--team-b", args.team_b)):
        check_kind_spec(spec, f"{option} {spec}" if spec.strip() else option)
    return team_spec(args.team_a, args.team_b)


def _option_at_fault(args) -> str:
    """Which option's System failed to build: --slots, or whichever of --team-a/--team-b fails
    when built alone (built again only on this error path), e.g. "--team-b scripted:zz"."""
    from policies.slotspec import check_system

    if args.slots is not None:
        return "--slots"
    try:
        check_system(args.team_a, "--team-a")
    except ValueError:
        return f"--team-a {args.team_a}"
    return f"--team-b {args.team_b}"


def _slots_option(args) -> str:
    """The option(s) that gave the slot spec, as its errors start: "--slots A9=random", or
    "--team-a X --team-b Y"."""
    if args.slots is not None:
        return f"--slots {args.slots}" if args.slots.strip() else "--slots"
    return f"--team-a {args.team_a} --team-b {args.team_b}"


def _refuse_humans(specs, args) -> None:
    """A human slot would stand still for the whole game: nobody can steer it here. The
    message names the option that gave it (with the slots, for --slots) and the BattleClient
    command that plays them."""
    from policies.slotspec import is_human

    humans = [s for s, spec in enumerate(specs) if is_human(spec)]
    if humans:
        from battleclient.game_setup import slots_text
        from engine.constants import slot_label

        if args.slots is not None:
            where = f"--slots {args.slots} ({', '.join(slot_label(s) for s in humans)})"
        else:
            teams = (("--team-a", args.team_a), ("--team-b", args.team_b))
            where = ", ".join(f"{option} {spec}" for option, spec in teams if is_human(spec))
        raise ValueError(
            f"{where}: human slots need a window and mbg play has none (even with --headless); "
            f'play them in the BattleClient: battleclient --map {args.maps} --slots "'
            f'{slots_text(specs)}"'
        )


def replay_name(row: dict) -> str:
    """File name of a game's replay: game number, map id and Team A's spawn end."""
    end = ("west", "east")[row["spawn_end"]]
    return f"game{row['game']:04d}_map{row['map_id']:02d}_A{end}.mbgr"


def print_results(results) -> None:
    """The per-game table with every column shown (polars hides middle columns as "…" at its
    default width), long runs cut to their first and last games; `outcome` is left out (the
    winner says it in words) and Team A's spawn end is a word, as `mbg replay info` writes it."""
    import polars as pl

    options = dict(tbl_cols=-1, tbl_rows=20, tbl_width_chars=160, tbl_hide_column_data_types=True)
    ends = pl.col("spawn_end").replace_strict({0: "west", 1: "east"}, return_dtype=pl.String)
    table = results.drop("outcome", strict=False).with_columns(ends.alias("spawn_end"))
    with pl.Config(**options, tbl_hide_dataframe_shape=True):
        print(table.rename({"spawn_end": "A_starts"}))


def llm_warnings(results) -> list[str]:
    """One line for each LLM System none of whose decisions got a legal reply in any game
    (an endpoint down, a wrong model name, replies never parsed): otherwise the only sign is a
    zero among the llm_ columns, and the games look merely dull. Column prefixes as
    evaluation.match names them ("", "A_", "B_")."""
    lines = []
    for column in (c for c in results.columns if c.endswith("llm_decisions")):
        prefix = column.removesuffix("llm_decisions")
        decisions, calls, legal = (
            int(results[f"{prefix}llm_{name}"].sum())
            for name in ("decisions", "calls", "legal_replies")
        )
        if not decisions or legal:
            continue
        who = f"team {prefix[:-1]}'s LLM agents" if prefix else "the LLM agents"
        why = (
            "no call was answered (is the endpoint up, and the model name right?)"
            if not calls
            else f"none of the {calls} answered calls gave a legal action"
        )
        lines.append(
            f"{who}: {why}; all {decisions} decisions played the fallback no-op "
            "(the reasons are in each replay's decisions)"
        )
    return lines


def _check_out(text: str) -> Path:
    """--out as the folder for the replays, made now, or refused before any game is played
    (empty, a file, below a file, already holding replays, not writable: `output_folder`
    makes a file there to be sure). Raises ValueError, FileExistsError or PermissionError
    naming the folder."""
    out = output_folder(text, "--out")
    if out.exists() and any(out.glob("game*.mbgr")):
        raise FileExistsError(f"--out {out}: already holds replays; choose an empty folder")
    out.mkdir(parents=True, exist_ok=True)
    return out


def _play(args, lineup, setups, config, out, bar):
    """Plays (recording when there is an output folder); returns (results, replay paths)."""
    from evaluation.match import play_match
    from evaluation.record import record_games
    from evaluation.replay import write_replay

    written: list[str] = []

    def advance(*_):
        if bar:
            bar.advance()

    def on_replay(setup, row, replay):
        if args.metrics != "none":
            from evaluation.metrics import compute_metrics

            replay.metrics = compute_metrics(replay, args.metrics, game=str(row["game"]))
        written.append(str(write_replay(out / replay_name(row), replay)))
        advance()

    if out is None:
        results = play_match(
            lineup, setups, config, mode=args.mode, on_game=advance, host_workers=args.workers
        )
        return results, written
    results, _ = record_games(
        lineup, setups, config, on_replay=on_replay, metrics_level=args.metrics,
        seeds={"root": args.seed}, mode=args.mode, host_workers=args.workers,
    )  # fmt: skip
    return results, written


def _repeat_note(specs, setups) -> str:
    """Why some games will repeat exactly, or "": deterministic Systems (scripted bots, greedy
    checkpoints) on the same map, roster and spawn end play the same game whatever the seed."""
    seeded = [s for s in specs if s and not (s.startswith("scripted:") or s.endswith("#greedy"))]
    layouts = {(s.map.id, tuple(s.roster), s.spawn_end) for s in setups if s.state is None}
    if seeded or len(layouts) >= len(setups):
        return ""
    return (
        f"every System here is deterministic, so the {len(setups)} games are only "
        f"{len(layouts)} different ones (same map, roster and spawn end play alike); "
        "use --roster random or several maps for variety"
    )


def run(args) -> int:
    """Plays the games, writes the replays, prints a summary; returns the exit code."""
    from cli.maps import map_specs
    from evaluation.match import roster_list, schedule, summary, unplayed_rosters_note
    from evaluation.seeds import check_root_seed
    from policies.slotspec import parse_slots, resolve_slots

    if args.games < 1:
        raise ValueError(f"--games {args.games}: must be at least 1")
    if args.workers < 1:
        raise ValueError(f"--workers {args.workers}: must be at least 1")
    check_root_seed(args.seed)
    if args.metrics != "none" and args.out is None:
        raise ValueError("--metrics needs --out: metrics travel inside the replay files")
    config = _config(args)
    specs = parse_slots(_slot_text(args), _slots_option(args))
    _refuse_humans(specs, args)
    rosters = roster_list(args.roster, "--roster")  # a bad roster fails before any game
    maps = map_specs(args.maps, "--maps")
    setups = schedule(maps, rosters, args.games, args.seed, swap_ends=not args.no_swap)
    unplayed = unplayed_rosters_note(rosters, args.games, len(maps), "--roster", not args.no_swap)
    if unplayed:
        print(f"mbg play: note: {unplayed}", file=sys.stderr)
    rosters_used = {tuple(s.roster) for s in setups}
    try:
        lineup = resolve_slots(specs, setups[0].roster if len(rosters_used) == 1 else None)
    except (ValueError, OSError) as error:  # name the option: the factories' errors do not
        raise ValueError(f"{_option_at_fault(args)}: {error}") from None
    out = None if args.out is None else _check_out(args.out)
    repeats = _repeat_note(lineup.specs, setups)
    if repeats:
        print(f"mbg play: note: {repeats}", file=sys.stderr)
    bar = game_progress(len(setups), args.json, "mbg play")
    try:
        results, written = _play(args, lineup, setups, config, out, bar)
    finally:
        if bar:
            bar.stop()
    report = {"systems": list(lineup.specs), **summary(results), "replays": written}
    for line in llm_warnings(results):
        print(f"mbg play: warning: {line}", file=sys.stderr)
    if args.json:
        report["results"] = results.to_dicts()
        print(json.dumps(report))
    else:
        print_results(results)
        print(
            f"{report['games']} games: A wins {report['a_wins']}, B wins {report['b_wins']}, "
            f"draws {report['draws']}; mean ticks {report['mean_ticks']:.1f}"
        )
        if written:
            print(f"{len(written)} replays in {out}")
    return 0
