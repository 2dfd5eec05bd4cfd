"""`mbg train ALGORITHM ...` (train or resume a run) and `mbg eval CHECKPOINT --vs SPEC ...`.

    mbg train ippo --steps 200000 --out runs/x            # fresh run; or ippo-ff, mappo, mappo-rnn
    mbg train pqn-vdn --steps 200000 --out runs/pqn       # PQN-VDN (training.pqn_vdn); or qmix
    mbg train ippo --steps 400000 --out runs/x --resume   # continue it, exactly
    mbg train ippo --out runs/x --select best.msgpack     # the best policy by validation
    mbg eval policies/released/ippo_v1.msgpack --vs scripted:brawler --maps validation \
        --games 200 --json

Evaluation plays side-swapped games: the checkpoint plays Team A in the first half and Team B
in the second, and within each half spawn ends alternate game by game (same map, roster and seed
for a pair). Win, draw and loss rates come with 95% Wilson score intervals.
"""

import argparse
import json
import math
import os
import sys
import time
from pathlib import Path

from cli.maps import add_maps_option
from evaluation.seeds import check_root_seed
from fileio import output_file, output_folder

# Learners by name: (module in training/, its config class, its run(config, out, resume,
# steps, show) -> (runner, policy path)).
LEARNERS = {
    "ippo": ("training.ippo", "IPPOConfig", "run"),
    "ippo-ff": ("training.ippo_ff", "IPPOFFConfig", "run"),
    "mappo": ("training.mappo", "MAPPOConfig", "run"),
    "mappo-rnn": ("training.mappo", "MAPPORNNConfig", "run_rnn"),
    "qmix": ("training.qmix", "QMIXConfig", "run"),
    "pqn-vdn": ("training.pqn_vdn", "PQNConfig", "run"),
}
ALGORITHMS = tuple(LEARNERS)


def learner(name: str):
    """(config class, run function) of a learner name in LEARNERS."""
    import importlib

    module_name, cls_name, run_name = LEARNERS[name]
    module = importlib.import_module(module_name)
    return getattr(module, cls_name), getattr(module, run_name)


def register(subparsers) -> None:
    """Add the `train` and `eval` subcommands."""
    train = subparsers.add_parser(
        "train", help="train a learner (IPPO, feed-forward IPPO, MAPPO, QMIX, PQN-VDN)"
    )
    train.add_argument("algorithm", choices=ALGORITHMS)
    train.add_argument("--config", help="JSON or TOML file of the learner's config fields")
    train.add_argument("--steps", type=int, help="total env-steps (ticks x games) to reach")
    train.add_argument("--out", help="run directory (default runs/ALGORITHM)")
    train.add_argument("--resume", action="store_true", help="continue the run in --out")
    train.add_argument("--seed", type=int, help="PRNG seed (fresh runs only)")
    train.add_argument("--quiet", action="store_true", help="no progress bar or log lines")
    train.add_argument(
        "--select",
        metavar="PATH",
        help="no training: write the run's best policy by validation (validate_every > 0) "
        "to PATH (.msgpack) with PATH's .config.json and .selection.json beside it",
    )
    train.add_argument(
        "--devices",
        type=int,
        help="CPU cores to split the games and updates over (fresh runs; default: the "
        "config's devices, 1): 2 trains about 1.3x faster on two cores, as a different run",
    )
    train.set_defaults(func=run_train)

    ev = subparsers.add_parser("eval", help="evaluate a policy checkpoint against a System")
    ev.add_argument("checkpoint", help="policy file (e.g. policies/released/ippo_v1.msgpack)")
    ev.add_argument("--vs", required=True, help="opponent slot-spec kind, e.g. scripted:brawler")
    add_maps_option(ev, "validation")
    ev.add_argument("--games", type=int, default=200, help="games in all (default 200)")
    ev.add_argument("--roster", default="MWHRP", help="roster(s), comma separated, as "
                    "`mbg play --roster` (default MWHRP)")  # fmt: skip
    ev.add_argument("--rosters", dest="roster", help=argparse.SUPPRESS)  # the older name
    ev.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    ev.add_argument("--greedy", action="store_true", help="most likely action, not sampled")
    ev.add_argument("--json", action="store_true", help="print the record as JSON")
    ev.set_defaults(func=run_eval)


