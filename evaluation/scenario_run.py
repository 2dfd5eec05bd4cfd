"""Systems on scenarios: every System plays the focal team of every scenario (`mbg scenarios run`).

A System that samples (random, a checkpoint without #greedy) plays `games` seeds a scenario; a
deterministic one (scripted bots, checkpoint#greedy) plays once, since every seed would give the
same game. The result is one row per (System, scenario): games, solved, the solved rate with
its 95% Wilson interval, mean ticks until the game was decided and the most common first death
(focal or controller slot), each row naming the scenario's start hash.
"""

import time
from collections import Counter
from pathlib import Path

import polars as pl

from evaluation import scenario_lines as lines
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


def run_system(scenario: Scenario, spec: str, games: int, out: Path | None, chunk: int = 256):
    """Play one System as the focal team; returns (row dict, list of Played)."""
    from evaluation.replay import write_replay

    lineup = lines.scenario_lineup(scenario, spec)
    seeds = list(range(games if samples(spec) else 1))
    played: list = []
    for lo in range(0, len(seeds), chunk):
        part = seeds[lo : lo + chunk]
        rolls = [lines.start_rollout(scenario, lineup, s) for s in part]
        pad = (chunk if len(seeds) > chunk else len(part)) - len(part)
        rolls += [rolls[-1]] * pad  # one compiled batch size a run
        got = lines.play_games(scenario, lineup, rolls, record=out is not None, seeds=part)
        played += got[: len(part)]
    if out is not None:
        for seed, game in zip(seeds, played, strict=True):
            write_replay(out / replay_name(scenario, spec, seed), game.replay)
    return summary_row(scenario, spec, played), played


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


def run_all(scenarios, specs, games: int, out: Path | None, progress=None) -> tuple:
    """Every System on every scenario; returns (table DataFrame, figures dict: games, games/s
    and wall seconds, compilation included)."""
    started = time.perf_counter()
    rows, total = [], 0
    for spec in specs:
        for scenario in scenarios:
            row, played = run_system(scenario, spec, games, out)
            rows.append(row)
            total += len(played)
            if progress:
                progress(row)
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
