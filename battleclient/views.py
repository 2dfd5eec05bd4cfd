"""Fair views for the BattleClient: what one player may see of a tick, as a ui.scene.Scene.

A human sees what its own agents observe, the agent POV (RULES 5.2, 5.7; the default,
game_setup.VIEWS): each of its agents' direct sight this tick plus, in the shared_obs regime,
the rows relayed to it from the team's last-tick sightings (marked relayed), so a human sees a
bot teammate's sighting a tick late, as its agent does. The "team" view adds every teammate's
direct sight this tick (ui.scene's ("team", k) view). Zero humans = the Oracle view.
Everything drawn in a human's view (units, numbers, log lines, panels) comes from the Scene
built here, so hidden units cannot leak into the picture.
"""

import dataclasses

import numpy as np

from battleclient.game_setup import VIEW_WORDS
from ui.animation import marked
from ui.explain import explain_tick
from ui.rules import C, slot_label, team_of
from ui.scene import FloatText, Scene, scene_from_state

ORACLE = "oracle"
SHORT_STATUS = ("slow", "slow", "slow", "stun", "trap", "stun", "anti-heal", "burst", "free")


def viewer_label(viewer, sight: str | None = None) -> str:
    """ "Oracle", "Team A (A0, A2)" or, naming the view in force (game_setup.VIEW_WORDS),
    "Team A (A0): your agents' own sight + relayed rows"."""
    if viewer == ORACLE:
        return "Oracle"
    team = C.TEAM_NAMES[team_of(viewer[0])]
    label = f"Team {team} ({', '.join(slot_label(s) for s in viewer)})"
    return label if sight is None else f"{label}: {VIEW_WORDS[sight]}"


def _merge_units(scenes: list[Scene]) -> tuple:
    units: dict = {}
    for scene in scenes:
        for unit in scene.units:
            kept = units.get(unit.slot)
            if kept is None or (kept.relayed and not unit.relayed):
                units[unit.slot] = unit
    return tuple(units[s] for s in sorted(units))


def _extra_floats(snap, known: frozenset) -> tuple[FloatText, ...]:
    """Deaths, Red Zone double points and fresh statuses on units the view sees now."""
    events = snap.events
    if events is None:
        return ()
    out = []
    for slot in sorted(known):
        if events["died"][slot]:
            text = f"KO +{C.RED_ZONE_POINTS}" if events["red_zone_death"][slot] else "KO"
            out.append(FloatText(slot, text, "info"))
        fresh = events["status_applied"][slot] | events["status_refreshed"][slot]
        names = [SHORT_STATUS[c] for c in marked(fresh, SHORT_STATUS) if c != C.FREEDOM]
        if names:  # "status": the resolution's own marks stand in for it (resolution.py)
            out.append(FloatText(slot, " ".join(names), "status"))
    return tuple(out)


def fair_scene(
    snap, viewer, *, selected=None, highlights=(), overlays=None, sight="agent"
) -> Scene:
    """The Scene of `snap` (battleclient.session.Snapshot) for `viewer`: ORACLE or a tuple of
    the human's global slots (all on one team), who sees with sight="agent" (the default) only
    what its own agents observed (the agent POV of RULES 5.7: their own sight and the rows
    relayed to them), or with sight="team" what that whole team sees this tick. Selection and
    highlights of units the view does not know are dropped."""
    kwargs = {} if overlays is None else {"overlays": overlays}
    common = dict(prev_state=snap.prev_state, events=snap.events, **kwargs)
    if viewer == ORACLE:
        scene = scene_from_state(snap.state, view=ORACLE, **common)
    else:
        # "agent": the union of the human's own agents' observations (RULES 5.7); "team":
        # every teammate's sight, its machine-controlled agents included (5.2).
        sighted = [int(s) for s in viewer]
        if sight == "team":
            team = team_of(int(viewer[0]))
            block = range(team * C.TEAM_SIZE, (team + 1) * C.TEAM_SIZE)
            sighted = [s for s in block if bool(np.asarray(snap.state["active"])[s])]
        scenes = [
            scene_from_state(
                snap.state,
                view=("agent", int(s)),
                visible=snap.visible,
                relayed=snap.relayed,
                **common,
            )
            for s in sighted
        ]
        floats = tuple(dict.fromkeys(f for sc in scenes for f in sc.floats))
        scene = dataclasses.replace(scenes[0], units=_merge_units(scenes), floats=floats)
    known = scene.known
    live = frozenset(u.slot for u in scene.units if not u.relayed)
    return dataclasses.replace(
        scene,
        view=viewer,
        selected=selected if selected in known else None,
        highlights=frozenset(int(s) for s in highlights if s in known),
        floats=scene.floats + _extra_floats(snap, live),
    )


def log_lines(snap, viewer, scene: Scene, before: Scene | None, sight="agent") -> list[str]:
    """The transition into `snap` in words, told only as far as the view knew (ui.explain:
    this tick's effects only on units seen directly now, not relayed; private orders only of
    the human's own team, or with sight="agent" and one human agent only its own, RULES 5.5),
    plus any System failure (public: the slots' controllers are shown in the lobby)."""
    if snap.events is None or snap.prev_state is None:
        return []
    if viewer == ORACLE:
        lines = explain_tick(snap.events, snap.prev_state, snap.state)
    else:
        known = set(scene.known) | (set(before.known) if before is not None else set(viewer))
        seen = {u.slot for u in scene.units if not u.relayed}
        team = ("team", team_of(int(viewer[0])))
        if sight == "agent" and len(viewer) == 1:
            team = ("agent", int(viewer[0]))
        seen_before = {u.slot for u in before.units if not u.relayed} if before else set()
        lines = explain_tick(
            snap.events,
            snap.prev_state,
            snap.state,
            view=team,
            known=known,
            seen=seen,
            seen_before=seen_before,
        )
    return lines + list(snap.notes)
