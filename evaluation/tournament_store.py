"""A tournament's folder: its manifest and its results, one Parquet row per game.

    DIR/manifest.json             entrants, field, matchups with their seeds, history
    DIR/results/part-*.parquet    results as games finish (one file a batch, never rewritten)
    DIR/results.parquet           every part merged (rewritten as a whole after each run)

Each part is written atomically (temp file, then a hard link that fails if the name exists), so
a run killed at any moment leaves whole parts only, and a rerun plays exactly the games that no
part holds. The columns of a row are `RESULT_COLUMNS`, then, when metrics were computed, each
team-level metric of the level twice: `a__NAME` (Team A's value) and `b__NAME`.
"""

import json
import warnings
from pathlib import Path

import polars as pl

from fileio import replace_file, write_new_file

MANIFEST = "manifest.json"
PARTS = "results"
MERGED = "results.parquet"
RESULT_COLUMNS = (
    "tournament", "matchup", "pair", "game", "seed", "map_id", "map_name", "spawn_end",
    "roster", "entrant_a", "entrant_b", "spec_a", "spec_b", "winner", "score_a", "score_b",
    "ticks",
)  # fmt: skip
METRIC_SIDES = ("a__", "b__")


def write_new(path: Path, data: bytes) -> Path:
    """Write bytes to a new file atomically, never over a file (`fileio.write_new_file`);
    raises FileExistsError if `path` exists."""
    return write_new_file(path, data, "exists; results are never overwritten")


def frame_bytes(frame: pl.DataFrame) -> bytes:
    """A results frame as Parquet bytes."""
    import io

    buffer = io.BytesIO()
    frame.write_parquet(buffer, compression="zstd")
    return buffer.getvalue()


def write_part(folder: Path, process: int, matchup: int, first_game: int, rows) -> Path:
    """Write one batch of result rows as DIR/results/part-pP-mMMMM-gGGGGG.parquet."""
    name = f"part-p{process:02d}-m{matchup:04d}-g{first_game:05d}.parquet"
    return write_new(folder / PARTS / name, frame_bytes(pl.DataFrame(rows)))


def read_results(folder: Path) -> pl.DataFrame:
    """Every part of a tournament folder as one frame sorted by (matchup, game); an empty frame
    when there is none. Raises ValueError naming a part that is not a results table."""
    parts = sorted((folder / PARTS).glob("part-*.parquet"))
    frames = []
    for part in parts:
        try:
            frame = pl.read_parquet(part)
        except Exception as error:  # polars raises several types for a damaged file
            raise ValueError(f"{part}: not a readable Parquet results part ({error})") from None
        missing = [c for c in RESULT_COLUMNS if c not in frame.columns]
        if missing:
            raise ValueError(f"{part}: not a results part; columns {missing} are missing")
        frames.append(frame)
    if not frames:
        return pl.DataFrame()
    merged = pl.concat(frames, how="diagonal_relaxed").sort("matchup", "game")
    doubled = merged.group_by("matchup", "game").len().filter(pl.col("len") > 1)
    if doubled.height:
        m, g = doubled.row(0)[:2]
        raise ValueError(f"{folder / PARTS}: game {g} of matchup {m} is held by two parts")
    return merged


def merge(folder: Path) -> pl.DataFrame:
    """Merge every part into DIR/results.parquet (atomically) and return the table."""
    table = read_results(folder)
    if table.height:
        replace_file(folder / MERGED, frame_bytes(table))
    return table


def done_games(folder: Path) -> set[tuple[int, int]]:
    """(matchup, game) of every game some part already holds."""
    table = read_results(folder)
    if not table.height:
        return set()
    return set(table.select("matchup", "game").iter_rows())


def read_manifest(folder: Path) -> dict | None:
    """The folder's manifest, or None when it has none. Raises ValueError for a bad one."""
    path = folder / MANIFEST
    if not path.exists():
        return None
    try:
        manifest = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from None
    for field in ("tournament", "entrants", "field", "matchups", "history"):
        if field not in manifest:
            raise ValueError(f"{path}: field {field!r} is missing")
    manifest.setdefault("rules", {})  # none written: the official rules
    return manifest


def write_manifest(folder: Path, manifest: dict) -> Path:
    """Write the manifest atomically."""
    return replace_file(folder / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode())


def load_results(path) -> pl.DataFrame:
    """A results table from a tournament folder (its parts), a Parquet file, or a folder of
    replays (rows built from their headers). Raises ValueError / FileNotFoundError naming it."""
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file or folder")
    if path.is_dir() and ((path / PARTS).is_dir() or (path / MANIFEST).exists()):
        return read_results(path)
    if path.is_file() and path.suffix == ".parquet":
        frame = pl.read_parquet(path)
        missing = [c for c in ("entrant_a", "entrant_b", "winner") if c not in frame.columns]
        if missing:
            raise ValueError(f"{path}: not a results table; columns {missing} are missing")
        return frame
    return replay_results(path)


def _team_name(systems: list[str], team: int) -> str:
    specs = [s for s in systems[team * 5 : team * 5 + 5] if s]
    return specs[0] if len(set(specs)) == 1 else "+".join(specs)


def replay_results(path) -> pl.DataFrame:
    """Results rows from the headers of a replay file or folder: each team's entrant is its
    System spec (or the specs joined by +); a game pair is its seed. Games of an entrant
    against itself say nothing about its rating and are skipped with a warning; games recorded
    under other rules than this engine's are rated as recorded, with a warning naming the
    first and both rules versions (evaluation.replay_verify.rules_note). Raises ValueError
    naming a scenario replay (a set position, not a game between equals) or an unfinished
    game."""
    from evaluation.replay import read_header, replay_paths
    from evaluation.replay_verify import rules_note

    rows, self_play, other_rules = [], [], []
    for file in replay_paths([path]):
        header = read_header(file)
        note = rules_note(header, "its result is rated as recorded")
        other_rules += [f"{file}: {note}"] if note else []
        if header.get("scenario"):
            raise ValueError(
                f"{file}: a replay of scenario {header['scenario'].get('id')} (a set position, "
                f"not a game between equals) cannot be rated; see mbg scenarios run"
            )
        result = header["result"]
        winner = {"A wins": "A", "B wins": "B", "draw": "draw"}.get(result["outcome_name"])
        if winner is None:
            raise ValueError(f"{file}: result {result['outcome_name']!r} is not a finished game")
        entrants = [_team_name(header["systems"], team) for team in (0, 1)]
        if entrants[0] == entrants[1]:
            self_play.append(file)
            continue
        rows.append(
            {
                "tournament": f"replays:{Path(path).name}",
                "pair": int(header["seeds"]["game"]),
                "map_id": int(header["map"]["id"]),
                "spawn_end": int(header["spawn_end"]),
                "entrant_a": entrants[0],
                "entrant_b": entrants[1],
                "winner": winner,
                "score_a": int(result["score"][0]),
                "score_b": int(result["score"][1]),
                "ticks": int(result["ticks"]),
            }
        )
    if other_rules:
        warnings.warn(
            f"{path}: {len(other_rules)} game(s) of other rules (first: {other_rules[0]})",
            stacklevel=2,
        )
    if self_play:
        warnings.warn(
            f"{path}: skipped {len(self_play)} game(s) of an entrant against itself "
            f"(first: {self_play[0]}); they carry no rating information",
            stacklevel=2,
        )
    if not rows:
        raise ValueError(
            f"{path}: holds no replay" + (" of two different entrants" * bool(self_play))
        )
    return pl.DataFrame(rows)
