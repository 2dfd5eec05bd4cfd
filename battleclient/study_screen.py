"""The study game and its questionnaire (battleclient/study.py, evaluation/study.py).

`StudyPlay` is the play screen under the study preset: the participant's view is the agent POV,
every orders screen's decision time is measured, and at the game's end the questionnaire opens
instead of the game-over card. `Questionnaire` asks the three partner items (seven buttons
each) and the six NASA-TLX subscales (sliders 0-100 in steps of 5, each to be set); Submit saves
the replay with the answers inside and appends the study CSV row, "Skip" saves it without.
"""

import pygame
import pygame_gui
from pygame_gui.elements import UIButton, UIHorizontalSlider, UILabel

from battleclient.play_screen import PlayScreen
from battleclient.screens import Screen
from battleclient.settings import new_replay_path
from evaluation import study
from ui.theme import COLOURS, GUI_THEME
from ui.window_fit import FittedManager

ROW_H, LEFT, LABEL_W = 44, 40, 640
LIKERT_X, TLX_X = 700, 700


def save_study_game(session, preset, answers, decisions) -> tuple:
    """Engine-thread job: the replay with header["study"] and the human decision records,
    written as a new file in the preset's folder; then the study CSV row. Returns (replay
    path, CSV path). Raises ValueError for bad answers, OSError for an unwritable folder."""
    from pathlib import Path

    from evaluation.replay import write_replay

    replay = session.replay()
    replay.header["study"] = study.study_header(
        preset.participant, preset.condition, preset.record(), answers
    )
    merged = list(replay.decisions or []) + list(decisions)
    replay.decisions = sorted(merged, key=lambda d: (d["tick"], d["slot"]))
    folder = Path(preset.folder)
    stem = new_replay_path(folder, session.map_id, preset.seed)
    path = write_replay(stem.with_name(f"{preset.participant}_{stem.name}"), replay)
    row = study.study_row(replay.header, replay.decisions, path.name)
    return path, study.append_row(preset.csv_path, row)


class StudyPlay(PlayScreen):
    """PlayScreen under a StudyPreset (agent POV, decision clock, questionnaire at the end)."""

    def __init__(self, app, preset, maps_by_split: dict, setup=None):
        from battleclient.study import DecisionClock

        self.preset, self.clock = preset, DecisionClock()
        setup = (setup or preset.setup()).replace(view=preset.sight)
        super().__init__(app, setup, maps_by_split)

    def _start_turn(self) -> None:
        super()._start_turn()  # the orders screen is open: the decision's clock starts
        self.clock.start()

    def take_back(self) -> None:
        """Off in a study game: every decision counts once, and its time with it."""
        self.say("Take back is off in a study game")

    def end_turn(self) -> None:
        if self.phase == "orders":
            self.clock.stop(self.snap.tick, self.books[self.team].slots)
        super().end_turn()

    def _accept(self, snap) -> None:
        if not snap.over:
            return super()._accept(snap)
        self.snap, self.phase, self.saved = snap, "over", True  # saved with the answers
        self.app.screen = Questionnaire(self.app, self)

    def leave(self, then=None) -> None:
        """Leaving mid-game keeps what was played, with the decision times, no answers."""
        if self.session is not None and not self.saved and self.snap is not None and self.snap.tick:
            self.saved = True
            job = (save_study_game, self.session, self.preset, None, self.clock.records())
            self.app.submit(*job, done=self.app.on_left_game_saved)
        (then or self.app.to_lobby)()


