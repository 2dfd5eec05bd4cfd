"""Playing a scenario on the play screen: ticks left on the top bar, the scenario's end card.

`ScenarioPlay` is the PlayScreen on a `ScenarioSession` (battleclient.scenario_session): the
game starts at the scenario's exact start, the top bar reads "Scenario 1, ticks left: N" (the
horizon less the ticks played), and the end card says "Solved in N ticks" or "Not solved" with three
buttons (issue 17 point 5):
- "Try again" (T, Enter): the exact start at once, on the engine thread after the attempt's
  replay is written (ScenarioSession.try_again: nothing compiles again);
- "Show a winning line" (W): the scenario's first verified line (the next one at the next
  press) written as a replay and opened in the Replay Viewer as its own process, as the
  client opens every replay, where it plays tick by tick;
- "Back to scenarios" (S, L): the Scenarios screen, on this scenario.
Every attempt's replay is named by the scenario, its start hash and the attempt number
(`attempt_path`; header["scenario"] inside), and every finished attempt is added to the
client's record (battleclient.scenario_record).
"""

import time

import pygame

from battleclient import layout as L
from battleclient import panels
from battleclient.play_draw import PlayDrawing, path_lines, replay_lines
from battleclient.play_screen import PlayScreen
from battleclient.settings import replay_dir
from ui.rules import C

# Try again's keys (T, Enter) also cycle the target and end the turn on the orders screen, which
# is up again within ~70 ms: a second press this soon after Try again is the same intent
# repeated, not an order for the new attempt's first tick.
AGAIN_KEYS = (pygame.K_t, pygame.K_RETURN, pygame.K_KP_ENTER)
AGAIN_GUARD_S = 0.5

OVER_BUTTONS = {  # inside layout.OVER_CARD, as the plain game's end card buttons are
    "again": ("Try again (T)", (160, 388, 150, 36)),
    "line": ("Show a winning line (W)", (318, 388, 210, 36)),
    "scenarios": ("Back to scenarios (S)", (536, 388, 184, 36)),
}


def build_scenario_game(progress, scenario, human_slots, others: str):
    """Play-screen job: the ScenarioSession with its engine step and machine players compiled
    before the first orders screen (as controllers.build_game does for a plain game), the
    stages on `progress`. Raises what ScenarioSession raises (ValueError for a bad spec)."""
    from battleclient.scenario_session import ScenarioSession
    from battleclient.session import rules_compiled

    steps = iter([0.2, 0.4, 0.6])
    progress.done = False
    try:
        game = ScenarioSession(
            scenario, human_slots, others,
            progress=lambda text: progress.stage(
                f"Setting up scenario {scenario.id}: {text.lower()}", next(steps, progress.fraction)
            ),
        )  # fmt: skip
        if not rules_compiled(game.setup):  # scenarios share one step (rule_programs)
            progress.stage("Compiling the engine for this scenario's rules (up to a minute)", 0.8)
        game.compile_step()
        progress.stage("The machine players' first move (compiled once for all scenarios)", 0.9)
        game.decide(ask_hosts=False)
        progress.stage(f"Ready: scenario {scenario.id}", 1.0)
    except Exception:
        progress.stage("Engine loaded: the scenario could not start", 1.0)
        raise
    finally:
        progress.done = True
    return game


def record_finished(session) -> dict:
    """Engine-thread job: the finished attempt added to the client's scenario record; returns
    the scenario's new entry. Raises ValueError when the record file is not a record."""
    from battleclient.scenario_record import record_attempt
    from battleclient.settings import timestamp

    played = session.snapshot.tick - int(session.scenario.start.tick)
    return record_attempt(session.scenario, session.solved, played, timestamp())


def verdict(solved: bool, played: int) -> str:
    """The end card's title: "Solved in 3 ticks" or "Not solved"."""
    return f"Solved in {played} tick{'s' * (played != 1)}" if solved else "Not solved"


