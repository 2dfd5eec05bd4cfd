"""evaluation/rating.py: the Davidson fit, invariances, the weak prior, intervals, online Elo."""

import math
import warnings

import numpy as np
import polars as pl
import pytest

from evaluation import rating as R


def field(games_per_pair=20, seed=3, elo=(1000, 1150, 1200, 1300, 1420), nu=0.4):
    return R.simulate_field(list(elo), nu, games_per_pair, seed)


def board(ratings) -> dict:
    """entrant -> (elo, low, high), for comparing fits whatever the order."""
    return {
        name: (ratings.elo[i], ratings.low[i], ratings.high[i])
        for i, name in enumerate(ratings.entrants)
    }


def test_renaming_reordering_and_shuffling_change_nothing():
    games = field()
    base = R.fit_ratings(games, rounds=200, seed=5)
    rename = {"e0": "zulu", "e1": "alpha", "e2": "mike", "e3": "bravo", "e4": "echo"}
    rng = np.random.default_rng(0)
    swap = pl.Series(rng.random(games.height) < 0.5)  # the same games told from the other side
    flip = {"A": "B", "B": "A", "draw": "draw"}
    moved = (
        games.with_columns(
            pl.col("entrant_a").replace_strict(rename),
            pl.col("entrant_b").replace_strict(rename),
        )
        .with_columns(
            pl.when(swap)
            .then(pl.col("entrant_b"))
            .otherwise(pl.col("entrant_a"))
            .alias("entrant_a"),
            pl.when(swap)
            .then(pl.col("entrant_a"))
            .otherwise(pl.col("entrant_b"))
            .alias("entrant_b"),
            pl.when(swap)
            .then(pl.col("winner").replace_strict(flip))
            .otherwise(pl.col("winner"))
            .alias("winner"),
        )
        .sample(fraction=1.0, shuffle=True, seed=11)
    )
    other = R.fit_ratings(moved, rounds=200, seed=5)
    mine, theirs = board(base), board(other)
    for old, new in rename.items():
        assert mine[old] == theirs[new]  # bit for bit, intervals included
    assert base.draw_nu == other.draw_nu


def test_all_draws_rate_everyone_1200_with_finite_intervals():
    games = field(nu=1e6, games_per_pair=10)
    assert set(games["winner"]) == {"draw"}
    for interval in ("bootstrap", "fisher"):
        ratings = R.fit_ratings(games, interval=interval, rounds=50)
        np.testing.assert_allclose(ratings.elo, 1200.0, atol=1e-6)
        assert np.all(np.isfinite(ratings.low)) and np.all(np.isfinite(ratings.high))
        assert np.all(ratings.low <= 1200.0 + 1e-6) and np.all(ratings.high >= 1200.0 - 1e-6)
        assert math.isfinite(ratings.draw_nu) and ratings.draw_nu > 10


def test_winless_and_undefeated_entrants_stay_finite_in_every_round():
    rows = []
    for pair, (a, b, winner) in enumerate(
        [("top", x, "A") for x in ("m1", "m2", "low")] * 6
        + [("m1", "m2", w) for w in ("A", "B", "draw")] * 4
        + [(x, "low", "A") for x in ("m1", "m2")] * 6
    ):
        rows.append({"entrant_a": a, "entrant_b": b, "winner": winner, "tournament": "t",
                     "pair": pair})  # fmt: skip
    games = pl.DataFrame(rows)
    ratings = R.fit_ratings(games, rounds=100, seed=1)
    elo = dict(zip(ratings.entrants, ratings.elo, strict=True))
    assert elo["top"] > elo["m1"] > elo["low"] and elo["top"] > elo["m2"] > elo["low"]
    for values in (ratings.elo, ratings.low, ratings.high, ratings.theta):
        assert np.all(np.isfinite(values))
    matchups = R.tally(R.games_frame(games))
    x_hat = R.fit_strengths(matchups.first, matchups.second, matchups.counts, 4)
    rounds = R.bootstrap_rounds(matchups, x_hat, 100, seed=1)
    assert rounds.shape == (100, 5) and np.all(np.isfinite(rounds))
    assert np.all(np.isfinite(R.fisher_sd(matchups, x_hat)[0]))


