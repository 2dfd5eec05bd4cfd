"""The BattleClient's command line (argparse): the lobby's setup, plus scripting switches."""

import argparse
from pathlib import Path

from battleclient.game_setup import (
    LIMITS,
    METRIC_LEVELS,
    REGIMES,
    SPAWN_ENDS,
    SPLIT_NAMES,
    VIEW_HELP,
    VIEWS,
    ClientSetup,
    parse_map_choice,
    parse_roster,
)
from battleclient.map_catalog import read_catalog
from engine.maps import MapError, is_map_path, load_map_path
from fileio import output_folder, output_options
from ui.rules import C

REFUSAL = "the file exists; refusing to overwrite it"
HEADLESS_SLOTS = "A*=scripted:tactician,B*=scripted:tactician"


def parse_args(argv=None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="battleclient",
        description="Play Team Deathmatch with people, scripted bots or trained checkpoints "
        "in any of the ten slots; every game is saved as a replay.",
    )
    add = parser.add_argument
    add("--map", help="map id (0-51, or 52+ for your own maps/NNN_*.json), a split "
        "(curriculum, train, validation, test, custom, all: a map drawn from it with the seed), "
        "or a map file's path (e.g. my_map.json; maps/README.md)")  # fmt: skip
    add("--slots", help='who plays each slot, e.g. "A0=human,A1-A4=scripted:tactician,'
        'B*=scripted:kiter" (kinds: human, random, scripted:NAME, checkpoint:PATH[#greedy]); '
        "given without --lobby, the game starts at once")  # fmt: skip
    add("--roster", help="classes per slot, Team A/Team B: M W H R P, - for an empty slot "
        "(e.g. MWHRP/MWHRP, MW/HR)")  # fmt: skip
    add("--seed", type=int, help="game seed (keys of random Systems, random map and spawn end)")
    add("--info-regime", choices=REGIMES, help="shared_obs (relayed rows) or no_shared_obs")
    add("--spawn-end", choices=SPAWN_ENDS, help="where Team A starts")
    add("--score-threshold", type=int, help="points that win the game (default 20)")
    add("--horizon", type=int, help="ticks before a draw (default 300), as `mbg play --horizon`")
    add("--max-ticks", type=int, help=argparse.SUPPRESS)  # --horizon's older name (OLD_NAMES)
    add("--turn-clock", type=int, metavar="S", help="seconds a team has for its orders, then "
        "they lock in as they stand (hotseat play; default 0: no clock)")  # fmt: skip
    add("--metrics", choices=METRIC_LEVELS, help="metrics the replay records (default full: "
        "every Replay Viewer panel works; evaluation.metrics)")  # fmt: skip
    add("--no-repeat-orders", dest="repeat_orders", action="store_const", const=False,
        help="human orders do not repeat each tick (O toggles it in the game)")  # fmt: skip
    add("--headless", action="store_true", help="no window: play machine slots to the end, "
        "save the replay, print the result")  # fmt: skip
    add("--replay-out", metavar="FILE", help="write the replay here (never over an "
        "existing file); default: ~/.local/share/marl-battlegrounds/replays/")  # fmt: skip
    add("--screenshot", metavar="PNG", help="play (humans hold still), save one "
        "frame after --after-ticks ticks, exit")  # fmt: skip
    add("--after-ticks", type=int, default=0, metavar="N", help="ticks before --screenshot")
    add("--lobby", action="store_true", help="open the lobby even when --slots is given")
    add("--from-replay", type=Path, metavar="FILE", help="play on from a tick of this replay "
        "(its map, roster, rules and seed; its Systems unless --slots is given)")  # fmt: skip
    add("--tick", type=int, metavar="N", help="with --from-replay: the tick to start from")
    add("--view", choices=VIEWS, help=f"what you see: {VIEW_HELP}")
    add("--no-animation", dest="animate", action="store_false", help="show each tick's result "
        "at once (no gliding units, attack lines or captions)")  # fmt: skip
    study = parser.add_argument_group("human-AI study (seed 000, section 7.8)")
    study.add_argument("--study", metavar="PARTICIPANT", help="play one study game under the "
                       "study preset (tournament rules unless --horizon/--score-threshold, "
                       "map 47 unless --map, agent POV), then "
                       "the questionnaire; replay and study.csv go to --study-dir")  # fmt: skip
    study.add_argument("--condition", default="beside", choices=("beside", "against"),
                       help="beside: you play A0 with AI partners; against: you play all of "
                       "Team A against the AI (default beside)")  # fmt: skip
    study.add_argument("--study-ai", metavar="SPEC", help="the AI's slot spec (default: the "
                       "released checkpoint)")  # fmt: skip
    study.add_argument("--study-view", default="agent", help=VIEW_HELP)
    study.add_argument("--study-dir", metavar="DIR", help="study replays and "
                       "study.csv (default: DATA/study beside the replays folder)")  # fmt: skip
    args = parser.parse_args(argv)
    for option, (old, old_flag) in OLD_NAMES.items():
        if getattr(args, old) is not None:
            if getattr(args, option) is not None:  # else the last typed would win unsaid
                parser.error(f"{old_flag} is the old name of {flag_of(option)}: give one")
            setattr(args, option, getattr(args, old))
    return args


