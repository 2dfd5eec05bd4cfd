"""The tournament: a round robin of entrants in mirrored 5v5 games, resumable, and its ratings.

Protocol (paper seed 000, section 5.2 and S5.2-S5.3): every entrant meets every other; a
matchup of G games is G / 2 side-swapped pairs, each pair on one map with one roster and one
published seed, Team A at the west end then the east end (`evaluation.match.schedule`). The
roster is mirrored, one agent of each class in a slot order drawn from the pair's seed
(`RANDOM_ROSTER`). Matchup m of a plan starts at seed `seed + m G / 2`, so every game of the
tournament has its own seed and the manifest publishes them all. The matchup's first entrant
plays Team A (both spawn ends); the engine gives each team the same view in its own frame.

Games run on the vmapped engine in batches (one compiled batch size), each batch sharded over
the host's devices along the game axis, and every finished batch is written at once as a
results part (`evaluation.tournament_store`). A rerun of the same command skips the games that
a part holds and plays the rest: the seeds fix every game, so nothing is lost, repeated or
changed. Across processes (`jax.distributed`) the batches are dealt out round-robin; each
process writes its own parts and the parts merge into one table.
"""

import datetime
import math
from dataclasses import dataclass
from pathlib import Path

import jax

from engine.constants import RULES_VERSION
from engine.types import Config
from evaluation import tournament_store as store
from evaluation.match import RANDOM_ROSTER, GameSetup, forget_compiled, result_row, schedule, start
from fileio import output_folder

MAX_BATCH = 128  # games a batch at most: more only waits longer for the slowest game
ROUND_ROBIN = "round robin"


@dataclass(frozen=True)
class Options:
    """How games are played: batch (games a batch, None = from the matchup size), replays
    (write one replay a game under DIR/replays), metrics ("none", "priority", "full": team-level
    values as columns), process / processes (this process's share of the batches)."""

    batch: int | None = None
    replays: bool = False
    metrics: str = "none"
    process: int = 0
    processes: int = 1


def parse_entrants(items) -> dict[str, str]:
    """["NAME=SPEC", ...] -> {name: spec} in the given order. SPEC is any one-System slot-spec
    kind (random, scripted:NAME, checkpoint:PATH[#greedy]). Raises ValueError naming the item."""
    from policies.slotspec import is_human, parse_slots

    entrants: dict[str, str] = {}
    for item in items:
        name, sep, spec = (part.strip() for part in item.partition("="))
        if not sep or not name or not spec:
            raise ValueError(
                f"entrant {item!r}: write NAME=SPEC, e.g. tactician=scripted:tactician"
            )
        if any(c in name for c in ",=#|") or name != name.strip():
            raise ValueError(f"entrant {item!r}: name {name!r} may not hold , = # or |")
        if name in entrants:
            raise ValueError(f"entrant {item!r}: the name {name!r} is used twice")
        if is_human(spec):
            raise ValueError(f"entrant {item!r}: tournaments are headless; no human slots")
        parse_slots(f"A*={spec}")  # an unknown kind fails here, before any game
        entrants[name] = spec
    return entrants


def check_entrants(entrants: dict[str, str], option: str = "") -> None:
    """Build each entrant's System once ({name: spec}), so an unknown bot name or a policy file
    that is missing or does not load is refused before a manifest fixes the folder's plan
    (a folder is resumed only with the same entrants). Raises ValueError naming the option
    (e.g. "--strangers", when given) and the entrant."""
    from policies.slotspec import check_system

    where = f"{option} " if option else ""
    for name, spec in entrants.items():
        check_system(spec, f"{where}entrant '{name}={spec}'")


def plan_matchups(pairs, games: int, seed: int, first_id: int, stage: str) -> list[dict]:
    """Matchup records for (a, b) name pairs: id, a, b, first seed, games, stage."""
    if games < 2 or games % 2:
        raise ValueError(f"--games-per-pair {games}: must be an even number, 2 or more")
    return [
        {"id": first_id + k, "a": a, "b": b, "seed": seed + k * games // 2, "games": games,
         "stage": stage}
        for k, (a, b) in enumerate(pairs)
    ]  # fmt: skip


