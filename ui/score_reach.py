"""Whether a team can still win a position within some ticks, bounded from the rules.

The save-a-position form warns when the focal team cannot win a scenario at all: even if every
enemy died at every tick the rules let it die, 2 points a death (a death in the victim's own
Red Zone, the most a death scores: RULES 1.6, 4 step 16), the team would not reach the score
to win (RULES 4.3). How often one enemy can die follows the respawn rules (RULES 4 steps
14-15, 4.2): a dead agent comes back only in its
team's wave (the tick starting with the wave clock at 0, then every `wave_period` ticks), with a
spawn shield of `shield_ticks` ticks during which nobody can target it, and an agent that dies
on a wave's tick waits for the next wave. Dying as early as possible never delays a later death,
so the greedy timeline below gives the most deaths.

NumPy and Python only (the Replay Viewer imports no JAX).
"""

from ui.explain import counted
from ui.rules import C


def _tick(alive: bool, shield: int, clock: int, wave_period: int, shield_ticks: int):
    """One tick of the greedy timeline: (died, alive, shield, clock) after it."""
    wave = clock == 0  # the wave fires on this tick (RULES 4 step 15)
    died = alive and shield == 0  # this tick's wave does not bring it back
    if died:
        alive = False
    elif alive:
        shield -= 1  # step 14: a shielded agent cannot be targeted
    elif wave:
        alive, shield = True, int(shield_ticks)  # not reduced on its wave's tick
    return died, alive, shield, wave_period - 1 if wave else clock - 1


def most_deaths(alive: bool, shield: int, clock: int, ticks: int, wave_period: int,
                shield_ticks: int) -> int:  # fmt: skip
    """The most times one agent can die in the next `ticks` ticks, from its state at the first
    one's start: alive or not, spawn-shield ticks left, its team's wave clock (ticks).

    The timeline has at most 2 * (shield_ticks + 1) * wave_period states, so it repeats within
    that many ticks; whole repeats are counted at once, so any horizon a person can type (even
    20 digits) takes at most a few hundred steps."""
    deaths, state, ticks = 0, (bool(alive), int(shield), int(clock)), int(ticks)
    seen, t = {}, 0
    while t < ticks:
        if state in seen:  # a cycle: skip every whole repeat that still fits
            t0, d0 = seen[state]
            repeats = (ticks - t) // (t - t0)
            t, deaths, seen = t + repeats * (t - t0), deaths + repeats * (deaths - d0), {}
            if t >= ticks:
                break
        seen[state] = (t, deaths)
        died, *rest = _tick(*state, wave_period, shield_ticks)
        deaths, state, t = deaths + died, tuple(rest), t + 1
    return deaths


def most_points(state: dict, team: int, ticks: int, rules) -> int:
    """The most points `team` (0 A, 1 B) can gain in `ticks` ticks from `state` (a State as a
    dict of NumPy arrays: active, alive, shield (10,), wave_clock (2,)) under `rules` (an
    engine Config or anything with its wave_period and shield_ticks): RED_ZONE_POINTS for every
    death its enemies can suffer."""
    enemy = 1 - int(team)
    clock = int(state["wave_clock"][enemy])
    period, shield_ticks = int(rules.wave_period), int(rules.shield_ticks)
    deaths = sum(
        most_deaths(state["alive"][s], state["shield"][s], clock, ticks, period, shield_ticks)
        for s in C.TEAM_SLOTS[enemy]
        if state["active"][s]
    )
    return C.RED_ZONE_POINTS * deaths


def cannot_win(state: dict, team: int, ticks: int, rules) -> str:
    """ "" when `team` could still reach the score to win within `ticks` ticks from `state`
    under `rules` (a Config: score_threshold, wave_period, shield_ticks), else why it cannot.
    (Passing the other team's score needs no check of its own: while the game goes on, that
    score is below the score to win.)"""
    own = int(state["score"][team])
    gain = most_points(state, team, ticks, rules)
    goal = int(rules.score_threshold)
    if own + gain >= goal:
        return ""
    name = C.TEAM_NAMES[team]
    return (
        f"Cannot be won: in {counted(ticks, 'tick')} Team {name} can score at most {gain} more "
        f"points ({own} + {gain} < {goal} to win)"
    )


def horizon_problem(horizon: str) -> str:
    """Why a typed horizon (text) is not a number of ticks Save can take, or "" when it is;
    both save forms (BattleClient menu, Replay Viewer) say it as it is typed and at Save."""
    if horizon.isdigit() and int(horizon) >= 1:
        return ""
    return f"Horizon {horizon!r}: type a number of ticks, 1 or more"


def horizon_warning(state: dict, team: int, ticks: int, rules) -> str:
    """What the save forms show for a typed horizon: that it is longer than a scenario may be
    (engine.constants.MAX_SCENARIO_TICKS; saving it is refused), else `cannot_win`'s answer."""
    if ticks > C.MAX_SCENARIO_TICKS:
        return f"Too long: a scenario's horizon is at most {C.MAX_SCENARIO_TICKS} ticks"
    return cannot_win(state, team, ticks, rules)
