"""What the Agent panel says when it shows no unit: how to select one, and why the selected
unit is not shown at this tick, told with no more than the view knows.

A selection stays while the timeline moves, so its unit may leave the view's sight or die. A
dead unit is in no observation (RULES 5.2), while who is dead is public (5.6: every
observation's `public` block) and so are the wave clocks (5.4, context): the panel says the
unit is dead and when its team's wave brings it back. When and where it died is told only as
the event log tells it: where the view knew the unit around that tick
(ViewerModel.known_transition), a Red Zone death as ui.explain.death_facts allows.
"""

import numpy as np

from ui.explain import counted, death_facts
from ui.rules import C, team_of


def selection_hint(model, slot: int | None) -> list[str]:
    """The Agent panel's lines for `slot` (None: nothing selected), a slot the view does not
    know at model.tick; units are selected by clicking only, keys 0-9 switch the point of view
    (replay_viewer.shortcuts.action_for)."""
    oracle = model.view == "oracle"
    who = "Click a unit" + ("" if oracle else " shown in this view") + " to select it."
    if oracle:
        keys = "Keys 0-9 switch to that agent's point of view."
    else:
        keys = "Keys 0-9 switch to another agent's point of view, o back to the Oracle."
    if slot is None:
        return [who, keys]
    state = model.state(model.tick)
    if state["active"][slot] and not state["alive"][slot]:
        return [*dead_lines(model, slot), who, keys]
    # alive but out of sight: not named, it is hidden
    return ["The selected unit is out of this view's sight at this tick. " + who, keys]


def dead_lines(model, slot: int) -> list[str]:
    """A dead unit at model.tick in words: that it is dead, how the view learnt of its death,
    when its team's respawn wave comes (RULES 4.2: the wave fires on the tick its clock reads
    0, and the revived unit appears, shielded, in the state after)."""
    t = model.tick
    name = model.unit_label(slot)
    lines = [f"{name} is dead (public, RULES 5.6): this view holds none of its state (5.2)."]
    lines.append(death_line(model, slot))
    state = model.state(t)
    if int(state["outcome"]) != C.ONGOING:
        return lines
    team = team_of(slot)
    wait = int(state["wave_clock"][team]) + 1
    back = model.game_tick(t) + wait
    if back > int(model.replay.header["horizon"]):
        lines.append(f"Team {C.TEAM_NAMES[team]}'s next wave comes after the game's last tick.")
    else:
        lines.append(
            f"Team {C.TEAM_NAMES[team]}'s next wave brings it back, shielded, in "
            f"{counted(wait, 'tick')} (state {back})."
        )
    return lines


def death_line(model, slot: int) -> str:
    """When `slot`, dead at model.tick, died, as the event log of this view told it."""
    died = np.flatnonzero(model.replay.events["died"][: model.tick, slot])
    if not len(died):
        return f"It was dead when the replay starts (state {model.first_tick})."
    after = int(died[-1]) + 1  # the replay index of the state right after the death
    if slot not in model.known_transition(after):
        return "This view did not see it die."
    seen_before = None
    if model.view != "oracle":
        seen_before = set(np.flatnonzero(model.masks(after - 1)[0]).tolist())
    red = death_facts(model.events(after - 1), slot, seen_before)[1]
    where = f" in its own Red Zone ({C.RED_ZONE_POINTS} points)" if red else ""
    g = model.game_tick(after)
    return f"It died in tick {g - 1} (state {g - 1} -> {g}){where}."