def enable_compile_cache() -> None:
    """Reuse XLA compilations across runs (MBG_JAX_CACHE=dir, or empty to switch off)."""
    import jax

    path = os.environ.get("MBG_JAX_CACHE", str(Path.home() / ".cache" / "mbg" / "jax"))
    if path:
        jax.config.update("jax_compilation_cache_dir", path)
        # every compile: a game's start runs hundreds of eager ops (match.start's observation),
        # each compiled in about 50 ms and loaded from the cache in about 4 ms
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)


def run_folder(args) -> str:
    """--out, or runs/ALGORITHM when it is not given; an empty --out is refused rather than
    read as not given (fileio.output_folder). Raises ValueError or FileExistsError."""
    if args.out is None:
        return f"runs/{args.algorithm}"
    return str(output_folder(args.out, "--out"))


def _requested_devices(args, common):
    """The run's `devices` setting before any config is built: --devices, else the --config
    file's, else (on --resume) the saved run's; None when none sets it."""
    if args.devices is not None:
        return args.devices
    saved = Path(args.out) / "config.json"
    for path in (args.config, saved if args.resume and saved.exists() else None):
        if path:
            return common.read_config_document(path).get("devices")
    return None


def _run_config(args, config, cls, common):
    """The config the run will use: --config, else the resumed run's own, else the defaults."""
    saved = Path(args.out) / "config.json"
    if config is None and args.resume and saved.exists():
        doc = json.loads(saved.read_text())
        config = common.config_from_dict(cls, doc, str(saved))
    return config or cls()


def run_train(args) -> int:
    """Train or resume; prints the exported policy file (and on stderr how --steps rounds)."""
    import dataclasses

    from evaluation.engine_bench import set_host_devices
    from training import common, runs

    if args.select is not None:  # an empty --select is refused, not read as "train"
        from training.validation import select_policy

        output_file(args.select, "--select", refusal="exists; choose another --select path")
        args.out = run_folder(args)  # the same default as training
        if not (Path(args.out) / "config.json").is_file():
            raise ValueError(
                f"--out {args.out}: no run here (no config.json); name the run's folder"
            )
        chosen = select_policy(Path(args.out), Path(args.select))["selected"]
        print(f"selected: {args.select} ({chosen['env_steps']} env-steps, validation margin "
              f"{chosen['margin']:+.2f} points a game)")  # fmt: skip
        return 0
    check_root_seed(args.seed)  # the learner's PRNG key is jax.random.key(seed) too
    if args.steps is not None and args.steps < 1:  # 0 would save an untrained "run"
        raise ValueError(
            f"--steps {args.steps}: train at least 1 env-step (ticks x games); "
            "leave --steps out for the config's total_steps"
        )
    enable_compile_cache()
    args.out = run_folder(args)
    devices = _requested_devices(args, common)
    if isinstance(devices, int) and devices > 1:
        # XLA reads its device count once, when JAX starts; building a config already starts
        # it (the scripted bots' tables), so the count comes from the raw settings first.
        set_host_devices(devices)
    cls, run = learner(args.algorithm)
    config = common.load_config(cls, args.config) if args.config else None
    for option in ("seed", "devices"):
        value = getattr(args, option)
        if value is None:
            continue
        if args.resume:
            raise ValueError(f"--{option}: a resumed run keeps its {option}")
        config = dataclasses.replace(config or cls(), **{option: value})
    runs.check_run_dir(Path(args.out), args.resume)  # before any note about the steps
    used = _run_config(args, config, cls, common)
    steps = used.total_steps if args.steps is None else args.steps
    note = runs.rounding_note(steps, used.steps_per_update, used.updates_per_log)
    if note:
        print(f"mbg train: {note}", file=sys.stderr)
    start = time.perf_counter()
    runner, policy = run(config, args.out, args.resume, args.steps, show=not args.quiet)
    print(f"policy: {policy} ({int(runner.update)} updates; "
          f"{time.perf_counter() - start:.0f} s in this session)")  # fmt: skip
    return 0


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of a proportion k / n ((0, 1) when n is 0)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # At k = 0 or k = n the bound is exactly 0 or 1; rounding would give 1e-17 or 0.99999...
    low = 0.0 if k == 0 else max(0.0, centre - half)
    return low, 1.0 if k == n else min(1.0, centre + half)


def record(wins: int, draws: int, losses: int) -> dict:
    """Counts, rates and 95% Wilson intervals of a win/draw/loss record."""
    games = wins + draws + losses
    out = {"games": games, "wins": wins, "draws": draws, "losses": losses}
    for name, k in (("win", wins), ("draw", draws), ("loss", losses)):
        out[f"{name}_rate"] = k / games if games else 0.0
        out[f"{name}_ci95"] = list(wilson(k, games))
    out["score"] = (wins + 0.5 * draws) / games if games else 0.0
    return out