# option -> (the attribute and flag of its older name, which sets the same setup field)
OLD_NAMES = {"horizon": ("max_ticks", "--max-ticks")}


def flag_of(option: str, args: argparse.Namespace | None = None) -> str:
    """The flag of an option attribute as the user typed it: "--score-threshold" for
    "score_threshold"; "--max-ticks (--horizon)" for "horizon" given by its old name."""
    flag = "--" + option.replace("_", "-")
    old = OLD_NAMES.get(option)
    if old is not None and getattr(args, old[0], None) is not None:
        return f"{old[1]} ({flag})"
    return flag


def study_options(args: argparse.Namespace) -> list[str]:
    """The study options given, by flag ("--study" first; --condition and --study-view when
    not their defaults): `--study ""` counts, being a bad participant id, not "no study"."""
    given = (("--study", args.study is not None), ("--study-ai", args.study_ai is not None),
             ("--study-dir", args.study_dir is not None),
             ("--condition", args.condition != "beside"),
             ("--study-view", args.study_view != "agent"))  # fmt: skip
    return [option for option, on in given if on]


# What the study preset decides (battleclient.study.StudyPreset.setup: slots from --condition
# and --study-ai, the roster, the rules, metrics; the replay goes to --study-dir), so these
# options, which the study game would drop, are refused with --study: attribute -> flag
STUDY_DECIDES = {
    "slots": "--slots",
    "roster": "--roster",
    "info_regime": "--info-regime",
    "spawn_end": "--spawn-end",
    "turn_clock": "--turn-clock",
    "metrics": "--metrics",
    "repeat_orders": "--no-repeat-orders",
    "view": "--view",
    "replay_out": "--replay-out",
    "lobby": "--lobby",
}


def _refuse_with_a_study(args: argparse.Namespace) -> None:
    """Raises ValueError naming the first STUDY_DECIDES option given with --study (each is
    None when not given; --lobby is False)."""
    for name, flag in STUDY_DECIDES.items():
        unset = False if name == "lobby" else None
        if getattr(args, name, unset) is not unset:
            raise ValueError(
                f"{flag}: a study game is set by the study preset (--condition, --study-ai, "
                f"--study-view, --map, --seed, --horizon, --score-threshold, --study-dir); drop "
                f"{flag}"
            )


def study_preset(args: argparse.Namespace):
    """The StudyPreset of --study and its options (None without --study). Raises ValueError
    naming the option at fault."""
    if args.study is None:
        given = study_options(args)
        if given:  # a study option without --study would be dropped unseen
            raise ValueError(f"{given[0]}: only with --study PARTICIPANT")
        return None
    if args.headless:
        raise ValueError("--study: a study game needs its participant: drop --headless")
    _refuse_with_a_study(args)
    from battleclient.study import DEFAULT_AI, STUDY_MAP, StudyPreset, study_dir
    from policies.slotspec import parse_slots

    if args.study_ai is not None and not args.study_ai.strip():
        raise ValueError(f"--study-ai: is empty; give a slot spec or leave it out ({DEFAULT_AI})")
    ai = args.study_ai or DEFAULT_AI
    parse_slots(f"*={ai}", where=f"--study-ai {ai}")  # refused here, not later in the lobby
    folder = study_folder(args.study_dir) or study_dir()
    try:
        return StudyPreset(
            participant=args.study, condition=args.condition, ai=ai,
            map=map_option(args.map) if args.map else STUDY_MAP, seed=args.seed or 0,
            sight=args.study_view, folder=str(folder),
            score_threshold=args.score_threshold or C.SCORE_THRESHOLD,
            horizon=args.horizon or C.HORIZON,
        )  # fmt: skip
    except ValueError as error:
        raise ValueError(f"--study: {error}") from None


