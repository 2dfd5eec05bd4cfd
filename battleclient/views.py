"""Fair views for the BattleClient: what one player may see of a tick, as a ui.scene.Scene.

A human sees what its team sees (RULES 5.2): each teammate's direct sight this tick plus, in
the shared_obs regime, the rows relayed from last-tick sightings (marked relayed): ui.scene's
("team", k) view. Zero humans
= the Oracle view. Everything drawn in a human's view (units, numbers, log lines, panels) comes
from the Scene built here, so hidden units cannot leak into the picture.
"""

import dataclasses

import numpy as np

from ui.animation import marked
from ui.explain import explain_tick
from ui.rules import C, slot_label, team_of
from ui.scene import FloatText, Scene, scene_from_state

ORACLE = "oracle"
SHORT_STATUS = ("slow", "slow", "slow", "stun", "trap", "stun", "anti-heal", "burst", "free")


def viewer_label(viewer) -> str:
    """ "Oracle" or "Team A (A0, A2)"."""
    if viewer == ORACLE:
        return "Oracle"
    team = C.TEAM_NAMES[team_of(viewer[0])]
    return f"Team {team} ({', '.join(slot_label(s) for s in viewer)})"


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


def fair_scene(snap, viewer, *, selected=None, highlights=(), overlays=None, sight="team") -> Scene:
    """The Scene of `snap` (battleclient.session.Snapshot) for `viewer`: ORACLE or a tuple of
    the human's global slots (all on one team), who sees what that whole team sees, or with
    sight="agent" only what the human's own agents observed (the agent POV of RULES 5.7: their
    own sight and the rows relayed to them). Selection and highlights of units the view does
    not know are dropped."""
    kwargs = {} if overlays is None else {"overlays": overlays}
    common = dict(prev_state=snap.prev_state, events=snap.events, **kwargs)
    if viewer == ORACLE:
        scene = scene_from_state(snap.state, view=ORACLE, **common)
    else:
        # The player sees what its whole team sees (RULES 5.2): every teammate's sight, its
        # machine-controlled agents included, plus the relayed rows.
        team = team_of(int(viewer[0]))
        block = range(team * C.TEAM_SIZE, (team + 1) * C.TEAM_SIZE)
        sighted = [s for s in block if bool(np.asarray(snap.state["active"])[s])]
        if sight == "agent":
            sighted = [int(s) for s in viewer]
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


def log_lines(snap, viewer, scene: Scene, before: Scene | None, sight="team") -> list[str]:
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