def new_manifest(
    tournament: str, entrants: dict, maps: str, games: int, seed: int, rules: dict | None = None
) -> dict:
    """The manifest of a fresh round robin over `entrants` ({name: spec}, at least 2). rules:
    engine Config fields that differ from the official ones (short games in tests), {} else."""
    if len(entrants) < 2:
        raise ValueError(f"entrants: a tournament needs at least 2, got {len(entrants)}")
    if seed < 0:
        raise ValueError(f"seed: {seed} must be 0 or more")
    Config(**(rules or {}))  # bad rules fail here, before a manifest could keep them
    names = list(entrants)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]
    now = _now()
    return {
        "tournament": tournament,
        "maps": maps,
        "roster": RANDOM_ROSTER,
        "games_per_pair": games,
        "seed": seed,
        "rules": dict(rules or {}),
        "rules_version": RULES_VERSION,  # games of other rules are never mixed (RULES.md 8)
        "entrants": dict(entrants),
        "field": names,
        "matchups": plan_matchups(pairs, games, seed, 0, ROUND_ROBIN),
        "history": [
            {"event": "entered", "name": n, "stage": ROUND_ROBIN, "when": now} for n in names
        ],
    }


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def check_resume(saved: dict, wanted: dict, folder) -> None:
    """Refuse to continue a folder's tournament with different terms (ValueError naming the
    manifest field)."""
    fields = ("tournament", "rules_version", "maps", "games_per_pair", "seed", "rules", "entrants")
    for field in fields:
        if saved.get(field) != wanted.get(field):
            raise ValueError(
                f"{Path(folder) / store.MANIFEST}: {field} is {saved.get(field)!r}, this command "
                f"asks for {wanted.get(field)!r}; use the same command to resume, or a new --out"
            )


def matchup_setups(manifest: dict, matchup: dict) -> list[GameSetup]:
    """The matchup's games, in order: side-swapped pairs from its first seed."""
    return schedule(manifest["maps"], [manifest["roster"]], matchup["games"], matchup["seed"])


def batch_size(games: int, devices: int, batch: int | None = None) -> int:
    """Games a batch: `batch`, else the matchup in as few near-equal batches of at most
    MAX_BATCH as it takes; rounded up to a multiple of the device count."""
    size = batch or math.ceil(games / math.ceil(games / MAX_BATCH))
    return devices * math.ceil(size / devices)


def work_items(manifest: dict, matchups, done: set, batch: int | None, devices: int) -> list:
    """[(matchup, [GameSetup, ...]), ...]: the games no part holds yet, cut into batches and
    dealt round by round (every matchup's first batch, then every second batch...), so a run
    stopped early still holds about as many games of every matchup."""
    rounds: list[list] = []
    for matchup in matchups:
        todo = [
            s for s in matchup_setups(manifest, matchup) if (matchup["id"], s.index) not in done
        ]
        size = batch_size(matchup["games"], devices, batch)
        for k, lo in enumerate(range(0, len(todo), size)):
            if k == len(rounds):
                rounds.append([])
            rounds[k].append((matchup, todo[lo : lo + size]))
    return [item for batch_round in rounds for item in batch_round]


def game_row(manifest: dict, matchup: dict, setup: GameSetup, result: dict) -> dict:
    """One results row (tournament_store.RESULT_COLUMNS) of a finished game."""
    return {
        "tournament": manifest["tournament"],
        "matchup": matchup["id"],
        "pair": int(setup.seed),
        "game": int(setup.index),
        "seed": int(setup.seed),
        "map_id": result["map_id"],
        "map_name": result["map_name"],
        "spawn_end": result["spawn_end"],
        "roster": result["roster"],
        "entrant_a": matchup["a"],
        "entrant_b": matchup["b"],
        "spec_a": manifest["entrants"][matchup["a"]],
        "spec_b": manifest["entrants"][matchup["b"]],
        "winner": result["winner"],
        "score_a": result["score_a"],
        "score_b": result["score_b"],
        "ticks": result["ticks"],
    }


def play_sharded(config, lineup, setups: list[GameSetup], size: int) -> list[dict]:
    """Play setups (at most `size`) as one vmapped batch of `size` games sharded over the local
    devices along the game axis; returns their match.result_row dicts, in order."""
    from evaluation.match import _run_batch, _stack
    from evaluation.sharding import shard_games

    padded = list(setups) + [setups[-1]] * (size - len(setups))  # one compiled batch size
    games = shard_games(_stack([start(config, lineup, s) for s in padded]))
    final, _ = _run_batch(config, lineup, False, games)
    state = jax.device_get(final.state)
    return [result_row(s, jax.tree.map(lambda x, g=g: x[g], state)) for g, s in enumerate(setups)]


