"""A cross-play folder: plan, results as games finish, and the report tables.

    DIR/manifest.json            the plan (evaluation.crossplay.Plan) and the rules version
    DIR/results/part-*.parquet   one file a played batch, never rewritten (crossplay.game_row)
    DIR/results.parquet          every part merged (rebuilt after each run)
    DIR/cost.csv|.parquet        stranger cost per team, stranger, classes and opponent
    DIR/matrix.csv               team x stranger margins and costs (the diagonal: matched)
    DIR/spacing.csv              home spacing per team and class, stranger spacing and stray
    DIR/report.json              the correlation of stray with cost, and the run's terms
    DIR/crossplay_cost.png       the cost heat map (matplotlib, when installed)

Parts are written with evaluation.replay.write_new_file (temp file, fsync, no clobber), so a
run killed at any moment keeps whole batches, and the same command plays only what is missing.
A folder made under other rules or another plan is refused (RULES.md 8: never mix versions).
"""

import json
import math
from pathlib import Path

import jax
import polars as pl

from engine.types import Config
from evaluation import crossplay
from evaluation.replay_verify import rules_version
from evaluation.tournament_store import frame_bytes, replace_file, write_new
from fileio import output_folder

MANIFEST = "manifest.json"
PARTS = "results"
MAX_BATCH = 128  # games a vmapped batch at most (memory stays small on two cores)


def open_folder(folder, plan: crossplay.Plan) -> dict:
    """The folder's manifest: written for a new folder, checked against `plan` for an old
    one. Raises ValueError naming the manifest field that differs, FileExistsError for a
    file."""
    folder = output_folder(folder, "--out")
    wanted = {"crossplay": 1, "rules_version": rules_version(), "plan": plan.as_dict()}
    path = folder / MANIFEST
    if not path.exists():
        if (folder / PARTS).exists():
            raise ValueError(f"{folder}: holds results but no manifest; choose a new --out")
        replace_file(path, (json.dumps(wanted, indent=1) + "\n").encode())
        return wanted
    try:
        saved = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None
    for field, old, new in _differences(saved, wanted, ("rules_version", "plan")):
        raise ValueError(
            f"{path}: {field} is {old!r}, this command asks for {new!r}; "
            "use the same command to resume, or a new --out"
        )
    return saved


def _differences(saved: dict, wanted: dict, fields) -> list[tuple[str, object, object]]:
    """(name, saved, wanted) of each manifest field that differs; a plan is compared term by
    term (`plan.strangers`), so the message names the one option that changed."""
    found = []
    for field in fields:
        old, new = saved.get(field), wanted[field]
        if isinstance(old, dict) and isinstance(new, dict):
            keys = list(new) + [k for k in old if k not in new]
            found += [
                (f"{field}.{k}", old.get(k), new.get(k)) for k in keys if old.get(k) != new.get(k)
            ]
        elif old != new:
            found.append((field, old, new))
    return found


def read_parts(folder) -> pl.DataFrame:
    """Every results part of the folder as one frame (empty when none). Raises ValueError
    naming a part that cannot be read or a game held twice."""
    frames = []
    for part in sorted((Path(folder) / PARTS).glob("part-*.parquet")):
        try:
            frames.append(pl.read_parquet(part))
        except Exception as error:  # polars raises several types for a damaged file
            raise ValueError(f"{part}: not a readable Parquet results part ({error})") from None
    if not frames:
        return pl.DataFrame()
    table = pl.concat(frames, how="diagonal_relaxed").sort("team", "opponent", "game")
    doubled = table.group_by("team", "opponent", "game").len().filter(pl.col("len") > 1)
    if doubled.height:
        team, opponent, game = doubled.row(0)[:3]
        raise ValueError(f"{folder}/{PARTS}: game {game} of {team} v {opponent} is held twice")
    return table


def pending(folder, plan: crossplay.Plan) -> list[tuple[str, str, list]]:
    """[(team, opponent, games not yet in any part), ...] in plan order."""
    table = read_parts(folder)
    done = set(table.select("team", "opponent", "game").iter_rows()) if table.height else set()
    blocks = []
    for team in plan.teams:
        games = crossplay.block_games(plan, team)
        for opponent in plan.opponents:
            todo = [g for g in games if (team, opponent, g.setup.index) not in done]
            if todo:
                blocks.append((team, opponent, todo))
    return blocks


def batch_size(games: int, devices: int, batch: int | None) -> int:
    """`batch`, else the games in as few near-equal batches of at most MAX_BATCH as it takes,
    rounded up to a multiple of the device count."""
    size = batch or math.ceil(games / math.ceil(games / MAX_BATCH))
    return devices * math.ceil(size / devices)


def run(folder, plan: crossplay.Plan, batch=None, on_total=None, on_games=None) -> int:
    """Play every game of `plan` that the folder lacks, writing a part after each batch;
    returns the number played. on_total(n) hears the count first, on_games(n) after each
    batch. Raises ValueError for a bad plan or a folder of another plan."""
    plan.check()
    folder = Path(folder)
    open_folder(folder, plan)
    blocks = pending(folder, plan)
    if on_total is not None:
        on_total(sum(len(games) for _, _, games in blocks))
    config, devices, played = Config(), len(jax.local_devices()), 0
    for team, opponent, games in blocks:
        lineup, index = crossplay.build_cast(plan, team, opponent)
        size = batch_size(len(games), devices, batch)
        for lo in range(0, len(games), size):
            chunk = games[lo : lo + size]
            results = crossplay.play_games(config, lineup, index, chunk, size)
            rows = [
                crossplay.game_row((team, opponent), g, r, s)
                for g, (r, s) in zip(chunk, results, strict=True)
            ]
            first = chunk[0].setup.index
            names = sorted(plan.teams), sorted(plan.opponents)
            name = f"part-t{names[0].index(team):02d}-o{names[1].index(opponent):02d}"
            write_new(
                folder / PARTS / f"{name}-g{first:05d}.parquet", frame_bytes(pl.DataFrame(rows))
            )
            played += len(rows)
            if on_games is not None:
                on_games(len(rows))
    table = read_parts(folder)
    if table.height:
        replace_file(folder / "results.parquet", frame_bytes(table))
    return played
