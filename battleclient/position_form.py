"""The in-game menu's "Save this position as a scenario" (issue 17 point 6, BattleClient side).

A small form over the menu card asks for the focal team (the team that must win) and the
horizon (ticks allowed); Save writes the position on screen as a new scenario file in the
user's scenario folder (ui.paths.scenario_dir), where the Scenarios screen lists it and
`mbg scenarios validate / solve FILE` read it. The file is made by the same code as the Replay
Viewer's (evaluation.scenario_save: the game so far, kept as a replay in the replays folder,
re-simulated to its last tick, a built-in map copied as a scenario arena), on the engine
thread.
"""

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UITextEntryLine

from battleclient import layout as L
from battleclient import panels
from battleclient.play_draw import path_lines
from ui.panels import short_path
from ui.paths import scenario_dir
from ui.rules import C
from ui.score_reach import horizon_problem, horizon_warning
from ui.theme import COLOURS

FORM = (L.CARD[0], L.CARD[1] - 60, L.CARD[2], L.CARD[3] + 120)  # over the menu card, taller:
# the saved file's whole path shows (the folder's path alone may take two lines)
TEAM_BUTTONS = {team: (FORM[0] + 150 + 110 * team, FORM[1] + 120, 100, 32) for team in (0, 1)}
HORIZON = (FORM[0] + 150, FORM[1] + 164, 80, 32)
MESSAGE = (FORM[0] + 16, FORM[1] + 204, FORM[2] - 32, 124)  # 5 lines of the form's font
SAVE = (FORM[0] + 24, FORM[1] + 340, 260, 36)
CANCEL = (FORM[0] + 300, FORM[1] + 340, 200, 36)
SAVED_NOTE = "The lobby's Scenarios screen lists it after the shipped ones."
DEFAULT_HORIZON = 5  # ticks; the paper's scenarios are won within 5-10 (seed 000, 5.1)


def save_position_job(session, focal_team: str, horizon: int, folder=None):
    """Engine-thread job: the game's current tick as a new scenario file in `folder` (default:
    the user's scenario folder, ui.paths.scenario_dir); returns its path. The game so far is
    first kept as a replay in the replays folder, so the file the scenario's brief names
    ("Saved from NAME at tick N") exists and opens in the Replay Viewer. Raises ValueError
    when no tick was played yet (the game's start is its map and roster, not a position),
    for a bad team or horizon, or ScenarioError naming the file and field."""
    from battleclient.settings import new_replay_path, replay_dir
    from evaluation.replay import write_replay
    from evaluation.scenario_save import save_position

    replay = session.replay()
    if replay is None:
        raise ValueError("play at least one tick first: this is the game's start")
    path = write_replay(new_replay_path(replay_dir(), session.map_id, session.setup.seed), replay)
    last = int(replay.states["tick"][-1])  # the game tick now (a scenario's game starts later)
    return save_position(path, last, focal_team, int(horizon), folder or scenario_dir())


