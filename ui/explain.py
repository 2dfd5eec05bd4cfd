"""One tick's events in words, for the event log ("Rogue B3 poisoned Priest A4: 36 damage, ...").

Sentences follow the tick order of RULES 4 (acceptance, abilities, regeneration, cooldowns,
statuses, deaths, respawns, score, outcome). A point of view is told no more than its
observations of the new state hold (RULES 5.3-5.7): a unit's action, this tick's damage,
healing, statuses, regeneration and cooldown only for units it sees directly in that state (a
relayed row shows the tick before), and rejected or fallback orders only for its own agents
(5.5: only accepted actions are observed). Deaths and respawns are public (5.6).
"""

import math

import numpy as np

from ui.rules import C, unit_name

REJECTED = (
    "order was out of range of the action heads",
    "move was rejected",
    "attack was rejected",
)


def num(value: float) -> str:
    """Hit points for reading: one decimal at most, no trailing zeros ("14.95" -> "15", "3.2")."""
    value = float(value)
    value += math.copysign(1e-4, value)  # float32 14.95 is 14.9499998: round it as written
    text = f"{value:.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _status_phrase(channel: int, ticks: int) -> str:
    return C.STATUSES[channel].phrase.format(ticks=ticks, s="" if ticks == 1 else "s")


def _statuses(ev, after, cls: int, lane: int, slot: int, on_self: bool) -> list[str]:
    table = C.STATUS_ON_SELF[cls] if on_self else C.STATUS_ON_HIT[cls, lane - 1]
    fresh = (ev["status_applied"][slot] | ev["status_refreshed"][slot]) & table
    # stuns first, then slows, then the rest: the order a player cares about
    order = sorted(np.flatnonzero(fresh), key=lambda c: (not C.IS_STUN[c], C.SLOW_FACTOR[c] == 1))
    out = []
    for c in order:
        left = int(after["status"][slot][c]) or int(C.STATUS_DURATION[c])
        out.append(_status_phrase(int(c), left))
    return out


def _ability(ev, before, after, src: int, known, oracle: bool) -> str | None:
    """`known`: the slots seen directly in `after` (whose action and this tick's effects the
    view observed); `oracle`: the view sees everything, this tick's effects on the dead too."""
    lane, rec = int(ev["lane"][src]), int(ev["recipient"][src])
    cls = int(before["class_id"][src])
    if lane == 0 or (src not in known and (rec < 0 or rec not in known)):
        return None
    name = unit_name(src, cls) if src in known else "A unit out of view"
    if rec < 0:  # Mage Burst: an Ultimate on itself
        parts = _statuses(ev, after, cls, lane, src, on_self=True)
        return f"{name} {C.VERBS.get((cls, lane), 'acted')}" + (
            f": {', '.join(parts)}" if parts else ""
        )
    target = unit_name(rec, before["class_id"][rec])
    if rec not in known or (ev["died"][rec] and not oracle):
        # a death is public (5.6) and the source's target is in its observed prev_action (5.5);
        # the damage to a unit that left the view, dying or not, is not observed
        where = ", who died this tick" if ev["died"][rec] else " (out of view)"
        return f"{name} {C.VERBS.get((cls, lane), 'targeted')} {target}{where}"
    parts = []
    if ev["damage_recipient"][src, rec] > 0:
        text = f"{num(ev['damage_recipient'][src, rec])} damage"
        if abs(ev["damage_realised"][src, rec] - ev["damage_recipient"][src, rec]) >= 0.05:
            text += f" ({num(ev['damage_realised'][src, rec])} taken)"
        parts.append(text)
    if ev["heal_recipient"][src, rec] > 0:
        text = f"{num(ev['heal_recipient'][src, rec])} healing"  # "200 health" read as a total
        if abs(ev["heal_realised"][src, rec] - ev["heal_recipient"][src, rec]) >= 0.05:
            text += f" ({num(ev['heal_realised'][src, rec])} restored)"
        parts.append(text)
    parts += _statuses(ev, after, cls, lane, rec, on_self=False)
    if src not in known:
        how = "hit" if ev["damage_recipient"][src, rec] > 0 else "healed"
        if not ev["damage_recipient"][src, rec] and not ev["heal_recipient"][src, rec]:
            how = "targeted"
        return f"{target} was {how} by a unit out of view: {', '.join(parts)}"
    verb = C.VERBS.get((cls, lane), "targeted")
    target = "itself" if rec == src else target
    return f"{name} {verb} {target}" + (f": {', '.join(parts)}" if parts else "")


def _orders(ev, before, known) -> list[str]:
    out = []
    for s in sorted(known):
        name = unit_name(s, before["class_id"][s])
        if ev["fallback"][s]:
            out.append(f"{name}: its System gave no answer; a fallback order was used")
        for k, flag in enumerate(ev["rejected"][s]):
            if flag:
                out.append(f"{name}'s {REJECTED[k]}")
    return out


def _names(before, known, mask) -> list[str]:
    return [unit_name(s, before["class_id"][s]) for s in sorted(known) if mask[s]]


def _upkeep(ev, before, known) -> list[str]:
    out = []
    regen = [
        f"{unit_name(s, before['class_id'][s])} +{num(ev['regen'][s])}"
        for s in sorted(known)
        if ev["regen"][s] > 0
    ]
    if regen:
        out.append("Regenerated: " + ", ".join(regen))
    ready = _names(before, known, ev["cooldown_ready"])
    if ready:
        out.append("Ultimate ready: " + ", ".join(ready))
    broken = _names(before, known, ev["status_broken"].any(axis=1))
    if broken:
        out.append("Trap broken by damage: " + ", ".join(broken))
    return out