class ScenarioDrawing(PlayDrawing):
    """The play screen's drawing with the scenario's top bar and end card."""

    over_buttons = OVER_BUTTONS
    menu_buttons = {
        **L.MENU_BUTTONS,
        "leave": ("Leave to the scenarios (L)", L.MENU_BUTTONS["leave"][1]),
    }

    def ticks_played(self) -> int:
        """Ticks resolved since the scenario's start tick."""
        s = self.s
        return 0 if s.snap is None else s.snap.tick - int(s.scenario.start.tick)

    def heading(self) -> str:
        s = self.s
        if s.snap.over:
            return super().heading()
        return f"Scenario {s.scenario.id}, ticks left: {s.session.ticks_left}"

    def _over(self, surface) -> None:
        s = self.s
        session, scenario = s.session, s.scenario
        a, b = (int(v) for v in s.snap.state["score"])
        played = s.snap.tick - int(scenario.start.tick)
        font, _, big = self.fonts
        inner = pygame.Rect(L.OVER_CARD).inflate(-32, -28).width - 8  # panels.draw_card
        result = C.OUTCOME_NAMES[s.snap.outcome]
        events = s.snap.events
        why = "score to win" if events is not None and events["terminated"] else "time limit"
        lines = [
            f"Scenario {scenario.label}, attempt {session.attempt + 1}: {result} after "
            f"{played} of {scenario.horizon} ticks.",
            f"Final score A {a} : {b} B on tick {s.snap.tick - 1} ({why}).",
            *replay_lines(s.replay_path, font, inner),
            f"Your record: {s.record_line}",
            "T / Enter: try again   W: watch a winning line   S: scenarios   R: this replay",
        ]
        if s.line_note:  # "Opening PATH in the Replay Viewer": as long as a replay's path
            lines += path_lines(s.line_note, font, inner)
        title = verdict(session.solved, played)
        panels.draw_card(surface, pygame.Rect(L.OVER_CARD), title, lines, (font, big), shade=False)


