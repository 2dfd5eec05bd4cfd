"""Ratings: the Bradley-Terry-Davidson model on an Elo scale, its intervals, and online Elo.

The model (Davidson 1970, "On extending the Bradley-Terry model to accommodate ties"; paper
seed 000, section 5.2): entrant i has strength pi_i = exp(theta_i) and, with the draw parameter
nu = exp(lam),

    P(i beats j) = pi_i / Z,   P(draw) = nu sqrt(pi_i pi_j) / Z,
    Z = pi_i + pi_j + nu sqrt(pi_i pi_j),

so among decisive games P(i beats j) = 1 / (1 + exp(theta_j - theta_i)), and on the Elo scale
Elo_i = 1200 + (400 / ln 10) (theta_i - mean theta) a 200-point lead wins 1 / (1 + 10^-0.5) =
76% of decisive games. The three outcomes form an exponential family in (theta_i, theta_j, lam)
(win i: (1, 0, 0), win j: (0, 1, 0), draw: (1/2, 1/2, 1)), so the negative log-likelihood is
convex, its gradient is observed minus expected statistics and its Hessian the games times
their covariance; SciPy's `trust-exact` Newton method minimises it over all games at once.

The weak prior: theta_i ~ N(0, PRIOR_SD^2) with PRIOR_SD = 3 (521 Elo) and lam ~ N(0, 3^2).
Without it an entrant with no win (or no loss) has no finite maximum-likelihood strength, nor
has nu in a field with no draw (or only draws). Its effect is the size of a few games' worth
of evidence: with 200 games against each opponent the fitted Elo of entrants that won and lost
moves by well under 1 point (tested); a winless, drawless entrant lands where the prior's
pull meets the likelihood's, about 1,000 to 1,500 Elo below the field for hundreds of games
(a lower bound in spirit, honestly finite rather than minus infinity).

Intervals (95%): a seeded bootstrap whose unit is the side-swapped pair of games sharing a seed
(`tournament`, `pair` columns), resampled within each matchup so every bootstrap round keeps
the tournament's design (every matchup played as often); the basic bootstrap interval
(2 fit - upper quantile, 2 fit - lower quantile; Davison & Hinkley 1997, eq. 5.6) around the
fitted value, which corrects the prior's shrinkage to first order. Where every pair of a matchup
ended alike (one side won all), every round draws the same counts and the bootstrap would give
a zero-width band: those entrants get the outer bounds of the bootstrap and Fisher intervals.
Or, fast, the Fisher-information interval fit +- 1.96 sd from the inverse Hessian. Every result
is invariant to renaming entrants, their order and the order of games: the fit works in a
canonical order made from the records (names only break exact ties).

A comparison graph with two or more groups that never met (even indirectly) has no common
scale: `fit_ratings` refuses it (DisconnectedError names the groups) and `rate_groups` rates each
group on its own with a warning. `elo_update` is the online Elo rule training uses.
"""

import math
import warnings
from dataclasses import dataclass

import numpy as np
import polars as pl
from scipy import optimize

from evaluation.rating_tally import (
    ELO_CENTRE,
    ELO_PER_UNIT,
    Matchups,
    games_frame,
    groups,
    simulate_field,
    tally,
)

PRIOR_SD = 3.0  # theta_i ~ N(0, 3^2): the weak prior (module doc)
DRAW_PRIOR = (0.0, 3.0)  # lam = ln nu ~ N(0, 3^2)
Z95 = 1.959963984540054
# Sufficient statistics of the outcomes (first wins, second wins, draw) in (theta_i, theta_j, lam).
STATS = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.5, 0.5, 1.0]])


class DisconnectedError(ValueError):
    """The comparison graph has groups that never met; `groups` lists their entrant names."""

    def __init__(self, groups: list[list[str]]):
        self.groups = groups
        named = "; ".join("{" + ", ".join(g) + "}" for g in groups)
        super().__init__(
            f"the entrants form {len(groups)} groups that never met, with no common Elo scale: "
            f"{named}; rate each group on its own (rate_groups, or `mbg rate`)"
        )