def death_facts(ev, victim: int, seen_before=None) -> tuple[list[int], bool]:
    """(killers, red_zone) of `victim`, who died in the tick of `ev`, as far as a view knows.

    `seen_before`: None for the Oracle view, else the slots the view saw directly at tick
    start. Only the Oracle is told the lethal sources (`Events.lethal`): no observation holds
    damage dealt to a unit that is dead after the tick, and the game never attributes a kill
    (RULES 4 step 16). A Red Zone death is told where the view saw the victim at tick start
    (its row's in_red_zone, 5.3) or the public score says it (5.4, 5.6): the scoring team
    gained 2 points for each death on the victim's team.
    """
    red = bool(ev["red_zone_death"][victim])
    if seen_before is None:
        return [int(k) for k in np.flatnonzero(ev["lethal"][:, victim])], red
    team = victim // C.TEAM_SIZE
    deaths = int(np.asarray(ev["died"])[team * C.TEAM_SIZE : (team + 1) * C.TEAM_SIZE].sum())
    scored = int(ev["score_delta"][1 - team]) == C.RED_ZONE_POINTS * deaths
    return [], red and (victim in seen_before or scored)


def _deaths(ev, before, known, seen_before) -> list[str]:
    out = []
    for s in sorted(known):
        if not ev["died"][s]:
            continue
        text = f"{unit_name(s, before['class_id'][s])} died"
        killers, red = death_facts(ev, s, seen_before)
        if killers:
            names = [unit_name(k, before["class_id"][k]) for k in killers]
            text += " (lethal damage: " + ", ".join(names) + ")"
        if red:
            text += f" in its own Red Zone: {C.RED_ZONE_POINTS} points"
        out.append(text)
    back = _names(before, known, ev["respawned"])
    if back:
        out.append("Respawned (shielded): " + ", ".join(back))
    return out


def end_reason(events) -> str:
    """Why a finished game ended, as the event log and the BattleClient's end card both say
    it: "score threshold" (`events["terminated"]`) or "horizon reached" (RULES 4.3)."""
    return "score threshold" if events["terminated"] else "horizon reached"


def _score(ev, after) -> list[str]:
    out = []
    a, b = (int(v) for v in after["score"])
    delta = [int(v) for v in ev["score_delta"]]
    if any(delta):
        gains = ", ".join(f"+{d} {C.TEAM_NAMES[k]}" for k, d in enumerate(delta) if d)
        out.append(f"Score A {a} : B {b} ({gains})")
    if int(ev["outcome"]) != C.ONGOING:
        out.append(f"Game over: {C.OUTCOME_NAMES[int(ev['outcome'])]} {a}-{b} ({end_reason(ev)})")
    return out


def own_slots(view) -> set[int]:
    """The slots whose private orders a view may be told: all in the Oracle view, the agent
    itself in ("agent", slot), the team's five in ("team", k) (RULES 5.5)."""
    if view == "oracle":
        return set(range(C.NUM_SLOTS))
    kind, arg = view
    if kind == "agent":
        return {int(arg)}
    return set(range(int(arg) * C.TEAM_SIZE, (int(arg) + 1) * C.TEAM_SIZE))


def explain_tick(
    events_t: dict,
    state_t: dict,
    state_t1: dict,
    view="oracle",
    known=None,
    seen=None,
    seen_before=None,
):
    """Sentences for the transition state_t -> state_t1 (events_t = that tick's Events).

    All three are dicts of NumPy arrays without a time axis. `view` is "oracle" (everything) or
    a point of view ("agent", slot) / ("team", k), for which `known` (the slots the view knew at
    either tick, ui.scene.known_masks) is required; `seen` is the subset seen directly in
    state_t1 (default: all of `known`); `seen_before` the slots seen directly in state_t
    (default: none). Only `seen` units' actions and this tick's amounts, statuses,
    regeneration and cooldowns are told, deaths and respawns of `known` units (without their
    lethal sources, death_facts), and rejections and fallbacks of the view's own agents
    (own_slots). Public facts (score, outcome) are always told. Raises ValueError for a POV
    without `known`.
    """
    if view == "oracle":
        known = set(np.flatnonzero(np.asarray(state_t["active"], bool)).tolist())
    elif known is None:
        raise ValueError(f"view {view!r}: pass the slots the view knew as `known`")
    known = {int(s) for s in known}
    seen = known if seen is None else {int(s) for s in seen} & known
    lines = _orders(events_t, state_t, known & own_slots(view))
    for src in range(C.NUM_SLOTS):
        line = _ability(events_t, state_t, state_t1, src, seen, view == "oracle")
        if line:
            lines.append(line)
    lines += _upkeep(events_t, state_t, seen)
    # death_facts reads None as the Oracle's view
    seen_before = None if view == "oracle" else {int(s) for s in seen_before or ()}
    lines += _deaths(events_t, state_t, known, seen_before)
    return lines + _score(events_t, state_t1)


def listed(names) -> str:
    """Names as English lists them: "A", "A and B", "A, B and C" (no serial comma); "" for
    none. `names`: a sequence of str."""
    names = list(names)
    if len(names) < 3:
        return " and ".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def counted(number: int, noun: str) -> str:
    """A count with its noun in the number English wants, "1 game" and "3 games" (nouns that take
    a plain -s only: game, tick, participant, line)."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"
