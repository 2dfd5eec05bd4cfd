"""Child programs the viewer starts: the BattleClient playing on from a replay tick, and the
scenario saver (evaluation.scenario_save). Each runs in its own process, so the viewer never
imports JAX and stays responsive; `Children.poll` reaps them (no zombie processes) and turns
an exit into one status line.

The BattleClient's side: `python -m battleclient --from-replay FILE --tick N --slots SPEC`
starts a game at replay index N of FILE (the state re-simulated exactly,
evaluation.replay_states.state_at_tick) with the Systems of SPEC (policies/slotspec.py
grammar); its replay names the parent replay and tick.
"""

import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from battleclient.game_setup import slots_text  # no JAX: the grammar's writer
from ui.paths import scenario_dir
from ui.rules import C


def human_slot(view, active) -> int:
    """The slot a person takes by default: the viewed agent, the viewed team's first active
    slot, else (Oracle) the first active slot of Team A, then of Team B."""
    if view != "oracle" and view[0] == "agent":
        return int(view[1])
    first = [s for s in range(C.NUM_SLOTS) if active[s]]
    if view != "oracle":
        team = [s for s in first if s // C.TEAM_SIZE == view[1]]
        return team[0] if team else first[0]
    return first[0]


def default_slots(systems, active, view, fallback: str = "scripted:tactician") -> str:
    """A --slots spec for playing on: "human" in `human_slot`, every other active slot the
    System recorded for it (header "systems"), and `fallback` where a person played (a recorded
    human cannot play on by itself). Empty slots are left out: the replay fixes the roster.
    Runs of one spec are written as ranges ("A1-A4=scripted:tactician", "B*=..."), so the
    Play on window's one-line box shows both teams."""
    you = human_slot(view, active)
    specs = []
    for slot in range(C.NUM_SLOTS):
        spec = "human" if slot == you else str(systems[slot] or fallback)
        if slot != you and spec.partition(":")[0].strip() == "human":
            spec = fallback
        specs.append(spec if active[slot] else "")
    return slots_text(specs)


def play_on_command(replay_path, tick: int, slots: str, python: str | None = None) -> list[str]:
    """The BattleClient command line that plays on from replay index `tick` of `replay_path`."""
    exe = python or sys.executable
    path = str(Path(replay_path).resolve())
    return [
        exe,
        "-m",
        "battleclient",
        "--from-replay",
        path,
        "--tick",
        str(int(tick)),
        "--slots",
        slots,
    ]


def save_scenario_command(
    replay_path, tick: int, focal: str, horizon: int, python=None
) -> list[str]:
    """The evaluation.scenario_save command line for the position at game tick `tick`,
    saved into the user's scenario folder (ui.paths.scenario_dir: the BattleClient's Scenarios
    screen lists it), never into the shipped scenarios/ folder."""
    exe = python or sys.executable
    path = str(Path(replay_path).resolve())
    return [
        exe, "-m", "evaluation.scenario_save", path, "--tick", str(int(tick)),
        "--focal", focal, "--horizon", str(int(horizon)), "--folder", str(scenario_dir()),
    ]  # fmt: skip


@dataclass
class Child:
    """One started program: what it is for (`what`), its process and its captured output."""

    what: str
    process: subprocess.Popen
    output: object = field(repr=False)


class Children:
    """The programs the viewer started, polled each frame."""

    def __init__(self, popen=subprocess.Popen):
        self.popen, self.running = popen, []

    def start(self, what: str, argv: list[str]) -> str:
        """Starts `argv` (output to a temporary file); returns the status line to show."""
        output = tempfile.TemporaryFile()
        try:
            process = self.popen(argv, stdout=output, stderr=subprocess.STDOUT)
        except OSError as error:
            output.close()
            return f"{what}: could not start it ({error})"
        self.running.append(Child(what, process, output))
        return (
            f"{what}: started (it opens its own window)"
            if "battleclient" in argv
            else (f"{what}: working...")
        )

    def poll(self) -> list[tuple[str, bool]]:
        """(status line, is an error) for each program that ended since the last poll."""
        done = []
        for child in list(self.running):
            code = child.process.poll()
            if code is None:
                continue
            self.running.remove(child)
            child.output.seek(0)
            text = child.output.read().decode("utf-8", "replace").strip()
            child.output.close()
            last = text.splitlines()[-1] if text else ""
            if code == 0:
                done.append((f"{child.what}: {last or 'done'}", False))
            else:
                done.append((f"{child.what} failed (exit {code}): {last}", True))
        return done