def test_groups_that_never_met_are_refused_and_rated_apart():
    games = pl.concat(
        [
            R.simulate_field([1100, 1300], 0.3, 20, 1, names=["ant", "bee"], tournament="x"),
            R.simulate_field(
                [1000, 1250, 1400], 0.3, 20, 2, names=["cat", "dog", "eel"], tournament="y"
            ),
        ]
    )
    with pytest.raises(R.DisconnectedError, match=r"\{ant, bee\}; \{cat, dog, eel\}") as caught:
        R.fit_ratings(games, interval="fisher")
    assert caught.value.groups == [["ant", "bee"], ["cat", "dog", "eel"]]
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        parts = R.rate_groups(games, interval="fisher")
    assert len(seen) == 1 and "ant, bee" in str(seen[0].message)
    assert [sorted(p.entrants) for p in parts] == [["ant", "bee"], ["cat", "dog", "eel"]]
    for part in parts:
        assert part.elo.mean() == pytest.approx(1200.0)


def test_200_elo_is_76_percent_of_decisive_games():
    assert R.expected_score(200.0) == pytest.approx(1 / (1 + 10**-0.5))
    assert R.expected_score(200.0) == pytest.approx(0.7597, abs=1e-4)
    theta = 200.0 / R.ELO_PER_UNIT  # the Davidson model's decisive share at a 200-point gap
    x = np.array([theta, 0.0, math.log(0.5)])
    eta = R._eta(x, np.array([0]), np.array([1]))
    p, _ = R._softmax(eta)
    assert p[0, 0] / (p[0, 0] + p[0, 1]) == pytest.approx(0.7597, abs=1e-4)


def test_online_elo_update_by_hand():
    expected = 1 / (1 + 10**0.5)  # 1200 against 1400: 0.240253
    win = R.elo_update(1200.0, 1400.0, 1.0, k=32)
    assert win == pytest.approx((1200 + 32 * (1 - expected), 1400 - 32 * (1 - expected)))
    assert win[0] == pytest.approx(1224.312, abs=1e-3)
    draw = R.elo_update(1200.0, 1400.0, 0.5, k=32)
    assert draw[0] == pytest.approx(1208.312, abs=1e-3) and sum(draw) == pytest.approx(2600)


def test_known_strengths_are_recovered():
    truth = np.array([950.0, 1100.0, 1200.0, 1300.0, 1450.0])
    ratings = R.fit_ratings(
        field(games_per_pair=2000, seed=9, elo=truth, nu=0.3), interval="fisher"
    )
    fitted = dict(zip(ratings.entrants, ratings.elo, strict=True))
    recovered = np.array([fitted[f"e{i}"] for i in range(5)])
    np.testing.assert_allclose(recovered, truth, atol=15.0)  # 95% half-width is about 12
    assert ratings.draw_nu == pytest.approx(0.3, rel=0.1)


def coverage(interval: str, repetitions: int, rounds: int) -> float:
    truth = np.array([1000.0, 1120.0, 1200.0, 1260.0, 1420.0])
    truth_elo = R.ELO_CENTRE + truth - truth.mean()
    hits = 0
    for rep in range(repetitions):
        ratings = R.fit_ratings(
            field(games_per_pair=40, seed=100 + rep, elo=truth, nu=0.4),
            interval=interval, rounds=rounds, seed=rep,
        )  # fmt: skip
        for i, name in enumerate(ratings.entrants):
            true = truth_elo[int(name[1:])]
            hits += ratings.low[i] <= true <= ratings.high[i]
    return hits / (5 * repetitions)


def test_fisher_intervals_cover_the_truth_about_95_percent():
    assert 0.92 <= coverage("fisher", 200, 0) <= 0.98  # 1,000 intervals: sd of the rate 0.7%


@pytest.mark.slow
def test_bootstrap_intervals_cover_the_truth_about_95_percent():
    assert 0.88 <= coverage("bootstrap", 30, 100) <= 0.99  # 150 intervals: sd 1.8%