@dataclass(frozen=True)
class Ratings:
    """A fitted field. Arrays are (N,) float64 in the order of `entrants` (canonical order).

    elo: fitted Elo; low, high: the 95% interval; theta: log-strengths; draw_nu: nu and its
    interval (draw_low, draw_high); record: (N, 3) int wins, draws, losses; method: "bootstrap"
    or "fisher" (rounds and seed: the bootstrap's); log_likelihood of the fit (prior excluded);
    widened: entrants whose bootstrap band took Fisher's bounds (see `alike`).
    """

    entrants: tuple[str, ...]
    elo: np.ndarray
    low: np.ndarray
    high: np.ndarray
    theta: np.ndarray
    draw_nu: float
    draw_low: float
    draw_high: float
    record: np.ndarray
    method: str
    rounds: int
    seed: int | None
    log_likelihood: float
    widened: tuple[str, ...] = ()

    def table(self) -> pl.DataFrame:
        """The leaderboard: rank, entrant, elo, low, high, games, wins, draws, losses (by Elo)."""
        order = np.argsort(-self.elo, kind="stable")
        wins, draws, losses = (self.record[order, k] for k in range(3))
        return pl.DataFrame(
            {
                "rank": np.arange(1, len(order) + 1),
                "entrant": [self.entrants[i] for i in order],
                "elo": self.elo[order],
                "low": self.low[order],
                "high": self.high[order],
                "games": wins + draws + losses,
                "wins": wins,
                "draws": draws,
                "losses": losses,
            }
        )

    def summary(self) -> dict:
        """JSON-ready: the leaderboard rows, the draw parameter and how the intervals were made."""
        return {
            "leaderboard": self.table().to_dicts(),
            "draw_nu": self.draw_nu,
            "draw_nu_ci95": [self.draw_low, self.draw_high],
            "draw_share_between_equals": self.draw_nu / (2.0 + self.draw_nu),
            "interval": self.method,
            "rounds": self.rounds,
            "seed": self.seed,
            "log_likelihood": self.log_likelihood,
            "widened_to_fisher": list(self.widened),
        }


def expected_score(diff):
    """Expected score of the side `diff` Elo points above its opponent: 1 / (1 + 10^(-d/400))
    (works on floats, NumPy and JAX arrays)."""
    return 1.0 / (1.0 + 10.0 ** (-diff / 400.0))


def elo_update(rating_a, rating_b, score_a, k: float = 32.0):
    """The online Elo update after one game: score_a is 1 (A won), 0.5 (draw) or 0 (A lost);
    returns (new rating_a, new rating_b), each moved by k (score - expected); the sum is kept."""
    delta = k * (score_a - expected_score(rating_a - rating_b))
    return rating_a + delta, rating_b - delta


# --- the likelihood ---------------------------------------------------------------------------


def _eta(x, first, second):
    theta, lam = x[:-1], x[-1]
    ti, tj = theta[first], theta[second]
    return np.stack([ti, tj, lam + 0.5 * (ti + tj)], axis=1)  # (M, 3) natural parameters


def _softmax(eta):
    top = eta.max(axis=1, keepdims=True)
    e = np.exp(eta - top)
    total = e.sum(axis=1, keepdims=True)
    return e / total, top[:, 0] + np.log(total[:, 0])


def log_likelihood(x, first, second, counts) -> float:
    """Davidson log-likelihood of counts (M, 3) at x = (theta_0..theta_{N-1}, lam)."""
    eta = _eta(x, first, second)
    _, log_z = _softmax(eta)
    return float((counts * eta).sum() - (counts.sum(axis=1) * log_z).sum())


def ll_gradient(x, first, second, counts) -> np.ndarray:
    """Gradient of `log_likelihood` in x: observed minus expected sufficient statistics."""
    p, _ = _softmax(_eta(x, first, second))
    resid = (counts - counts.sum(axis=1, keepdims=True) * p) @ STATS  # (M, 3)
    n = len(x) - 1
    grad = np.bincount(first, resid[:, 0], n) + np.bincount(second, resid[:, 1], n)
    return np.append(grad, resid[:, 2].sum())


def _ll_hessian_neg(x, first, second, counts) -> np.ndarray:
    p, _ = _softmax(_eta(x, first, second))
    mean = p @ STATS
    cov = np.einsum("mo,oa,ob->mab", p, STATS, STATS) - mean[:, :, None] * mean[:, None, :]
    cov *= counts.sum(axis=1)[:, None, None]
    index = np.stack([first, second, np.full_like(first, len(x) - 1)], axis=1)
    hess = np.zeros((len(x), len(x)))
    for a in range(3):
        for b in range(3):
            np.add.at(hess, (index[:, a], index[:, b]), cov[:, a, b])
    return hess


def _prior(n: int, prior_sd: float | None):
    """(precision diagonal, mean) of the Gaussian prior on x; zero precision without a prior."""
    precision = np.zeros(n + 1)
    mean = np.zeros(n + 1)
    if prior_sd is not None:
        precision[:n] = 1.0 / prior_sd**2
        precision[n] = 1.0 / DRAW_PRIOR[1] ** 2
        mean[n] = DRAW_PRIOR[0]
    return precision, mean


