"""PNG figures of a tournament with matplotlib (Agg, no window): the ratings with their 95%
intervals, and the strongest team measures against Elo (`mbg tournament analyse`)."""

import io

import numpy as np


def _figure(width: float, height: float):
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise ValueError(
            "--png needs matplotlib: pip install 'marl-battlegrounds[plots]'"
        ) from None

    matplotlib.use("Agg")
    from matplotlib import pyplot

    return pyplot, pyplot.figure(figsize=(width, height), dpi=110)


def _png(pyplot, figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", bbox_inches="tight")
    pyplot.close(figure)
    return buffer.getvalue()


def ratings_png(all_ratings) -> bytes:
    """Horizontal error bars: each entrant's Elo and 95% interval, best at the top, one panel
    per group of entrants that met (evaluation.rating.Ratings each)."""
    rows = sum(len(r.entrants) for r in all_ratings)
    pyplot, figure = _figure(7.0, 1.0 + 0.45 * rows + 0.4 * len(all_ratings))
    axes = figure.subplots(len(all_ratings), 1, squeeze=False)[:, 0]
    for g, (ax, ratings) in enumerate(zip(axes, all_ratings, strict=True)):
        table = ratings.table().reverse()
        y = np.arange(table.height)
        elo = table["elo"].to_numpy()
        err = np.stack([elo - table["low"].to_numpy(), table["high"].to_numpy() - elo])
        ax.errorbar(elo, y, xerr=err, fmt="o", color="#1f5fa0", ecolor="#7aa6d6", capsize=4)
        ax.set_yticks(y, table["entrant"].to_list())
        ax.axvline(1200.0, color="#999999", linewidth=0.8, linestyle=":")
        for yi, value in zip(y, elo, strict=True):
            ax.annotate(f"{value:.0f}", (value, yi), textcoords="offset points", xytext=(0, 7),
                        ha="center", fontsize=8)  # fmt: skip
        how = f"bootstrap, {ratings.rounds} rounds" if ratings.method == "bootstrap" else "Fisher"
        group = f"group {g + 1}: " if len(all_ratings) > 1 else ""
        ax.set_title(f"{group}Elo with 95% intervals ({how}); draw nu = {ratings.draw_nu:.2f}",
                     fontsize=10)  # fmt: skip
        ax.set_xlabel("Elo (Bradley-Terry-Davidson, centred at 1,200)")
        ax.grid(axis="x", alpha=0.3)
    return _png(pyplot, figure)


def measures_png(per_entrant, elo: dict, table, count: int = 6) -> bytes:
    """Scatter plots of the `count` measures with the largest |Spearman rho| (rows of the
    analysis `table`) against Elo; per_entrant: entrant -> {measure: mean value}."""
    top = table.head(count)
    cols = min(3, max(1, top.height))
    rows = max(1, -(-top.height // cols))
    pyplot, figure = _figure(4.0 * cols, 3.2 * rows)
    axes = figure.subplots(rows, cols, squeeze=False).ravel()
    names = sorted(elo, key=elo.get)
    for ax, row in zip(axes, top.iter_rows(named=True), strict=False):
        x = [elo[n] for n in names]
        y = [per_entrant[n][row["measure"]] for n in names]
        ax.scatter(x, y, color="#1f5fa0")
        for n, xi, yi in zip(names, x, y, strict=True):
            ax.annotate(n, (xi, yi), textcoords="offset points", xytext=(3, 3), fontsize=7)
        ax.set_title(f"{row['measure']}\nrho {row['rho']:+.2f}, Holm p {row['p_holm']:.3f}",
                     fontsize=9)  # fmt: skip
        ax.set_xlabel("Elo")
    for ax in axes[top.height :]:
        ax.axis("off")
    figure.tight_layout()
    return _png(pyplot, figure)