class ScenarioPlay(PlayScreen):
    """The play screen on a scenario: `human_slots` (focal slots) played by the person, the
    focal team's others by the System spec `others` (the controller when empty)."""

    drawing_class = ScenarioDrawing

    def __init__(self, app, scenario, human_slots, others: str = ""):
        from battleclient.scenario_session import client_setup, slot_spec

        self.scenario, self.human_slots, self.others = scenario, list(human_slots), others
        self.record_line = "being written..."
        self.line_paths: dict = {}  # line index -> its replay, once written
        self.line_path, self.line_shown = None, -1  # the last line shown
        self.again_at = None  # when Try again last restarted (time.monotonic)
        self.line_note = ""  # what "Show a winning line" is doing, on the end card
        setup = client_setup(scenario, slot_spec(scenario, human_slots, others))
        super().__init__(app, setup, app.maps_by_split)

    def _submit_build(self, maps_by_split: dict, branch) -> None:
        job = (build_scenario_game, self.app.progress, self.scenario, self.human_slots, self.others)
        self.app.submit(*job, done=self._on_built)

    def _on_built(self, ok, value) -> None:
        if not ok:  # back where the scenario was chosen, not to the lobby's plain-game form
            text = f"Scenario {self.scenario.id} could not start: {value}"
            return self.app.to_scenarios(self.scenario.id, text, error=True)
        super()._on_built(ok, value)

    # --- the attempt's replay and record ---------------------------------------------------
    def _save(self):
        from battleclient.scenario_session import attempt_path

        folder = replay_dir()
        folder.mkdir(parents=True, exist_ok=True)
        path = self.replay_out or attempt_path(folder, self.scenario, self.session.attempt)
        return self.session.save(path)

    def _accept(self, snap) -> None:
        super()._accept(snap)
        if snap.over:  # after the replay job (the engine thread runs jobs in order)
            self.app.submit(record_finished, self.session, done=self._on_recorded)

    def _on_recorded(self, ok, value) -> None:
        from battleclient.scenario_record import entry_text

        self.record_line = entry_text(value) if ok else f"not recorded: {value}"

    # --- the end card's actions ------------------------------------------------------------
    def try_again(self) -> None:
        """The exact start again (ScenarioSession.try_again), queued behind the replay job."""
        if self.phase != "over" or self.session is None:
            return
        self.phase, self.waiting = "locked", True
        self.app.submit(self.session.try_again, done=self._on_restarted)
        self._sync_buttons()

    def _on_restarted(self, ok, value) -> None:
        if not ok:
            self.phase, self.waiting = "over", False
            return self.say(f"Could not start again: {value}", error=True)
        self.logs, self.scenes, self.before = {}, {}, {}
        self.given, self.last_orders, self.notes = [], {}, {}
        self.replay_path, self.saved, self.record_line = None, False, "being written..."
        self.line_note = ""
        self._on_built(True, self.session)
        self.again_at = time.monotonic()
        self.say(f"Attempt {self.session.attempt + 1}: the exact start again")

    def show_line(self) -> None:
        """A verified line as a replay in the Replay Viewer: the first, and at each press the
        next one of a scenario with several (each written once)."""
        lines = self.scenario.lines
        if not lines:
            self.line_note = "This scenario has no verified line yet (mbg scenarios solve FILE)"
            return
        index = (self.line_shown + 1) % len(lines)
        self.line_shown = index
        if index in self.line_paths:
            return self._on_line(index, True, self.line_paths[index])
        from battleclient.scenario_session import save_winning_line

        self.line_note = f"Playing out line {index + 1}..."
        job = (save_winning_line, replay_dir(), self.scenario, index, self.session.controller)
        self.app.submit(*job, done=lambda ok, value: self._on_line(index, ok, value))

    def _on_line(self, index: int, ok, value) -> None:
        if not ok:
            self.line_note = f"No winning line to show: {value}"
            return
        self.line_paths[index] = self.line_path = value
        count = len(self.scenario.lines)
        more = f" (W again: line {(index + 1) % count + 1})" if count > 1 else ""
        name = self.scenario.lines[index][0]
        self.line_note = f"Line {index + 1} of {count}, {name}{more}. {self.app.open_viewer(value)}"

    def back_to_scenarios(self) -> None:
        self.app.to_scenarios(self.scenario.id)

    def leave(self, then=None) -> None:
        """Leaving (menu, L) goes back to the Scenarios screen; the attempt so far is saved."""
        super().leave(then or self.back_to_scenarios)

    # --- input -----------------------------------------------------------------------------
    def _button(self, element) -> None:
        names = {w: n for n, w in self.card_buttons.items()}
        action = {
            "again": self.try_again,
            "line": self.show_line,
            "scenarios": self.back_to_scenarios,
        }.get(names.get(element))
        if action is not None:
            return action()
        super()._button(element)

    def _key_orders(self, event) -> None:
        at_start = self.snap.tick == int(self.scenario.start.tick)
        if self.again_at is not None and event.key in AGAIN_KEYS and at_start:
            if time.monotonic() - self.again_at < AGAIN_GUARD_S:
                return self.say("Try again's key pressed again: ignored on the new attempt")
        super()._key_orders(event)

    def _note_no_take_back(self) -> None:
        """B on the end card: why it undoes nothing (the controls promise B says why)."""
        self.line_note = self.take_back_refusal()

    def _key_over(self, event) -> None:
        action = {
            pygame.K_t: self.try_again,
            pygame.K_RETURN: self.try_again,
            pygame.K_KP_ENTER: self.try_again,
            pygame.K_w: self.show_line,
            pygame.K_s: self.back_to_scenarios,
            pygame.K_l: self.back_to_scenarios,
            pygame.K_r: self.open_viewer,
            pygame.K_q: self.app.quit,
            pygame.K_b: self._note_no_take_back,
        }.get(event.key)
        if action is not None:
            action()
