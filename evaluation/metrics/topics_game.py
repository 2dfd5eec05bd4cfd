"""Topics about the game as a whole: outcome, score, tempo, trades, legality."""

import numpy as np

from engine import constants as C
from evaluation.metrics.arrays import TEAM, first_tick, ratio, window_sum
from evaluation.metrics.catalog import TRADE_WINDOW
from evaluation.metrics.registry import provides

OPP = np.array([1, 0])


def _final_outcome(g) -> int:
    return int(np.asarray(g.st("outcome"))[-1])


# --- outcome -------------------------------------------------------------------------------------
@provides("outcome.result")
def _result(g):
    return _final_outcome(g)


@provides("outcome.ticks")
def _ticks(g):
    return g.T


@provides("outcome.points")
def _points(g):
    table = {C.A_WINS: [1.0, 0.0], C.B_WINS: [0.0, 1.0], C.DRAW: [0.5, 0.5]}
    return np.array(table.get(_final_outcome(g), [0.0, 0.0]))


@provides("outcome.terminated", "outcome.truncated")
def _ends(g):
    return g.ev("terminated").any(), g.ev("truncated").any()


@provides("outcome.team_size")
def _team_size(g):
    return g.team_sum(np.ones(C.NUM_SLOTS))


# --- score ---------------------------------------------------------------------------------------
@provides("score.final", "score.margin")
def _final(g):
    final = g.st("score")[-1].astype(np.int64)
    return final, final - final[OPP]


@provides("score.red_zone_bonus")
def _red_zone_bonus(g):
    lost = g.team_sum(g.ev("red_zone_death") & g.died)
    return lost[OPP] * (C.RED_ZONE_POINTS - 1)


@provides("score.lead_ticks", "score.max_deficit")
def _lead(g):
    s = g.score_after
    lead = (s > s[:, OPP]).sum(0)
    deficit = np.maximum((s[:, OPP] - s).max(0, initial=0), 0)
    return lead, deficit


@provides("score.lead_changes")
def _lead_changes(g):
    s = g.score_after
    leader = np.where(s[:, 0] > s[:, 1], 0, np.where(s[:, 1] > s[:, 0], 1, -1))
    leader = leader[leader >= 0]
    return np.count_nonzero(leader[1:] != leader[:-1])


@provides("score.first_point_tick")
def _first_point(g):
    return first_tick(g.ev("score_delta") > 0)


# --- tempo ---------------------------------------------------------------------------------------
@provides("tempo.first_blood_tick", "tempo.first_blood_team")
def _first_blood(g):
    deaths = g.by_team(g.died)  # (T, 2) deaths of each team
    t = first_tick(deaths.sum(1) > 0)
    if t < 0:
        return -1, -1
    scorers = np.flatnonzero(deaths[t][OPP] > 0)
    return t, scorers[0] if len(scorers) == 1 else 2


@provides("tempo.damage_per_tick")
def _damage_per_tick(g):
    return ratio(g.team_sum(g.damage["realised"].sum(2)), g.T)


@provides("tempo.kills_first_half", "tempo.kills_second_half")
def _kills_by_half(g):
    kills = g.by_team(g.died)[:, OPP]  # (T, 2) kills of each team
    first = np.arange(g.T) < g.T / 2
    return kills[first].sum(0), kills[~first].sum(0)


@provides("tempo.longest_quiet")
def _longest_quiet(g):
    quiet = ~g.hit.any((1, 2))
    padded = np.concatenate([[0], quiet.astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(padded))
    return (edges[1::2] - edges[::2]).max(initial=0)


# --- trades --------------------------------------------------------------------------------------
@provides("trades.death_balance", "trades.mutual_ticks")
def _balance(g):
    deaths = g.by_team(g.died)
    total = deaths.sum(0)
    return total[OPP] - total, np.count_nonzero((deaths > 0).all(1))


@provides("trades.answered_deaths", "trades.unanswered_deaths")
def _answered(g):
    deaths = g.by_team(g.died)
    ahead = window_sum(deaths, 0, TRADE_WINDOW)  # deaths in [t, t + 3]
    answered = (deaths * (ahead[:, OPP] > 0)).sum(0)
    return answered, deaths.sum(0) - answered


@provides("trades.damage_ratio")
def _damage_ratio(g):
    realised = g.damage["realised"]
    return ratio(g.team_sum(realised.sum(2)), g.team_sum(realised.sum(1)))


@provides("trades.revenge")
def _revenge(g):
    # kills_on[t, v, k]: victim-side team k lost a unit to which v contributed at tick t
    team_onehot = (TEAM[:, None] == np.arange(C.NUM_TEAMS)).astype(np.int64)
    kills_on = g.lethal.astype(np.int64) @ team_onehot
    before = window_sum(kills_on, TRADE_WINDOW, -1)  # ticks [t - 3, t - 1]
    avenges = before[:, :, TEAM].transpose(0, 2, 1) > 0  # [t, s, v]: v killed a unit of s's team
    return (g.lethal & avenges).sum(0)


# --- legality ------------------------------------------------------------------------------------
@provides("legality.rejected_domain", "legality.rejected_move", "legality.rejected_combat")
def _rejections(g):
    counts = g.ev("rejected").sum(0)  # (10, 3)
    return counts[:, 0], counts[:, 1], counts[:, 2]


@provides("legality.fallbacks", "legality.team_fallbacks")
def _fallbacks(g):
    counts = g.ev("fallback").sum(0)
    return counts, g.team_sum(counts)


@provides("legality.acceptance", "legality.team_rejections")
def _acceptance(g):
    rejected = g.ev("rejected").any(2)
    return ratio(g.T - rejected.sum(0), g.T), g.team_sum(rejected)