class PositionForm:
    """The form's widgets on the play screen's manager; `screen` gives app, session, snap."""

    def __init__(self, screen):
        self.screen, manager = screen, screen.manager
        self.team = screen.team if screen.team is not None else 0
        self.teams = {
            UIButton(pygame.Rect(rect), f"Team {C.TEAM_NAMES[t]}", manager): t
            for t, rect in TEAM_BUTTONS.items()
        }
        self.horizon = UITextEntryLine(pygame.Rect(HORIZON), manager)
        self.horizon.set_text(str(DEFAULT_HORIZON))
        self.save = UIButton(pygame.Rect(SAVE), "Save as a scenario (Enter)", manager)
        self.cancel = UIButton(pygame.Rect(CANCEL), "Cancel (Esc)", manager)
        self.line, self.saving, self.saved = "", False, False
        self._sync()

    def _sync(self) -> None:
        for button, team in self.teams.items():
            button.select() if team == self.team else button.unselect()

    def widgets(self) -> tuple:
        """The form's pygame_gui widgets (drawn over the menu's veil, killed on close)."""
        return (*self.teams, self.horizon, self.save, self.cancel)

    def close(self) -> None:
        for widget in self.widgets():
            widget.kill()
        self.screen.form = None
        self.screen._sync_buttons()

    def submit(self) -> None:
        text = self.horizon.get_text().strip()
        if problem := horizon_problem(text):
            self.line = problem
            return
        if self.saving or self.saved:  # one file a form: open the form again for another
            return
        self.saving, self.line = True, "Saving the position (the game is re-simulated)..."
        team = C.TEAM_NAMES[self.team]
        job = (save_position_job, self.screen.session, team, int(text))
        self.screen.app.submit(*job, done=self._on_saved)

    def warning(self) -> str:
        """Why the chosen focal team cannot win the position within the typed horizon at the
        most points the rules allow, or that the horizon is longer than a scenario may be
        (ui.score_reach.horizon_warning), or that the typed text is no number of ticks
        (horizon_problem, as the Replay Viewer's window says it as typed), or "" (also for a
        horizon not typed yet)."""
        text, snap, session = self.horizon.get_text().strip(), self.screen.snap, self.screen.session
        if problem := horizon_problem(text):
            return problem if text else ""  # nothing typed yet: nothing to say
        if snap is None or session is None:
            return ""
        return horizon_warning(snap.state, self.team, int(text), session.config)

    def _on_saved(self, ok, value) -> None:
        self.saving = False
        self.line = f"Saved as a scenario: {short_path(value)}" if ok else f"Not saved: {value}"
        if ok:
            self.screen.saved_position, self.saved = value, True
            self.save.disable()
            self.cancel.set_text("Close (Esc)")

    def handle(self, event) -> None:
        """One event while the form is up (it takes every key and click)."""
        if event.type == pygame_gui.UI_BUTTON_PRESSED:
            if event.ui_element in self.teams:
                self.team = self.teams[event.ui_element]
                self._sync()
            elif event.ui_element is self.save:
                self.submit()
            elif event.ui_element is self.cancel:
                self.close()
        elif event.type == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.horizon:
            self.submit()
        elif event.type == pygame.KEYDOWN:
            # Esc means nothing inside the one-line horizon box, so it cancels from there too;
            # Enter there arrives as UI_TEXT_ENTRY_FINISHED instead.
            if event.key == pygame.K_ESCAPE:
                self.close()
            elif event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and not self.horizon.is_focused:
                self.submit()

    def draw(self, surface, fonts) -> None:
        font = fonts[0]
        tick = self.screen.snap.tick if self.screen.snap is not None else 0
        width = FORM[2] - 64  # panels.draw_card's margins
        line = f"The position of tick {tick} becomes a new file in {short_path(scenario_dir())}."
        lines = path_lines(line, font, width)
        rect = panels.draw_card(surface, FORM, "Save this position as a scenario", lines, fonts)
        for text, (_, y, _, h) in (
            ("Focal team (to win):", TEAM_BUTTONS[0]),
            ("Horizon (ticks):", HORIZON),
        ):
            image = font.render(text, True, COLOURS["text"])
            surface.blit(image, (rect.x + 24, y + (h - image.get_height()) // 2))
        if self.screen.saved_position is not None and self.line.startswith("Saved"):
            lines = [*path_lines(self.line, font, MESSAGE[2] - 8), SAVED_NOTE]
            panels.draw_lines(surface, pygame.Rect(MESSAGE), lines, font)
        else:  # the warning does not stop Save: a lost position is a valid file
            warning = [(w, COLOURS["damage"]) for w in [self.warning()] if w]
            said = self.line and self.line not in (w for w, _ in warning)  # Save's = the live one
            lines = warning + ([self.line] if said else [])
            panels.draw_lines(surface, pygame.Rect(MESSAGE), lines, font)