def fit_strengths(first, second, counts, n, prior_sd=PRIOR_SD, start=None) -> np.ndarray:
    """Maximum a-posteriori x = (theta (n,), lam) of tallied games (SciPy trust-exact).

    first, second: (M,) int entrant indexes; counts: (M, 3) games (first won, second won,
    drawn). prior_sd=None fits plain maximum likelihood (finite only when every entrant has
    won and lost and draws occur but not only draws). Raises RuntimeError if SciPy fails.
    """
    precision, mean = _prior(n, prior_sd)
    scale = 1.0 / max(1.0, float(counts.sum()))  # per game, so one tolerance fits any size

    def objective(x):
        value = (
            -log_likelihood(x, first, second, counts) + 0.5 * (precision * (x - mean) ** 2).sum()
        )
        grad = -ll_gradient(x, first, second, counts) + precision * (x - mean)
        return scale * value, scale * grad

    def hessian(x):
        return scale * (_ll_hessian_neg(x, first, second, counts) + np.diag(precision))

    x0 = np.zeros(n + 1) if start is None else np.asarray(start, float)
    result = optimize.minimize(
        objective, x0, jac=True, hess=hessian, method="trust-exact", options={"gtol": 1e-10}
    )
    if not np.all(np.isfinite(result.x)) or np.abs(result.jac).max() > 1e-8:
        raise RuntimeError(f"rating fit did not converge: {result.message}")
    return result.x


def to_elo(theta: np.ndarray) -> np.ndarray:
    """Log-strengths (..., N) -> Elo centred at 1,200."""
    return ELO_CENTRE + ELO_PER_UNIT * (theta - theta.mean(axis=-1, keepdims=True))


# --- intervals --------------------------------------------------------------------------------


def bootstrap_rounds(matchups: Matchups, x_hat, rounds: int, seed: int, prior_sd=PRIOR_SD):
    """Refit `rounds` resamples of the pair units (within each matchup); returns (rounds, N+1).

    Raises RuntimeError if a round is not finite (the prior keeps every round finite)."""
    rng = np.random.default_rng(seed)
    counts = np.zeros((rounds, len(matchups.first), 3))
    for m, units in enumerate(matchups.units):
        picks = rng.integers(0, len(units), size=(rounds, len(units)))
        counts[:, m] = units[picks].sum(axis=1)
    n = len(matchups.entrants)
    fits = np.array(
        [fit_strengths(matchups.first, matchups.second, c, n, prior_sd, x_hat) for c in counts]
    )
    if not np.all(np.isfinite(fits)):
        raise RuntimeError("a bootstrap round gave a non-finite rating")
    return fits


def fisher_sd(matchups: Matchups, x_hat, prior_sd=PRIOR_SD) -> tuple[np.ndarray, float]:
    """Standard deviations of the Elo ratings (N,) and of lam from the inverse Hessian."""
    n = len(matchups.entrants)
    hess = _ll_hessian_neg(x_hat, matchups.first, matchups.second, matchups.counts)
    cov = np.linalg.pinv(hess + np.diag(_prior(n, prior_sd)[0]))
    centre = np.eye(n) - 1.0 / n  # Elo is the centred theta, scaled
    cov_elo = ELO_PER_UNIT**2 * centre @ cov[:n, :n] @ centre
    return np.sqrt(np.clip(np.diag(cov_elo), 0.0, None)), float(np.sqrt(max(cov[n, n], 0.0)))


def _record_array(matchups: Matchups) -> np.ndarray:
    record = np.zeros((len(matchups.entrants), 3), np.int64)
    for i, j, (wi, wj, d) in zip(matchups.first, matchups.second, matchups.counts, strict=True):
        record[i] += np.array([wi, d, wj], np.int64)
        record[j] += np.array([wj, d, wi], np.int64)
    return record


def alike(matchups: Matchups) -> tuple[np.ndarray, bool]:
    """Where resampling cannot see uncertainty: (N,) bool, entrants with a matchup in which
    every unit ended the same way; and whether every unit of the field has as many draws."""
    flat = np.zeros(len(matchups.entrants), bool)
    for i, j, units in zip(matchups.first, matchups.second, matchups.units, strict=True):
        if np.all(units == units[0]):
            flat[[i, j]] = True
    draws = np.concatenate([u[:, 2] for u in matchups.units])
    return flat, bool(np.all(draws == draws[0]))


