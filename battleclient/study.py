"""The BattleClient's human-AI study preset and decision clock (seed 000, section 7.8).

The preset plays tournament rules (RULES A2: mirrored 5v5 "MWHRP", 20 points, 300 ticks,
shared_obs) on a test map with a fixed seed, the participant in the agent POV (only what its
own agents observed: their sight and the rows relayed to them, RULES 5.7; never the Oracle
view). Conditions (evaluation.study.CONDITIONS): "beside", the participant plays A0 and the AI
plays A1-A4 and Team B; "against", the participant plays all of Team A against the AI.

`DecisionClock` measures each human decision: from the moment a team's orders screen opens
(after the tick's resolution, or when a hotseat player takes over) to the lock-in, in seconds,
per human slot and state tick. The study game's replay is written only after the
questionnaire (it goes inside it), and a row is appended to the study CSV.
"""

import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from battleclient.game_setup import VIEWS, ClientSetup
from battleclient.presets import RELEASED_CHECKPOINT
from evaluation import study
from ui.paths import data_dir
from ui.rules import C

DEFAULT_AI = f"checkpoint:{RELEASED_CHECKPOINT}"  # the lobby preset's file, from any folder
STUDY_MAP = "47"  # the first test map (maps 47-51: RULES 1.7), never trained on


def study_dir() -> Path:
    """Where study replays and the study CSV go by default: DATA/study (ui.paths.data_dir)."""
    return data_dir() / "study"


@dataclass(frozen=True)
class StudyPreset:
    """One study session: participant id, condition, the AI's slot spec, map, seed, the
    participant's view ("agent" or "team"; the Oracle view is refused) and the rules (points
    to win, ticks; the replay records them). Raises ValueError."""

    participant: str
    condition: str = "beside"
    ai: str = DEFAULT_AI
    map: str = STUDY_MAP
    seed: int = 0
    sight: str = "agent"
    folder: str = field(default_factory=lambda: str(study_dir()))
    score_threshold: int = C.SCORE_THRESHOLD  # tournament rules unless a pilot shortens them
    horizon: int = C.HORIZON

    def __post_init__(self):
        study.check_participant(self.participant)
        study.check_condition(self.condition)
        if self.sight == "oracle":
            raise ValueError(
                "study mode: a human slot never plays in the Oracle view (it shows what the "
                "agent did not observe); use the agent POV (agent) or its team's view (team)"
            )
        if self.sight not in VIEWS:
            raise ValueError(f"study view {self.sight!r}: choose one of {', '.join(VIEWS)}")

    def setup(self) -> ClientSetup:
        """The game's ClientSetup under tournament rules."""
        humans = "A0=human,A1-A4" if self.condition == "beside" else "A*=human,B*"
        slots = f"{humans}={self.ai}" + (f",B*={self.ai}" if self.condition == "beside" else "")
        return ClientSetup(
            map=self.map, roster="MWHRP/MWHRP", slots=slots, seed=self.seed,
            score_threshold=self.score_threshold, horizon=self.horizon, view=self.sight,
        )  # fmt: skip

    def record(self) -> dict:
        """The preset as the replay's header["study"]["preset"] stores it."""
        return {k: v for k, v in asdict(self).items() if k not in ("participant", "folder")}

    @property
    def csv_path(self) -> Path:
        return Path(self.folder) / study.CSV_NAME


class DecisionClock:
    """Seconds each human slot took to decide, keyed by (state tick, slot)."""

    def __init__(self, now=time.perf_counter):
        self.now, self.started, self.times = now, None, {}

    def start(self) -> None:
        """The orders screen opened."""
        self.started = self.now()

    def stop(self, tick: int, slots) -> None:
        """Orders locked in at state `tick` for `slots` (one team's human slots)."""
        if self.started is None:
            return
        seconds = max(0.0, self.now() - self.started)
        for slot in slots:
            self.times[(int(tick), int(slot))] = seconds
        self.started = None

    def take_back(self, tick: int) -> None:
        """Forget the decisions from state `tick` on (a takeback replays them)."""
        self.times = {k: v for k, v in self.times.items() if k[0] < tick}

    def records(self) -> list[dict]:
        return study.decision_records(self.times)
