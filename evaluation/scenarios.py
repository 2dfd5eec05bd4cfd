"""Endgame scenarios: one JSON file each under `scenarios/`, read, checked and turned into games.

A scenario (format in scenarios/README.md; the paper, seed 000 section 5.1 and S5.1) is a nearly
lost mid-game position: an arena (a scenario arena id 900-999 or a map file), the exact start
state, the focal team, the horizon (ticks allowed), the success rule (the focal team wins the
game within the horizon), the reactive controller of the other team (a System spec) and the
verified winning lines (the focal team's actions tick by tick; `evaluation.scenario_lines`).

The horizon and score to win become the game's own `Config` (`horizon = start tick + ticks
allowed`), so the game ends when the scenario does: a win is the success, anything else is not.
`start_hash` is the SHA-256 of the start state's authored fields and that Config, written into
every result and replay, so a changed scenario is never confused with the old one.

Every problem is a `ScenarioError` naming the file, the field and the value; `check_file`
collects all of a file's field problems, and the controller's, at once (`mbg scenarios
validate`). The start state's consistency (positions on the map, health within the class's
maximum, counters) is checked by `engine.authored_state` once the fields are sound, and the
lines beside it (they need only the roster): every such problem is named too.
"""

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine import constants as C
from engine import maps as map_files
from engine.types import Config
from evaluation import scenario_fields as F
from evaluation.scenario_fields import (  # noqa: F401  (re-exported: the scenario API in one place)
    FORMAT,
    action_text,
    parse_action,
    parse_slot,
    slot_name,
)

SCENARIOS_DIR = Path(
    os.environ.get("MBG_SCENARIOS_DIR", Path(__file__).resolve().parents[1] / "scenarios")
)
DEFAULT_CONTROLLER = "scripted:tactician"  # the strongest scripted bot (policies/scripted.py)
SUCCESS_RULE = "focal_team_wins_within_horizon"
TEAMS = C.TEAM_NAMES


class ScenarioError(ValueError):
    """A scenario file that cannot be used: `file: field = value: problem` (one or many)."""

    def __init__(self, source, problems: list[str]):
        self.source, self.problems = source, list(problems)
        super().__init__("\n".join(f"{source}: {p}" for p in self.problems))


@dataclass(frozen=True, eq=False)
class Scenario:
    """One loaded, checked scenario. start: the concrete start State; lines: tuple of
    (name, (ticks, 10, 3) int32 team-frame actions); focal_team 0 (A) or 1 (B)."""

    id: int
    title: str
    skill: str
    brief: str
    arena: map_files.MapSpec
    focal_team: int
    horizon: int
    score_to_win: int
    controller: str
    start: object
    start_hash: str
    lines: tuple
    source: Path
    doc: dict

    @property
    def config(self) -> Config:
        """The game's rules: the scenario's score to win, horizon = start tick + ticks allowed."""
        return scenario_config(self.doc["score_to_win"], self.doc["start"]["tick"], self.horizon)

    @property
    def focal_slots(self) -> tuple[int, ...]:
        lo = self.focal_team * C.TEAM_SIZE
        return tuple(s for s in range(lo, lo + C.TEAM_SIZE) if self.start.active[s])

    @property
    def controller_slots(self) -> tuple[int, ...]:
        lo = (1 - self.focal_team) * C.TEAM_SIZE
        return tuple(s for s in range(lo, lo + C.TEAM_SIZE) if self.start.active[s])

    @property
    def win_code(self) -> int:
        return (C.A_WINS, C.B_WINS)[self.focal_team]

    @property
    def label(self) -> str:
        return f"{self.id} {self.title}"


def scenario_config(score_to_win: int, tick: int, horizon: int) -> Config:
    return Config(score_threshold=int(score_to_win), horizon=int(tick) + int(horizon))


def start_hash(state, config: Config) -> str:
    """SHA-256 (hex) of a start state's authored fields (`engine.state_fields`, floats as exact
    float32 values) and the rules that decide it (score to win, horizon), canonical JSON."""
    import engine

    fields = engine.state_fields(state)
    fields["config"] = {"score_threshold": config.score_threshold, "horizon": config.horizon}
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def scenario_from_dict(doc, source: object = "<scenario>") -> Scenario:
    """Parse and check one scenario document. Raises ScenarioError with every problem found."""
    import engine
    from evaluation import scenario_lines

    source = Path(str(source))
    if not isinstance(doc, dict):
        raise ScenarioError(source, [f"(file) = {type(doc).__name__}: must be a JSON object"])
    problems: list[str] = []
    F.check_types(doc, problems)
    if isinstance(doc.get("controller"), str):  # needs no start state: named with the fields
        F.check_controller(doc["controller"], problems)
    arena = F.read_arena(doc, source, problems)
    fields = F.start_fields(doc, arena, problems)
    if problems or fields is None:
        raise ScenarioError(source, problems or ["start: missing or not an object"])
    config = scenario_config(doc["score_to_win"], doc["start"]["tick"], doc["horizon"])
    try:
        state = engine.authored_state(config, **fields)
    except ValueError as error:  # engine.StateProblems lists them all; any other, one
        problems += [F.in_file_terms(p) for p in getattr(error, "problems", [str(error)])]
    focal = TEAMS.index(doc["focal_team"])
    active = np.asarray(fields["class_id"]) != C.NEUTRAL  # the roster's slots, as State.active
    lines = scenario_lines.parse_lines(doc["lines"], focal, active, doc["horizon"], problems)
    if problems:
        raise ScenarioError(source, problems)
    return Scenario(
        id=doc["id"], title=doc["title"], skill=doc["skill"], brief=doc["brief"], arena=arena,
        focal_team=focal, horizon=doc["horizon"], score_to_win=doc["score_to_win"],
        controller=doc["controller"], start=state, start_hash=start_hash(state, config),
        lines=lines, source=source, doc=doc,
    )  # fmt: skip


