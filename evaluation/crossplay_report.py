"""Cross-play report: stranger cost, the cross-play matrix, spacing and its link to cost.

Stranger cost (seed 000, section 7.8): for a mixed game, the matched game's margin minus the
mixed game's (same team, opponent, map, seed and spawn end; margin = team points - opponent
points), so a positive cost is points a game lost to the stranger. Means come with a 95%
t-interval over the paired games, win rates with a Wilson interval. The matrix averages a
team's mixed games over class sets and opponents; its diagonal is the matched games (a team
with its own agents). Spacing stray (paper S9): how far the stranger's spacing in the mixed
games lies from the spacing of the agents it replaced in the matched games (the team's home
spacing for those classes against that opponent), in map units, averaged over the replaced
positions; its correlation with cost is Pearson's r and Spearman's rho (scipy.stats).
"""

import numpy as np
import polars as pl

from engine import constants as C

KEYS = ("team", "opponent", "map_id", "seed", "spawn_end")
CELL = ("team", "stranger", "classes", "opponent")


def _t_interval(values: np.ndarray) -> tuple[float, float]:
    from scipy import stats

    if len(values) < 2:
        return float("nan"), float("nan")
    half = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
    return float(values.mean() - half), float(values.mean() + half)


def wilson(wins: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of a rate wins / n, draws counting half (cli.train.wilson)."""
    from cli.train import wilson as interval

    return interval(wins, n)


def paired(results: pl.DataFrame) -> pl.DataFrame:
    """Mixed games joined to their matched game: margin_matched, result_matched, cost."""
    matched = results.filter(pl.col("stranger") == "").select(
        *KEYS, pl.col("margin").alias("margin_matched"), pl.col("result").alias("result_matched")
    )
    mixed = results.filter(pl.col("stranger") != "")
    joined = mixed.join(matched, on=list(KEYS), how="inner")
    return joined.with_columns(cost=pl.col("margin_matched") - pl.col("margin"))


def _summary(frame: pl.DataFrame) -> dict:
    cost, n = frame["cost"].to_numpy().astype(float), frame.height
    lo, hi = _t_interval(cost)
    wins, wins_matched = float(frame["result"].sum()), float(frame["result_matched"].sum())
    return {
        "games": n,
        "margin_matched": float(frame["margin_matched"].mean()),
        "margin_mixed": float(frame["margin"].mean()),
        "cost": float(cost.mean()),
        "cost_lo": lo,
        "cost_hi": hi,
        "win_rate_matched": wins_matched / n,
        "win_rate_mixed": wins / n,
        "win_rate_mixed_lo": wilson(wins, n)[0],
        "win_rate_mixed_hi": wilson(wins, n)[1],
    }


def cost_table(results: pl.DataFrame) -> pl.DataFrame:
    """One row per (team, stranger, classes, opponent): games, matched and mixed margins,
    cost with its 95% interval, win rates (mixed with its interval)."""
    joined = paired(results)
    rows = [
        dict(zip(CELL, key, strict=True)) | _summary(group)
        for key, group in joined.group_by(CELL, maintain_order=True)
    ]
    return pl.DataFrame(rows).sort(CELL) if rows else pl.DataFrame()


def matrix(results: pl.DataFrame) -> pl.DataFrame:
    """Team x stranger: the mean margin of the team's mixed games (the diagonal: its matched
    games), the cost (matched - mixed, 0 on the diagonal) with its 95% interval, and games."""
    joined = paired(results)
    rows = []
    for (team, stranger), group in joined.group_by(("team", "stranger"), maintain_order=True):
        summary = _summary(group)
        rows.append({"team": team, "stranger": stranger} | summary)
    matched = results.filter(pl.col("stranger") == "")
    for (team,), group in matched.group_by(("team",), maintain_order=True):
        if any(r["team"] == team and r["stranger"] == team for r in rows):
            continue
        margin = float(group["margin"].mean())
        rows.append({
            "team": team, "stranger": team, "games": group.height, "margin_matched": margin,
            "margin_mixed": margin, "cost": 0.0, "cost_lo": 0.0, "cost_hi": 0.0,
            "win_rate_matched": float(group["result"].mean()),
            "win_rate_mixed": float(group["result"].mean()),
            "win_rate_mixed_lo": wilson(float(group["result"].sum()), group.height)[0],
            "win_rate_mixed_hi": wilson(float(group["result"].sum()), group.height)[1],
        })  # fmt: skip
    return pl.DataFrame(rows).sort("team", "stranger")


def _position_classes(roster: str) -> list[str]:
    return list(roster.split("/")[0])


def home_spacing(results: pl.DataFrame) -> pl.DataFrame:
    """(team, opponent, class) -> home spacing (map units) over the matched games, and the
    ticks it pools: sum of per-tick spacings / ticks counted."""
    rows = []
    for row in results.filter(pl.col("stranger") == "").iter_rows(named=True):
        for p, letter in enumerate(_position_classes(row["roster"])[: C.TEAM_SIZE]):
            rows.append({
                "team": row["team"], "opponent": row["opponent"], "class": letter,
                "sum": row[f"spacing_sum_{p}"], "ticks": row[f"spacing_ticks_{p}"],
            })  # fmt: skip
    frame = pl.DataFrame(rows).group_by("team", "opponent", "class").agg(pl.sum("sum", "ticks"))
    return frame.with_columns(home=pl.col("sum") / pl.col("ticks")).sort("team", "opponent")


def stranger_spacing(results: pl.DataFrame) -> pl.DataFrame:
    """Per cell (team, stranger, classes, opponent): the stranger's spacing over its mixed
    games, the home spacing of the classes it replaced, and the stray |stranger - home|."""
    home = {
        (r["team"], r["opponent"], r["class"]): r["home"]
        for r in home_spacing(results).iter_rows(named=True)
    }
    sums: dict = {}
    for row in results.filter(pl.col("stranger") != "").iter_rows(named=True):
        letters = _position_classes(row["roster"])
        for p in map(int, row["positions"].split(",")):
            cell = tuple(row[k] for k in CELL)
            entry = sums.setdefault(cell, {}).setdefault(letters[p], [0.0, 0])
            entry[0] += row[f"spacing_sum_{p}"]
            entry[1] += row[f"spacing_ticks_{p}"]
    rows = []
    for cell, by_class in sums.items():
        team, _, _, opponent = cell
        spacing = [s / t for s, t in by_class.values() if t]
        homes = [home.get((team, opponent, letter), np.nan) for letter in by_class]
        strays = [abs(s - h) for s, h in zip(spacing, homes, strict=False)]
        rows.append(dict(zip(CELL, cell, strict=True)) | {
            "stranger_spacing": float(np.mean(spacing)) if spacing else np.nan,
            "home_spacing": float(np.mean(homes)),
            "stray": float(np.mean(strays)) if strays else np.nan,
        })  # fmt: skip
    return pl.DataFrame(rows).sort(CELL) if rows else pl.DataFrame()


def stray_correlation(cost: pl.DataFrame, spacing: pl.DataFrame) -> dict:
    """Pearson's r and Spearman's rho (with p-values) of stray against cost over the cells
    whose stranger is not the team's own System; None values below three cells."""
    from scipy import stats

    joined = cost.join(spacing, on=list(CELL)).filter(pl.col("stranger") != pl.col("team"))
    joined = joined.filter(pl.col("stray").is_not_nan())
    out = {"cells": joined.height, "pearson_r": None, "pearson_p": None}
    out |= {"spearman_rho": None, "spearman_p": None}
    x, y = joined["stray"].to_numpy(), joined["cost"].to_numpy()
    if joined.height >= 3 and np.ptp(x) > 0 and np.ptp(y) > 0:
        r, p = stats.pearsonr(x, y)
        rho, q = stats.spearmanr(x, y)
        out |= {"pearson_r": float(r), "pearson_p": float(p)}
        out |= {"spearman_rho": float(rho), "spearman_p": float(q)}
    return out


