"""From a results table to tallied matchups for evaluation.rating, in a canonical order.

The order of entrants comes from their records alone (score rate, games, wins, draws; names
only break exact ties), and each matchup's bootstrap units (side-swapped pairs of games) are
sorted by their key, so renaming entrants, reordering them or shuffling the games leaves every
fitted number, bootstrap rounds included, bit for bit the same.
"""

import math
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy.sparse import csgraph, csr_matrix

OUTCOMES = {"A": 0, "B": 1, "draw": 2}  # results-table winner -> outcome column (A = first)
ELO_CENTRE = 1200.0
ELO_PER_UNIT = 400.0 / math.log(10.0)  # Elo points per natural-log unit of strength


@dataclass(frozen=True)
class Matchups:
    """Games tallied per matchup, entrants in canonical order (`canonical`).

    entrants: names; first, second: (M,) int entrant indexes (first < second); counts: (M, 3)
    float games (first won, second won, drawn); units: per matchup, (U_m, 3) counts of each
    bootstrap unit (a side-swapped pair of games) in a fixed order.
    """

    entrants: tuple[str, ...]
    first: np.ndarray
    second: np.ndarray
    counts: np.ndarray
    units: tuple[np.ndarray, ...]


def games_frame(results: pl.DataFrame) -> pl.DataFrame:
    """The columns a fit needs: entrant_a, entrant_b, outcome (0 A won, 1 B won, 2 draw), unit.

    results: a tournament results table (evaluation.tournament) or any frame with entrant_a,
    entrant_b and winner ("A", "B", "draw"); the bootstrap unit is (tournament, pair) when both
    columns exist, else every game is its own unit. Raises ValueError naming a missing column
    or a bad winner value.
    """
    for column in ("entrant_a", "entrant_b", "winner"):
        if column not in results.columns:
            raise ValueError(f"results: column {column!r} is missing (have {results.columns})")
    bad = results.filter(~pl.col("winner").is_in(list(OUTCOMES)))
    if bad.height:
        raise ValueError(f"results: winner {bad['winner'][0]!r} is not one of A, B, draw")
    if {"tournament", "pair"} <= set(results.columns):
        unit = pl.concat_str([pl.col("tournament"), pl.col("pair").cast(pl.String)], separator="#")
    else:
        unit = pl.int_range(pl.len()).cast(pl.String)
    return results.select(
        pl.col("entrant_a").cast(pl.String),
        pl.col("entrant_b").cast(pl.String),
        pl.col("winner").replace_strict(OUTCOMES, return_dtype=pl.Int64).alias("outcome"),
        unit.alias("unit"),
    )


def _records(games: pl.DataFrame) -> dict[str, np.ndarray]:
    """Entrant -> (wins, draws, losses)."""
    records: dict[str, np.ndarray] = {}
    for a, b, outcome in games.select("entrant_a", "entrant_b", "outcome").iter_rows():
        for name, won in ((a, outcome == 0), (b, outcome == 1)):
            rec = records.setdefault(name, np.zeros(3, np.int64))
            rec[0 if won else (1 if outcome == 2 else 2)] += 1
    return records


def canonical(records: dict[str, np.ndarray]) -> list[str]:
    """Entrants in an order made from their records alone (score rate, games, wins, draws);
    names break only exact ties, so renaming or reordering entrants leaves the fit unchanged."""

    def key(name):
        wins, draws, losses = records[name]
        games = wins + draws + losses
        return (-(wins + 0.5 * draws) / games, -games, -wins, -draws, name)

    return sorted(records, key=key)


def tally(games: pl.DataFrame) -> Matchups:
    """Tally a `games_frame` by matchup (and bootstrap unit) in canonical entrant order."""
    if games.height == 0:
        raise ValueError("results: no games to rate")
    names = canonical(_records(games))
    index = {name: i for i, name in enumerate(names)}
    cells: dict[tuple[int, int], dict[str, np.ndarray]] = {}
    for a, b, outcome, unit in games.iter_rows():
        i, j = index[a], index[b]
        if i == j:
            raise ValueError(f"results: entrant {a!r} is listed as playing itself")
        col = 2 if outcome == 2 else (0 if (outcome == 0) == (i < j) else 1)
        units = cells.setdefault((min(i, j), max(i, j)), {})
        units.setdefault(unit, np.zeros(3))[col] += 1
    keys = sorted(cells)
    units = tuple(np.array([cells[k][u] for u in sorted(cells[k])]) for k in keys)
    return Matchups(
        entrants=tuple(names),
        first=np.array([k[0] for k in keys], np.int64),
        second=np.array([k[1] for k in keys], np.int64),
        counts=np.array([u.sum(axis=0) for u in units]),
        units=units,
    )


def groups(matchups: Matchups) -> list[list[str]]:
    """Entrants split into connected groups of the comparison graph (each sorted by name)."""
    n = len(matchups.entrants)
    graph = csr_matrix((np.ones(len(matchups.first)), (matchups.first, matchups.second)), (n, n))
    count, labels = csgraph.connected_components(graph, directed=False)
    found = [
        sorted(matchups.entrants[i] for i in np.flatnonzero(labels == g)) for g in range(count)
    ]
    return sorted(found)


def simulate_field(
    elo, nu: float, games_per_pair: int, seed: int, names=None, tournament: str = "sim"
) -> pl.DataFrame:
    """Games drawn from the Davidson model with known Elo (N,) and draw parameter nu, as a
    results table (entrant_a, entrant_b, winner, tournament, pair): every matchup plays
    games_per_pair games in side-swapped pairs (two games a unit). For tests and benchmarks."""
    elo = np.asarray(elo, float)
    names = names or [f"e{i}" for i in range(len(elo))]
    rng = np.random.default_rng(seed)
    rows = {"entrant_a": [], "entrant_b": [], "winner": [], "tournament": [], "pair": []}
    theta = (elo - ELO_CENTRE) / ELO_PER_UNIT
    pair = 0
    for i in range(len(elo)):
        for j in range(i + 1, len(elo)):
            eta = np.array([theta[i], theta[j], math.log(nu) + 0.5 * (theta[i] + theta[j])])
            p = np.exp(eta - eta.max())
            draws = rng.choice(3, size=games_per_pair, p=p / p.sum())
            for g, outcome in enumerate(draws):
                rows["entrant_a"].append(names[i])
                rows["entrant_b"].append(names[j])
                rows["winner"].append(("A", "B", "draw")[outcome])
                rows["tournament"].append(tournament)
                rows["pair"].append(pair + g // 2)
            pair += (games_per_pair + 1) // 2
    return pl.DataFrame(rows)
