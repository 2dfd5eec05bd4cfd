"""Systems on scenarios: every System plays the focal team of every scenario (`mbg scenarios run`).

A System that samples (random, a checkpoint without #greedy) plays `games` seeds a scenario; a
deterministic one (scripted bots, checkpoint#greedy) plays once, since every seed would give the
same game. The result is one row per (System, scenario): games, solved, the solved rate with
its 95% Wilson interval, mean ticks until the game was decided and the most common first death
(focal or controller slot), each row naming the scenario's start hash.

A System's games on all the scenarios share batches (evaluation.scenario_batch): a run compiles
the engine once and each System's act once, not a game program per System and scenario.
"""

import dataclasses
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl

from evaluation import scenario_batch as B
from evaluation.scenarios import Scenario

DETERMINISTIC_KINDS = ("scripted",)


def samples(spec: str) -> bool:
    """Whether a System spec draws random actions (so it needs many seeds)."""
    kind, _, arg = spec.partition(":")
    if kind in DETERMINISTIC_KINDS:
        return False
    return not (kind == "checkpoint" and arg.endswith("#greedy"))


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval of k successes in n trials (Wilson 1927)."""
    from cli.train import wilson as interval

    return interval(k, n, z)


def replay_name(scenario: Scenario, spec: str, seed: int) -> str:
    safe = "".join(c if c.isalnum() else "-" for c in spec).strip("-")
    return f"scenario{scenario.id:02d}_{scenario.start_hash[:8]}_{safe}_seed{seed:04d}.mbgr"


def run_system(scenario: Scenario, spec: str, games: int, out: Path | None, batch: int = B.BATCH):
    """Play one System as the focal team of one scenario; returns (row dict, list of Played)."""
    ((row, played),) = run_spec([scenario], spec, games, out, batch=batch)
    return row, played


def run_spec(scenarios, spec: str, games: int, out: Path | None, starts=None, batch=B.BATCH):
    """One System as the focal team of every scenario, all its games in shared batches
    (evaluation.scenario_batch); with `out`, each game's replay is written there as its batch
    ends (atomically, never over a file: evaluation.replay.write_replay) and dropped from the
    Played. starts: start hash -> (state, obs), filled here for the next System (the start
    does not depend on the System). Returns [(row dict, list of Played)] in scenario order."""
    starts = {} if starts is None else starts
    todo = []
    for scenario in scenarios:
        entry = B.entry(scenario, spec, starts.get(scenario.start_hash))
        starts[scenario.start_hash] = (entry.state, entry.obs)
        seeds = range(games if samples(spec) else 1)
        todo += [B.Game(entry, seed, i) for i, seed in enumerate(seeds)]
    played: dict = {s.id: [] for s in scenarios}
    with ReplayWriter(out) as writer:
        for game, result in B.play(spec, todo, record=out is not None, batch=batch):
            scenario = game.entry.scenario
            if out is not None:
                writer.put(out / replay_name(scenario, spec, game.seed), result.replay)
                result = dataclasses.replace(result, replay=None)
            played[scenario.id].append(result)
    return [(summary_row(s, spec, played[s.id]), played[s.id]) for s in scenarios]


class ReplayWriter:
    """Writes replays on worker threads (evaluation.replay.write_replay: atomic, never over a
    file), so the compression and the fsync of each file overlap the next batch's games; at
    most PENDING replays wait in memory. Leaving the `with` waits for every write and raises
    the first error."""

    PENDING = 512

    def __init__(self, out: Path | None, workers: int = 2):
        self.pool = ThreadPoolExecutor(workers, "replay") if out is not None else None
        self.pending: list = []

    def put(self, path: Path, replay) -> None:
        from evaluation.replay import write_replay

        if len(self.pending) >= self.PENDING:
            self._drain()
        self.pending.append(self.pool.submit(write_replay, path, replay))

    def _drain(self) -> None:
        done, self.pending = self.pending, []
        for future in done:
            future.result()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            try:
                self._drain()
            finally:
                self.pool.shutdown()


def summary_row(scenario: Scenario, spec: str, played: list) -> dict:
    solved = sum(p.solved for p in played)
    lo, hi = wilson(solved, len(played))
    deaths = Counter(p.first_death or "none" for p in played)
    return {
        "system": spec,
        "scenario": scenario.id,
        "title": scenario.title,
        "start_hash": scenario.start_hash[:12],
        "games": len(played),
        "solved": solved,
        "solved_rate": solved / len(played),
        "ci95_low": lo,
        "ci95_high": hi,
        "mean_ticks": sum(p.ticks for p in played) / len(played),
        "first_death": deaths.most_common(1)[0][0],
        "first_death_share": deaths.most_common(1)[0][1] / len(played),
    }


def run_all(scenarios, specs, games: int, out: Path | None, progress=None, on_system=None):
    """Every System on every scenario; returns (table DataFrame, figures dict: games, games/s
    and wall seconds, compilation included). progress(row) follows each (System, scenario)
    row, on_system(spec, games, seconds) each System."""
    started = time.perf_counter()
    rows, total, starts = [], 0, {}
    for spec in specs:
        begun = time.perf_counter()
        done = run_spec(scenarios, spec, games, out, starts)
        for row, _ in done:
            rows.append(row)
            if progress:
                progress(row)
        count = sum(row["games"] for row, _ in done)
        total += count
        if on_system:
            on_system(spec, count, time.perf_counter() - begun)
    wall = time.perf_counter() - started
    return pl.DataFrame(rows), {"games": total, "wall_s": wall, "games_per_s": total / wall}


def table_text(table: pl.DataFrame) -> str:
    """The Systems-by-scenario table as Markdown: solved/games (rate, 95% interval) per cell."""
    systems = list(dict.fromkeys(table["system"].to_list()))
    ids = sorted(set(table["scenario"].to_list()))
    head = "| System | " + " | ".join(f"S{i}" for i in ids) + " | all |"
    lines = [head, "| --- |" + " ---: |" * (len(ids) + 1)]
    for spec in systems:
        rows = {r["scenario"]: r for r in table.filter(pl.col("system") == spec).to_dicts()}
        cells = [f"{rows[i]['solved']}/{rows[i]['games']}" if i in rows else "-" for i in ids]
        k = sum(r["solved"] for r in rows.values())
        n = sum(r["games"] for r in rows.values())
        lo, hi = wilson(k, n)
        cells.append(f"{k}/{n} [{100 * lo:.1f}, {100 * hi:.1f}]%")
        lines.append(f"| {spec} | " + " | ".join(cells) + " |")
    return "\n".join(lines)