def cost_png(table: pl.DataFrame) -> bytes:
    """A heat map (PNG bytes) of the matrix's cost: teams down, strangers across, each cell
    annotated with its cost in points a game. Raises ValueError without matplotlib."""
    from evaluation.tournament_plots import _figure, _png

    teams = sorted(set(table["team"]))
    strangers = sorted(set(table["stranger"]))
    grid = np.full((len(teams), len(strangers)), np.nan)
    for row in table.iter_rows(named=True):
        grid[teams.index(row["team"]), strangers.index(row["stranger"])] = row["cost"]
    pyplot, figure = _figure(1.6 + 1.2 * len(strangers), 1.2 + 0.8 * len(teams))
    axes = figure.add_subplot()
    bound = max(1.0, float(np.nanmax(np.abs(grid)))) if np.isfinite(grid).any() else 1.0
    image = axes.imshow(grid, cmap="RdBu_r", vmin=-bound, vmax=bound)
    axes.set_xticks(range(len(strangers)), strangers, rotation=30, ha="right")
    axes.set_yticks(range(len(teams)), teams)
    axes.set_xlabel("stranger (plays the replaced agents)")
    axes.set_ylabel("team")
    for (i, j), value in np.ndenumerate(grid):
        if np.isfinite(value):
            ink = "white" if abs(value) > 0.6 * bound else "black"  # readable on dark cells
            axes.text(j, i, f"{value:+.1f}", ha="center", va="center", fontsize=9, color=ink)
    figure.colorbar(image, label="stranger cost (points a game)")
    axes.set_title("Cross-play: points a game lost to a stranger")
    return _png(pyplot, figure)
