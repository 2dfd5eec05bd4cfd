"""The Agent panel's lines for the selected unit: its status now, its orders of the tick
before and what changed, each told with no more than the view knows.

An `AgentPanel` mixin holds ViewerModel's side of it (it reads the model's state, events and
masks); what the panel says with no unit shown is replay_viewer.selection. Submitted orders and
an LLM's reply show only in the unit's own view, its team's and the Oracle; other views get the
accepted action, which is what observations carry (RULES 3.6, 5.5).
"""

import numpy as np

from replay_viewer.llm_lines import decision_lines
from replay_viewer.selection import selection_hint
from ui.explain import counted, num
from ui.rules import C, hp_text, team_of


def _move_name(move: int, slot: int, spawn_end: int) -> str:
    """Team-frame move id -> world direction name (RULES A7: the east team is mirrored)."""
    east = (team_of(slot) == 0) == (spawn_end == 1)
    return C.MOVE_NAMES[int(C.MIRROR_MOVE[move]) if east else int(move)]


class AgentPanel:
    """ViewerModel's Agent panel: `agent_lines(slot)` and the pieces it is made of."""

    def agent_lines(self, slot: int | None) -> list[str]:
        """The selected agent's panel: status now, its orders last tick and what changed."""
        t = self.tick
        if slot is None or slot not in self.known(t):
            return selection_hint(self, slot)
        s, relayed = self.state(t), slot not in np.flatnonzero(self.masks(t)[0])
        if relayed:
            s = self.state(t - 1)
        lines = [self.unit_label(slot) + ("  (relayed: as seen last tick)" if relayed else "")]
        own = self.view == "oracle" or self.view == ("agent", slot)
        if own:
            lines.append(f"System: {self.replay.header['systems'][slot] or '-'}")
        lines += self._status_lines(s, slot)
        if t > 0 and not relayed:
            full = own or self.view == ("team", team_of(slot))
            lines += self._order_lines(t - 1, slot, full=full)
            if full:  # an LLM's reply is as private as its submitted order
                before = int(self.state(t - 1)["tick"])
                lines += decision_lines(self.replay.decisions, before, slot)
            if self.view == "oracle" or self.masks(t - 1)[0][slot]:
                lines += self._change_lines(self.state(t - 1), s, slot, t)
            else:  # the change needs the tick before, which this view did not see
                lines.append("Changes: not in sight the tick before")
        return lines

    def _status_lines(self, s: dict, slot: int) -> list[str]:
        cls = int(s["class_id"][slot])
        health = f"{hp_text(s['health'][slot])}/{hp_text(C.MAX_HEALTH[cls])}"
        state = "alive" if s["alive"][slot] else "dead"
        cd = int(s["cooldown"][slot])
        lines = [
            f"Health {health} ({state}), at ({s['pos'][slot][0]:.2f}, {s['pos'][slot][1]:.2f})",
            f"{C.ULT_NAMES[cls]}: " + ("ready" if cd == 0 else f"ready in {counted(cd, 'tick')}"),
        ]
        if s["shield"][slot] > 0:
            lines.append(f"Spawn shield: {counted(s['shield'][slot], 'tick')}")
        statuses = [
            f"{C.STATUS_NAMES[c]} {int(v)}" for c, v in enumerate(s["status"][slot]) if v > 0
        ]
        lines.append("Statuses: " + (", ".join(statuses) if statuses else "none"))
        return lines

    def _order_text(self, action, slot: int) -> str:
        move, target, ult = (int(v) for v in action)
        if not (0 <= move < C.NUM_MOVES and 0 <= target < C.NUM_TARGETS and 0 <= ult < 2):
            return f"out of range ({move}, {target}, {ult})"
        whom = C.TARGET_SLOT[slot, target]
        text = f"move {_move_name(move, slot, int(self.state(0)['spawn_end']))}"
        if target or ult:
            lane = "Ultimate" if ult else "Basic"
            text += f", {lane}" + (f" on {self.unit_label(whom)}" if whom >= 0 else "")
        return text

    def _order_lines(self, t: int, slot: int, full: bool) -> list[str]:
        ev, g = self.events(t), self.game_tick(t)
        accepted = f"Accepted: {self._order_text(ev['accepted'][slot], slot)}"
        if not full:  # others' submitted orders are private; the accepted action is observed
            return [f"Last tick ({g} -> {g + 1}):", accepted]
        lines = [f"Orders for tick {g} -> {g + 1}:"]
        lines.append(f"Submitted: {self._order_text(ev['submitted'][slot], slot)}")
        lines.append(accepted)
        flags = [
            n
            for n, f in zip(("out of domain", "move", "combat"), ev["rejected"][slot], strict=True)
            if f
        ]
        if flags:
            lines.append("Rejected: " + ", ".join(flags))
        if ev["fallback"][slot]:
            lines.append("No answer from its System: fallback order used")
        return lines

    def _change_lines(self, before: dict, after: dict, slot: int, t: int) -> list[str]:
        ev = self.events(t - 1)
        changes = []
        dh = float(after["health"][slot] - before["health"][slot])
        if abs(dh) >= 0.05:
            changes.append(f"health {'+' if dh > 0 else ''}{num(dh)}")
        moved = float(np.linalg.norm(after["pos"][slot] - before["pos"][slot]))
        if moved >= 0.01:
            changes.append(f"moved {moved:.2f}")
        gained = [
            C.STATUS_NAMES[c]
            for c in np.flatnonzero(after["status"][slot] > before["status"][slot])
        ]
        if gained:
            changes.append("gained " + ", ".join(gained))
        if ev["died"][slot]:
            changes.append("died")
        if ev["respawned"][slot]:
            changes.append("respawned")
        if ev["cooldown_started"][slot]:
            changes.append("Ultimate used")
        return ["Changes: " + (", ".join(changes) if changes else "none")]