class Questionnaire(Screen):
    """The post-game questionnaire; `answers()` is None until every item is set."""

    def __init__(self, app, game: StudyPlay):
        self.app, self.game = app, game
        self.snap, self.phase, self.waiting = game.snap, "questionnaire", False
        theme = str(GUI_THEME) if GUI_THEME.is_file() else None
        self.manager = FittedManager(app.fit, theme)
        self.likert: dict[str, int | None] = dict.fromkeys(study.PARTNER_ITEMS)
        self.tlx: dict[str, int | None] = dict.fromkeys(study.TLX_ITEMS)
        self.choices: dict = {}  # UIButton -> (item, value)
        self.sliders: dict = {}  # UIHorizontalSlider -> item
        self.values: dict = {}  # item -> UILabel showing the slider's value
        self.message, self.saving = "", False
        self._build()

    def _row(self, y: int, text: str) -> None:
        UILabel(pygame.Rect(LEFT, y, LABEL_W, ROW_H - 8), text, self.manager)

    def _build(self) -> None:
        y = 120
        for item, statement in study.PARTNER_ITEMS.items():
            self._row(y, statement)
            for value in range(study.LIKERT[0], study.LIKERT[1] + 1):
                rect = pygame.Rect(LIKERT_X + (value - 1) * 46, y, 42, ROW_H - 8)
                self.choices[UIButton(rect, str(value), self.manager)] = (item, value)
            y += ROW_H
        y += 24
        for item, statement in study.TLX_ITEMS.items():
            self._row(y, statement)
            rect = pygame.Rect(TLX_X, y + 4, 380, ROW_H - 16)
            low, high = study.TLX_RANGE
            slider = UIHorizontalSlider(rect, 50, (low, high), self.manager,
                                        click_increment=study.TLX_STEP)  # fmt: skip
            self.sliders[slider] = item
            self.values[item] = UILabel(
                pygame.Rect(TLX_X + 390, y, 120, ROW_H - 8), "not set", self.manager
            )
            y += ROW_H
        self.submit = UIButton(pygame.Rect(LEFT, 730, 220, 40), "Submit answers", self.manager)
        self.skip = UIButton(pygame.Rect(280, 730, 220, 40), "Skip questionnaire", self.manager)
        self._sync()

    def answers(self) -> dict | None:
        chosen = {**self.likert, **self.tlx}
        return None if any(v is None for v in chosen.values()) else chosen

    def _sync(self) -> None:
        for button, (item, value) in self.choices.items():
            button.select() if self.likert[item] == value else button.unselect()
        ready = self.answers() is not None and not self.saving
        self.submit.enable() if ready else self.submit.disable()
        self.skip.disable() if self.saving else self.skip.enable()

    def choose(self, item: str, value: int) -> None:
        """Set an answer: a partner item (1-7) or a TLX subscale (0-100, rounded to 5)."""
        if item in self.likert:
            self.likert[item] = int(value)
        else:
            step = study.TLX_STEP
            self.tlx[item] = int(round(value / step) * step)
            self.values[item].set_text(str(self.tlx[item]))
        self._sync()

    def finish(self, answers: dict | None) -> None:
        """Save the game with `answers` (None: skipped) on the engine thread."""
        if self.saving:
            return
        self.saving, self.message = True, "Saving the study game..."
        game = self.game
        job = (save_study_game, game.session, game.preset, answers, game.clock.records())
        self.app.submit(*job, done=self._on_saved)
        self._sync()

    def _on_saved(self, ok, value) -> None:
        if ok:
            path, csv_path = value
            self.app.last_replay = path
            self.app.to_lobby(f"Study game saved: {path}; its row is in {csv_path}")
        else:
            self.saving, self.message = False, f"Not saved: {value}"
            self._sync()

    def handle_events(self, events) -> None:
        for event in events:
            self.manager.process_events(event)
            if event.type == pygame_gui.UI_BUTTON_PRESSED:
                if event.ui_element in self.choices:
                    self.choose(*self.choices[event.ui_element])
                elif event.ui_element is self.submit:
                    self.finish(self.answers())
                elif event.ui_element is self.skip:
                    self.finish(None)
            elif event.type == pygame_gui.UI_HORIZONTAL_SLIDER_MOVED:
                if event.ui_element in self.sliders:
                    self.choose(self.sliders[event.ui_element], event.value)

    def say(self, text: str, error: bool = False) -> None:
        self.message = text

    def leave(self, then) -> None:
        """Closing the window on the form keeps the game, without answers."""
        if not self.saving:
            self.finish(None)
        then()

    def update(self, dt: float) -> None:
        self.manager.update(dt)

    def draw(self, surface) -> None:
        surface.fill(COLOURS["background"])
        font, big = self.app.font, self.app.big
        state = self.game.snap.state
        score = f"A {int(state['score'][0])} : B {int(state['score'][1])}"
        title = f"Study {self.game.preset.participant}: the game is over ({score})"
        surface.blit(big.render(title, True, COLOURS["text"]), (LEFT, 30))
        intro = (
            "How did the game go? Rate each statement from 1 (strongly disagree) to 7 "
            "(strongly agree), then set every workload scale (0 low ... 100 high)."
        )
        surface.blit(font.render(intro, True, COLOURS["muted"]), (LEFT, 72))
        if self.message:
            surface.blit(font.render(self.message, True, COLOURS["text"]), (540, 742))
        self.manager.draw_ui(surface)