def read_document(path) -> dict:
    """The JSON object of a scenario file. Raises ScenarioError naming the file."""
    path = Path(path)
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ScenarioError(path, [f"cannot read the file: {error.strerror or error}"]) from None
    except json.JSONDecodeError as e:
        raise ScenarioError(path, [f"not JSON: {e.msg} (line {e.lineno})"]) from None


def load_scenario_file(path) -> Scenario:
    """Read and check one scenario file. Raises ScenarioError (every problem of the file)."""
    return scenario_from_dict(read_document(path), path)


def scenario_files(folder: Path | None = None) -> list[Path]:
    """The scenario files of a folder (default SCENARIOS_DIR): its *.json files, by name."""
    return sorted(p for p in Path(folder or SCENARIOS_DIR).glob("*.json") if p.is_file())


def load_scenario(name, folders=None) -> Scenario:
    """A scenario by id (1, "1") from `folders` (default: SCENARIOS_DIR alone; the CLI adds the
    apps' scenario folder, ui.paths.scenario_dir), or by file path. Raises ScenarioError, or
    ValueError naming the folders when no file or more than one has that id."""
    text = str(name)
    if text.isdigit():
        folders = tuple(folders or (SCENARIOS_DIR,))
        hits = [
            p
            for folder in folders
            for p in scenario_files(folder)
            if p.name.split("_")[0].lstrip("0") == text
        ]
        if len(hits) != 1:
            where = " or ".join(str(f) for f in folders)
            raise ValueError(f"scenario {text}: {len(hits)} files in {where} have that id")
        return load_scenario_file(hits[0])
    return load_scenario_file(text)


def load_scenarios(names=None, folders=None) -> list[Scenario]:
    """Scenarios by id (looked up in `folders`, as load_scenario) or path; None or "all": every
    file in SCENARIOS_DIR (the shipped benchmark only)."""
    if names is None or list(names) in ([], ["all"]):
        return [load_scenario_file(p) for p in scenario_files()]
    return [load_scenario(n, folders) for n in names]


def document_for_state(state, *, arena, title, skill, brief, focal_team, horizon,
                       score_to_win=C.SCORE_THRESHOLD, controller=DEFAULT_CONTROLLER,
                       scenario_id=900, lines=()) -> dict:  # fmt: skip
    """A scenario document from a concrete State (authoring: "save this position"). arena: the
    id or the file path the document names; lines: already written line objects."""
    import engine

    f = engine.state_fields(state)
    agents = {}
    for slot in range(C.NUM_SLOTS):
        if not f["class_id"][slot]:
            continue
        entry = {"class": C.CLASS_NAMES[f["class_id"][slot]], "pos": f["pos"][slot]}
        entry |= {"alive": f["alive"][slot], "health": f["health"][slot]}
        entry |= {k: f[k][slot] for k in ("cooldown", "shield", "ooc")}
        channels = zip(C.STATUS_NAMES, f["status"][slot], strict=True)
        entry["status"] = {name: ticks for name, ticks in channels if ticks}
        if f["prev_action"] is not None:
            entry["prev_action"] = action_text(slot, f["prev_action"][slot])
        agents[slot_name(slot)] = entry
    start = {"tick": f["tick"], "score": f["score"], "spawn_end": f["spawn_end"]}
    start |= {"wave_clock": f["wave_clock"], "agents": agents}
    return {
        "format": FORMAT, "id": scenario_id, "title": title, "skill": skill, "brief": brief,
        "arena": arena, "focal_team": focal_team, "horizon": horizon,
        "score_to_win": score_to_win, "controller": controller, "start": start,
        "lines": list(lines),
    }  # fmt: skip


def write_document(path, doc: dict) -> Path:
    """Write a scenario document atomically; never over an existing file (FileExistsError)."""
    from fileio import write_new_file

    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    return write_new_file(path, text.encode("utf-8"))