def _widen(matchups, x_hat, prior_sd, band, lam_band):
    """A matchup whose units all ended alike gives the same counts in every bootstrap round:
    a zero-width band that would claim certainty. Its entrants (and nu, when every unit has as
    many draws) take the outer bounds of the bootstrap and Fisher intervals instead."""
    flat, same_draws = alike(matchups)
    if not flat.any() and not same_draws:
        return band[0], band[1], lam_band
    n = len(matchups.entrants)
    sd, sd_lam = fisher_sd(matchups, x_hat, prior_sd)
    elo = to_elo(x_hat[:n])
    low = np.where(flat, np.minimum(band[0], elo - Z95 * sd), band[0])
    high = np.where(flat, np.maximum(band[1], elo + Z95 * sd), band[1])
    if same_draws:
        lam = x_hat[n]
        lam_band = (min(lam_band[0], lam - Z95 * sd_lam), max(lam_band[1], lam + Z95 * sd_lam))
    return low, high, lam_band


def fit_matchups(
    matchups: Matchups,
    interval: str = "bootstrap",
    rounds: int = 1000,
    seed: int = 0,
    prior_sd: float | None = PRIOR_SD,
) -> Ratings:
    """Fit one connected field; interval "bootstrap" (rounds, seed) or "fisher". Raises
    ValueError for an unknown interval or fewer than 2 rounds, DisconnectedError."""
    if interval not in ("bootstrap", "fisher"):
        raise ValueError(f"interval {interval!r}: use bootstrap or fisher")
    parts = groups(matchups)
    if len(parts) > 1:
        raise DisconnectedError(parts)
    n = len(matchups.entrants)
    x_hat = fit_strengths(matchups.first, matchups.second, matchups.counts, n, prior_sd)
    elo, nu = to_elo(x_hat[:n]), math.exp(x_hat[n])
    if interval == "fisher":
        sd, sd_lam = fisher_sd(matchups, x_hat, prior_sd)
        low, high = elo - Z95 * sd, elo + Z95 * sd
        lam_band = (x_hat[n] - Z95 * sd_lam, x_hat[n] + Z95 * sd_lam)
        rounds, seed, widened = 0, None, ()
    else:
        if rounds < 2:
            raise ValueError(f"rounds {rounds}: the bootstrap needs at least 2")
        fits = bootstrap_rounds(matchups, x_hat, rounds, seed, prior_sd)
        q_lo, q_hi = np.quantile(to_elo(fits[:, :n]), [0.025, 0.975], axis=0)
        low, high = 2 * elo - q_hi, 2 * elo - q_lo  # the basic interval, around the fit
        lam_q = np.quantile(fits[:, n], [0.025, 0.975])
        lam_band = (2 * x_hat[n] - lam_q[1], 2 * x_hat[n] - lam_q[0])
        low, high, lam_band = _widen(matchups, x_hat, prior_sd, (low, high), lam_band)
        widened = tuple(e for e, f in zip(matchups.entrants, alike(matchups)[0], strict=True) if f)
    return Ratings(
        entrants=matchups.entrants,
        elo=elo,
        low=low,
        high=high,
        theta=x_hat[:n],
        draw_nu=nu,
        draw_low=math.exp(lam_band[0]),
        draw_high=math.exp(lam_band[1]),
        record=_record_array(matchups),
        method=interval,
        rounds=rounds,
        seed=seed,
        log_likelihood=log_likelihood(x_hat, matchups.first, matchups.second, matchups.counts),
        widened=widened,
    )


def fit_ratings(results: pl.DataFrame, **options) -> Ratings:
    """Rate every entrant of a results table on one scale (options: see `fit_matchups`).
    Raises DisconnectedError (a ValueError naming the groups) when some never met."""
    return fit_matchups(tally(games_frame(results)), **options)


def rate_groups(results: pl.DataFrame, **options) -> list[Ratings]:
    """Rate each connected group of a results table on its own scale (one group: one Ratings);
    with several, a UserWarning names them. Options: see `fit_matchups`."""
    games = games_frame(results)
    parts = groups(tally(games))
    if len(parts) > 1:
        warnings.warn(str(DisconnectedError(parts)), UserWarning, stacklevel=2)
    out = []
    for part in parts:
        subset = games.filter(pl.col("entrant_a").is_in(part))
        out.append(fit_matchups(tally(subset), **options))
    return out


__all__ = [
    "Matchups",
    "games_frame",
    "groups",
    "tally",
    "DisconnectedError",
    "Ratings",
    "elo_update",
    "expected_score",
    "fit_ratings",
    "rate_groups",
    "simulate_field",
    "to_elo",
]