def check_eval_games(games: int) -> None:
    """mbg eval's --games: even, 2 or more, half of them on each side. Raises ValueError."""
    if games < 2 or games % 2:
        raise ValueError(f"--games {games}: must be an even number, 2 or more (half a side)")


def evaluate(
    checkpoint: str,
    vs: str,
    maps="validation",
    games=200,
    rosters=("MWHRP",),
    seed=0,
    on_game=None,
) -> dict:
    """Play `games` side-swapped games of slot-spec kind `checkpoint` against `vs`; return the
    record from the checkpoint's side (see `record`) with per-side records and mean scores.
    "rosters" lists the rosters that played, "unplayed_rosters" those the games never reached
    (evaluation.match.played_roster_count). on_game: called after each game
    (evaluation.match.play_match's hook), e.g. for progress."""
    from evaluation.match import load_maps, play_match, played_roster_count, schedule
    from policies.slotspec import resolve_slots, team_spec

    check_eval_games(games)
    rosters = list(rosters)
    specs = load_maps(maps)  # once, for both sides' schedules
    played = played_roster_count(rosters, games, len(specs), sides=2)
    halves = {"A": games // 2, "B": games // 2}
    sides, points = {}, [0, 0]
    for side, count in halves.items():
        spec = team_spec(checkpoint, vs) if side == "A" else team_spec(vs, checkpoint)
        setups = schedule(specs, rosters, games=count, seed=seed)
        results = play_match(resolve_slots(spec), setups, on_game=on_game)
        mine, theirs = ("A", "B") if side == "A" else ("B", "A")
        sides[side] = record(
            int((results["winner"] == mine).sum()),
            int((results["winner"] == "draw").sum()),
            int((results["winner"] == theirs).sum()),
        )
        points[0] += int(results[f"score_{mine.lower()}"].sum())
        points[1] += int(results[f"score_{theirs.lower()}"].sum())
    total = record(*(sum(sides[s][k] for s in sides) for k in ("wins", "draws", "losses")))
    total.update(
        checkpoint=checkpoint,
        vs=vs,
        maps=",".join(str(getattr(m, "id", m)) for m in maps)
        if isinstance(maps, list)
        else str(maps),
        rosters=rosters[:played],
        unplayed_rosters=rosters[played:],
        seed=seed,
        mean_points_for=points[0] / games,
        mean_points_against=points[1] / games,
        by_side=sides,
    )
    return total


def run_eval(args) -> int:
    """Evaluate and print the record (table or JSON)."""
    from cli.maps import map_specs
    from cli.progress import game_progress
    from evaluation.match import roster_list, unplayed_rosters_note
    from policies.checkpoints import GREEDY_SUFFIX, load_policy
    from policies.slotspec import check_headless_system

    maps = map_specs(args.maps, "--maps")  # an unknown id or a bad file fails before any game
    check_root_seed(args.seed)
    enable_compile_cache()
    load_policy(args.checkpoint)  # fail early with the file's own error message
    check_headless_system(args.vs, f"--vs {args.vs}", "mbg eval")
    spec = f"checkpoint:{args.checkpoint}" + (GREEDY_SUFFIX if args.greedy else "")
    start = time.perf_counter()
    rosters = roster_list(args.roster, "--roster")
    check_eval_games(args.games)  # before the note, which counts half the games a side
    unplayed = unplayed_rosters_note(rosters, args.games, len(maps), "--roster", sides=2)
    if unplayed:
        print(f"mbg eval: note: {unplayed}", file=sys.stderr)
    bar = game_progress(args.games, args.json, "mbg eval")
    try:
        advance = (lambda *_: bar.advance()) if bar else None
        result = evaluate(spec, args.vs, maps, args.games, rosters, args.seed, advance)
    finally:
        if bar:
            bar.stop()
    result["maps"] = args.maps  # as the user wrote it, not the loaded maps
    result["seconds"] = round(time.perf_counter() - start, 1)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(f"{args.checkpoint} vs {args.vs} on maps {args.maps}: {result['games']} games")
    for name in ("win", "draw", "loss"):
        lo, hi = result[f"{name}_ci95"]
        rate = result[f"{name}_rate"]
        print(f"  {name:<5} {rate:6.1%}  (95% CI {lo:.1%} - {hi:.1%})")
    print(f"  points for / against per game: {result['mean_points_for']:.1f} / "
          f"{result['mean_points_against']:.1f}")  # fmt: skip
    return 0
