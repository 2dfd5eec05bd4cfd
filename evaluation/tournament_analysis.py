"""Teamwork against rating (paper seed 000, S8 and Figure 6): which team-level measures track Elo.

Every entrant's value of a measure is the mean, over all its games, of its own team's value
(the `a__NAME` column when it played Team A, `b__NAME` when Team B; rows from a tournament run
with --metrics). Across entrants, each measure's Spearman rho with the fitted Elo is tested by
an exact permutation test (every one of the n! pairings of measure and Elo, SciPy's
`permutation_test`; two-sided), then Holm's step-down correction over the measures tested
(Holm 1979). Measures equal for every entrant have no rank order and are left out (listed).
"""

from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import stats

from evaluation import tournament_store as store

MAX_EXACT = 9  # 9! = 362,880 pairings; more entrants would need sampled permutations


@dataclass(frozen=True)
class Analysis:
    """table: measure, rho, p_exact, p_holm (sorted by |rho|, strongest first); per_entrant:
    entrant -> {measure: mean}; elo: entrant -> Elo; skipped: measures without variation."""

    table: pl.DataFrame
    per_entrant: dict
    elo: dict
    skipped: list


def holm(p_values) -> np.ndarray:
    """Holm-adjusted p-values (same order as given): p_(k) * (m - k + 1), made monotone."""
    p = np.asarray(p_values, float)
    order = np.argsort(p, kind="stable")
    scaled = np.minimum(1.0, p[order] * (len(p) - np.arange(len(p))))
    adjusted = np.empty_like(p)
    adjusted[order] = np.maximum.accumulate(scaled)
    return adjusted


def _spearman(x, y, axis=-1):
    rx = stats.rankdata(x, axis=axis)
    ry = stats.rankdata(y, axis=axis)
    rx = rx - rx.mean(axis=axis, keepdims=True)
    ry = ry - ry.mean(axis=axis, keepdims=True)
    return (rx * ry).sum(axis=axis) / np.sqrt((rx**2).sum(axis=axis) * (ry**2).sum(axis=axis))


def exact_spearman(x, y) -> tuple[float, float]:
    """(rho, exact two-sided permutation p-value) of two (n,) samples, n <= MAX_EXACT."""
    if len(x) > MAX_EXACT:
        raise ValueError(f"exact permutation test: {len(x)} entrants, at most {MAX_EXACT}")
    result = stats.permutation_test(
        (np.asarray(x, float), np.asarray(y, float)),
        _spearman,
        permutation_type="pairings",
        n_resamples=np.inf,
        vectorized=True,
        alternative="two-sided",
    )
    return float(result.statistic), float(result.pvalue)


def entrant_means(results: pl.DataFrame) -> dict[str, dict[str, float]]:
    """entrant -> {measure: mean of its own team's value over its games}. Raises ValueError
    when the table has no metric columns (the tournament was run without --metrics)."""
    names = sorted(
        c[3:] for c in results.columns if c.startswith("a__") and f"b__{c[3:]}" in results.columns
    )
    if not names:
        raise ValueError("results: no team metric columns; run the tournament with --metrics")
    sides = [
        results.select(
            pl.col(f"entrant_{s}").alias("entrant"), *[pl.col(f"{s}__{n}").alias(n) for n in names]
        )
        for s in ("a", "b")
    ]
    means = pl.concat(sides).group_by("entrant").mean().sort("entrant")
    return {row.pop("entrant"): row for row in means.iter_rows(named=True)}


def analyse(results: pl.DataFrame, elo: dict[str, float]) -> Analysis:
    """The Spearman table of every varying measure against Elo (entrants in `elo`)."""
    per_entrant = entrant_means(results)
    entrants = sorted(elo)
    missing = [e for e in entrants if e not in per_entrant]
    if missing:
        raise ValueError(f"results: entrants {missing} have no games with metrics")
    if len(entrants) < 3:
        raise ValueError(f"analysis: needs at least 3 entrants, got {len(entrants)}")
    x = np.array([elo[e] for e in entrants])
    rows, skipped = [], []
    for measure in next(iter(per_entrant.values())):
        y = np.array([per_entrant[e][measure] for e in entrants], float)
        if np.all(y == y[0]) or not np.all(np.isfinite(y)):
            skipped.append(measure)
            continue
        rho, p = exact_spearman(x, y)
        rows.append({"measure": measure, "rho": rho, "p_exact": p})
    table = pl.DataFrame(
        rows, schema={"measure": pl.String, "rho": pl.Float64, "p_exact": pl.Float64}
    )
    table = table.with_columns(pl.Series("p_holm", holm(table["p_exact"].to_numpy())))
    table = table.sort(pl.col("rho").abs(), "measure", descending=[True, False])
    return Analysis(table, per_entrant, dict(elo), skipped)


def analyse_folder(folder) -> Analysis:
    """Analyse a tournament folder: fit Elo on every game, then `analyse`."""
    from evaluation.rating import fit_ratings

    results = store.read_results(folder)
    if not results.height:
        raise ValueError(f"{folder}: no finished games")
    ratings = fit_ratings(results, interval="fisher")
    return analyse(results, dict(zip(ratings.entrants, ratings.elo.tolist(), strict=True)))


def print_analysis(result: Analysis, top: int = 20) -> None:
    """The strongest `top` rows as text, with how many measures were tested and left out."""
    n = len(result.elo)
    print(f"{result.table.height} team measures tested across {n} entrants (exact permutation "
          f"p over {np.prod(np.arange(1, n + 1)):,} pairings, Holm over all tested); "
          f"{len(result.skipped)} without variation left out")  # fmt: skip
    print(f"{'measure':<36} {'rho':>6} {'p exact':>8} {'p Holm':>8}")
    for row in result.table.head(top).iter_rows(named=True):
        print(f"{row['measure']:<36} {row['rho']:+6.2f} {row['p_exact']:8.4f} {row['p_holm']:8.4f}")