def study_folder(path) -> Path | None:
    """--study-dir checked before the study starts (fileio.output_folder: not empty, not a
    file, not below one), or None when it was not given. Raises ValueError or
    FileExistsError naming the option and the path."""
    return None if path is None else output_folder(path, "--study-dir")


def id_ranges(ids: list[int]) -> str:
    """Sorted ids as runs: [0, 1, 2, 5, 61, 62] -> "0-2, 5, 61-62"."""
    runs: list[list[int]] = []
    for i in ids:
        if runs and i == runs[-1][1] + 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def map_option(text: str) -> str:
    """--map's value as a setup's map field: a split, the id of a map file in the maps folder,
    or a map file's path (checked now with engine.maps.load_map_path, as `mbg play --maps`).

    Raises ValueError for an id without a map file, naming it with the valid ids and splits
    (rather than the engine's file pattern when the game starts), or a MapError naming the
    file, the field and the reason."""
    choice = parse_map_choice(text)
    if is_map_path(choice):
        try:
            load_map_path(choice)
        except MapError as error:
            raise ValueError(f"--map: {error}") from None
        return choice
    ids = sorted({entry.id for entry in read_catalog() if entry.by_id})
    if not choice.isdigit() or int(choice) in ids:
        return choice
    valid = id_ranges(ids)
    raise ValueError(
        f"--map {text}: unknown map id {choice}; valid ids: {valid}; "
        f"splits: {', '.join(SPLIT_NAMES)}; or a map file's path (.json)"
    )


def _check_number(flag: str, field: str, value: int) -> None:
    """A whole-number option within game_setup.LIMITS, else a ValueError naming the option
    `flag` (as flag_of gives it) and the allowed range (rather than the setup field it fills),
    e.g. "--horizon 20000000: must be a whole number from 1 to 16,777,216"."""
    low, high = LIMITS[field]
    if not low <= value <= high:
        raise ValueError(f"{flag} {value}: must be a whole number from {low:,} to {high:,}")


def _check_text(field: str, value: str) -> None:
    """--roster (engine.pool.parse_roster grammar, as `mbg play --roster`) and an empty --slots,
    else a ValueError naming the option rather than the setup field it fills, e.g. "--roster
    MQ: roster 'MQ': unknown class letter 'Q' ...". The slot grammar is checked later: its
    parser imports JAX, which the window's thread leaves to the engine thread."""
    if field == "roster":
        try:
            parse_roster(value)
        except ValueError as error:
            raise ValueError(f"--roster {value}: {error}") from None
    if field == "slots" and not value.strip():
        raise ValueError("--slots: is empty; e.g. 'A*=human,B*=scripted:kiter'")


def check_outputs(args: argparse.Namespace) -> None:
    """Refuse a --replay-out or --screenshot that cannot be a new file before the game
    (fileio.output_file: empty, a folder, below a file, or an existing file, which is never
    written over), and leave each given one as a Path in `args`. Raises ValueError or
    OSError naming the option and the path."""
    checked = output_options(args, ("replay_out", "screenshot"), refusal=REFUSAL)
    vars(args).update(checked)


# option -> the ClientSetup field it sets
SETUP_OPTIONS = {
    "map": "map",
    "slots": "slots",
    "roster": "roster",
    "seed": "seed",
    "info_regime": "info_regime",
    "spawn_end": "spawn_end",
    "score_threshold": "score_threshold",
    "horizon": "horizon",
    "turn_clock": "turn_clock",
    "metrics": "metrics",
    "repeat_orders": "repeat_orders",
    "view": "view",
}