def team_metric_columns(frame) -> dict:
    """Team-scope metrics of a compute_metrics frame -> {"a__NAME": value, "b__NAME": value}."""
    from evaluation.metrics.catalog import BY_ID

    out = {}
    for metric, source, value in frame.select("metric", "source", "value").iter_rows():
        if BY_ID[metric].scope == "team" and source in (0, 1):
            out[f"{store.METRIC_SIDES[source]}{metric}"] = float(value)
    return out


def play_recorded(config, lineup, setups, size, folder: Path, options: Options, seeds) -> list:
    """Play setups with recording (replays and/or metrics); returns result dicts with the
    team-level metric columns added."""
    from evaluation.metrics import compute_metrics
    from evaluation.record import record_games
    from evaluation.replay import write_replay

    rows = []

    def on_replay(setup, row, replay):
        if options.metrics != "none":
            frame = compute_metrics(replay, options.metrics, game=str(setup.index))
            replay.metrics = frame
            row = {**row, **team_metric_columns(frame)}
        if options.replays:
            name = f"m{seeds['matchup']:04d}_g{setup.index:04d}_seed{setup.seed}.mbgr"
            path = folder / "replays" / name
            path.unlink(missing_ok=True)  # a replay without its part was never counted
            write_replay(path, replay)
        rows.append(row)

    record_games(
        lineup, setups, config, on_replay=on_replay, metrics_level=options.metrics,
        seeds=seeds, mode="batch", batch=size,
    )  # fmt: skip
    return rows


def play_items(folder: Path, manifest: dict, items, options: Options, on_games=None) -> int:
    """Play this process's share of the work items, writing a part after each batch; returns
    the number of games played. on_games(n) is called after each batch (progress)."""
    from policies.slotspec import resolve_slots, team_spec

    config, played, lineups = Config(**manifest["rules"]), 0, {}
    devices, specs = len(jax.local_devices()), manifest["entrants"]
    share = items[options.process :: options.processes]
    last_item = {matchup["id"]: i for i, (matchup, _) in enumerate(share)}
    for i, (matchup, setups) in enumerate(share):
        key = matchup["id"]
        if key not in lineups:  # one lineup (one compiled batch) per matchup
            lineups[key] = resolve_slots(team_spec(specs[matchup["a"]], specs[matchup["b"]]))
        lineup = lineups[key]
        size = batch_size(matchup["games"], devices, options.batch)
        if options.replays or options.metrics != "none":
            seeds = {"root": manifest["seed"], "matchup": key}
            results = play_recorded(config, lineup, setups, size, folder, options, seeds)
        else:
            results = play_sharded(config, lineup, setups, size)
        pairs = zip(setups, results, strict=True)
        rows = [game_row(manifest, matchup, s, r) | _metrics_of(r) for s, r in pairs]
        store.write_part(folder, options.process, key, setups[0].index, rows)
        played += len(rows)
        if last_item[key] == i:
            _release(lineups, key)
        if on_games is not None:
            on_games(len(rows))
    return played


def _release(lineups: dict, key) -> None:
    """Forget a finished matchup's lineup; once no lineup is live, free the compiled programs
    (a nine-entrant field compiles 36, several GiB, that would otherwise stay to the end)."""
    del lineups[key]
    if not lineups:
        forget_compiled()


def _metrics_of(result: dict) -> dict:
    return {k: v for k, v in result.items() if k.startswith(store.METRIC_SIDES)}


def open_tournament(
    folder, entrants: dict, maps: str, games: int, seed: int, rules: dict | None = None
) -> dict:
    """The manifest of the tournament in `folder` (its name is the folder's): a new one
    (written), or the saved one when the same command runs again (resume). Raises ValueError
    when the terms differ, FileExistsError when `folder` is a file."""
    folder = output_folder(folder, "--out")
    wanted = new_manifest(folder.name, entrants, maps, games, seed, rules)
    saved = store.read_manifest(folder)
    if saved is None:
        if (folder / store.PARTS).exists():
            raise ValueError(f"{folder}: holds results but no manifest; choose a new --out")
        check_entrants(entrants)
        store.write_manifest(folder, wanted)
        return wanted
    check_resume(saved, wanted, folder)
    return saved


def play_matchups(folder, manifest, matchups, options: Options, on_games=None, on_total=None):
    """Play whatever the given matchups still lack; returns (games played now, games left
    before). on_total(n) is told how many games this process will play, before any."""
    folder = Path(folder)
    devices = len(jax.local_devices())
    items = work_items(manifest, matchups, store.done_games(folder), options.batch, devices)
    share = sum(len(s) for _, s in items[options.process :: options.processes])
    if on_total is not None:
        on_total(share)
    return play_items(folder, manifest, items, options, on_games), share