def test_decisive_fit_agrees_with_choix():
    choix = pytest.importorskip("choix")
    games = field(games_per_pair=150, seed=4, nu=1e-9)
    assert "draw" not in set(games["winner"])
    ratings = R.fit_ratings(games, interval="fisher")
    index = {f"e{i}": i for i in range(5)}
    data = [
        (index[a], index[b]) if w == "A" else (index[b], index[a])
        for a, b, w in games.select("entrant_a", "entrant_b", "winner").iter_rows()
    ]
    # choix's penalty alpha * sum(theta^2) is our prior theta ~ N(0, PRIOR_SD^2)
    theta = choix.opt_pairwise(5, data, alpha=1 / (2 * R.PRIOR_SD**2), tol=1e-10)
    theirs = R.to_elo(np.asarray(theta))
    mine = dict(zip(ratings.entrants, ratings.elo, strict=True))
    # without draws nu shrinks to ~1e-3 under its prior: a fraction of an Elo point
    np.testing.assert_allclose([mine[f"e{i}"] for i in range(5)], theirs, atol=0.5)


def test_gradient_is_zero_at_the_fit():
    matchups = R.tally(R.games_frame(field(games_per_pair=60, seed=8)))
    n = len(matchups.entrants)
    for prior_sd in (R.PRIOR_SD, None):
        x = R.fit_strengths(matchups.first, matchups.second, matchups.counts, n, prior_sd)
        grad = R.ll_gradient(x, matchups.first, matchups.second, matchups.counts)
        precision, mean = R._prior(n, prior_sd)
        np.testing.assert_allclose(grad - precision * (x - mean), 0.0, atol=1e-5)
        if prior_sd is None:  # plain maximum likelihood: the log-likelihood's own gradient
            np.testing.assert_allclose(grad, 0.0, atol=1e-5)
    numeric = np.zeros(n + 1)
    for k in range(n + 1):  # the analytic gradient against central differences
        step = np.zeros(n + 1)
        step[k] = 1e-6
        plus = R.log_likelihood(x + step, matchups.first, matchups.second, matchups.counts)
        minus = R.log_likelihood(x - step, matchups.first, matchups.second, matchups.counts)
        numeric[k] = (plus - minus) / 2e-6
    np.testing.assert_allclose(numeric, 0.0, atol=1e-3)


def test_prior_moves_well_measured_ratings_by_under_a_point():
    games = field(games_per_pair=200, seed=21)
    with_prior = R.fit_ratings(games, interval="fisher")
    without = R.fit_ratings(games, interval="fisher", prior_sd=None)
    assert with_prior.entrants == without.entrants
    assert np.abs(with_prior.elo - without.elo).max() < 1.0


def test_bad_results_are_named():
    with pytest.raises(ValueError, match="column 'winner' is missing"):
        R.fit_ratings(pl.DataFrame({"entrant_a": ["a"], "entrant_b": ["b"]}))
    bad = pl.DataFrame({"entrant_a": ["a"], "entrant_b": ["b"], "winner": ["C"]})
    with pytest.raises(ValueError, match="winner 'C'"):
        R.fit_ratings(bad)
    with pytest.raises(ValueError, match="interval 'exact'"):
        R.fit_ratings(field(4), interval="exact")


def test_a_matchup_won_every_time_still_gets_an_honest_interval():
    rows = [
        {
            "entrant_a": "strong",
            "entrant_b": "weak",
            "winner": "A",
            "tournament": "t",
            "pair": k // 2,
        }
        for k in range(100)
    ]
    games = pl.DataFrame(rows)
    ratings = R.fit_ratings(games, rounds=100)
    fisher = R.fit_ratings(games, interval="fisher")
    np.testing.assert_allclose(ratings.elo, fisher.elo)
    # every bootstrap round is the same 100-0: the band is Fisher's, not zero wide
    np.testing.assert_allclose(ratings.low, fisher.low)
    np.testing.assert_allclose(ratings.high, fisher.high)
    assert np.all(ratings.high - ratings.low > 100.0)
    assert ratings.widened == ("strong", "weak") and fisher.widened == ()
    assert ratings.draw_low < ratings.draw_nu < ratings.draw_high