def _setup_changes(args: argparse.Namespace, options) -> dict:
    """{setup field: value} of the given `options` (SETUP_OPTIONS keys), each checked: numbers
    within LIMITS, --roster and --slots text, --map's id or file. Raises ValueError naming
    the option."""
    changes = {}
    for option in options:
        field = SETUP_OPTIONS[option]
        value = getattr(args, option, None)  # a Namespace made without the newer options
        if value is None:
            continue
        if field in LIMITS:
            _check_number(flag_of(option, args), field, value)
        if field in ("roster", "slots"):
            _check_text(field, value)
        changes[field] = map_option(value) if field == "map" else value
    return changes


def _check_after_ticks(after_ticks: int, horizon: int | None = None, whose="--horizon"):
    """--after-ticks (a game tick) 0 or more and, given the game's `horizon` (set by `whose`),
    at most that. Raises ValueError naming the option and the bound."""
    if after_ticks < 0:
        raise ValueError(f"--after-ticks {after_ticks}: must be 0 or more")
    if horizon is not None and after_ticks > horizon:
        raise ValueError(
            f"--after-ticks {after_ticks}: the game ends by tick {horizon} "
            f"({whose}); choose 0 to that"
        )


def setup_from_args(args: argparse.Namespace, base: ClientSetup | None) -> ClientSetup:
    """The command line over `base` (the last setup; defaults when None). Raises ValueError
    naming the option at fault, or a file that must not be overwritten."""
    setup = base or ClientSetup(slots=HEADLESS_SLOTS if args.headless else ClientSetup.slots)
    changes = _setup_changes(args, SETUP_OPTIONS)
    check_outputs(args)
    _check_after_ticks(args.after_ticks)
    setup = setup.replace(**changes)
    _check_after_ticks(args.after_ticks, setup.horizon)
    return setup


# what a branched game takes from its parent replay, so these options are refused with it
FROM_PARENT = ("map", "roster", "seed", "info_regime", "spawn_end", "score_threshold", "horizon")
# what it takes from the command line (--slots, when given, replaces the parent's Systems)
BRANCH_OWN = ("turn_clock", "metrics", "repeat_orders", "view")


def _refuse_with_a_branch(args: argparse.Namespace) -> None:
    """Options a game played on from a replay cannot honour, each refused naming it: one the
    parent replay decides (FROM_PARENT), a study option (a study game starts from its own
    preset, map and seed: battleclient.study), --lobby (the game opens at the tick) and
    --headless. Raises ValueError."""
    for option in FROM_PARENT:
        if getattr(args, option) is not None:
            flag = flag_of(option, args)
            raise ValueError(f"{flag}: a game played on from a replay keeps the replay's")
    study = study_options(args)
    if study:
        raise ValueError(
            f"{study[0]}: a study game starts from the study's own setup, not from a replay; "
            f"drop --from-replay or {study[0]}"
        )
    if args.lobby:
        raise ValueError("--lobby: a game played on from a replay opens at --tick, not the lobby")
    if args.headless:
        raise ValueError("--from-replay: opens the window; --headless is not supported with it")


def branch_from_args(args: argparse.Namespace):
    """(setup, Branch) of `--from-replay FILE --tick N [--slots SPEC]`, or (None, None)
    without --from-replay. Raises ValueError naming the option at fault (a missing --tick, an
    option the branch cannot honour: _refuse_with_a_branch, a value out of range, a file that
    does not read) or FileNotFoundError."""
    from battleclient.branching import load_branch

    if args.from_replay is None:
        if args.tick is not None:
            raise ValueError("--tick: only with --from-replay FILE")
        return None, None
    if args.tick is None:
        raise ValueError("--from-replay: give the tick to play on from with --tick N")
    _refuse_with_a_branch(args)
    own = _setup_changes(args, ("slots", *BRANCH_OWN))  # `--slots ""` is refused, not dropped
    _check_after_ticks(args.after_ticks)  # before the replay is read
    setup, branch = load_branch(args.from_replay, args.tick, own.pop("slots", None))
    setup = setup.replace(**own)
    _check_after_ticks(args.after_ticks, setup.horizon, "the replay's horizon")
    check_outputs(args)
    return setup, branch
