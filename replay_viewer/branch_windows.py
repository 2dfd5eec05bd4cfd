"""The two small windows that branch from a replay tick: "Play on from here" (which slots a
person takes, as a --slots spec) and "Save this position as a scenario" (focal team, horizon).
Each is a pygame_gui UIWindow; `button(element)` answers its own buttons with the request the
App carries out (replay_viewer.launch builds the command lines)."""

import pygame
from pygame_gui.elements import UIButton, UIDropDownMenu, UILabel, UITextEntryLine, UIWindow

from evaluation.scenario_save import HORIZON_DEFAULT
from replay_viewer import layout as L
from ui.panels import wrap


def slots_problem(slots: str) -> str:
    """Why Play on cannot take the typed slots text, or "" when it can try (the BattleClient
    checks the spec itself: policies.slotspec)."""
    return "" if slots.strip() else "Play on: name who plays each slot"


class PlayOnWindow:
    """Asks for the --slots spec (prefilled: launch.default_slots) to play on from `tick`."""

    def __init__(self, manager, tick: int, slots: str, shown: int | None = None):
        self.tick = tick  # the replay index; `shown` the game tick the title names
        title = f"Play on from tick {tick if shown is None else shown}"
        self.window = UIWindow(pygame.Rect(L.BRANCH), manager, title)
        self.window.set_blocking(True)  # modal: the bar and the arena behind it wait
        box = self.window
        UILabel(
            pygame.Rect(10, 8, 560, 24),
            "Who plays each slot (human = you; edit freely):",
            manager,
            container=box,
        )
        self.slots = UITextEntryLine(pygame.Rect(10, 36, 560, 32), manager, container=box)
        self.slots.set_text_length_limit(400)
        self.slots.set_text(slots)
        UILabel(
            pygame.Rect(10, 72, 560, 24),
            "kinds: human, random, scripted:NAME, checkpoint:PATH",
            manager,
            container=box,
        )
        self.go = UIButton(pygame.Rect(10, 110, 160, 34), "Play on", manager, container=box)
        self.problem = UILabel(pygame.Rect(10, 150, 560, 22), " ", manager, container=box)

    def alive(self) -> bool:
        return self.window.alive()

    def refresh(self) -> None:
        """Says in the window, as it is typed, why Play on cannot take the slots box."""
        text = slots_problem(self.slots.get_text()) or " "
        if self.problem.text != text:
            self.problem.set_text(text)

    def typing(self) -> bool:
        """True while the slots box has the keyboard (its keys are text, not shortcuts)."""
        return self.alive() and self.slots.is_focused

    def kill(self) -> None:
        self.window.kill()

    def button(self, element):
        """("play_on", tick, slots) when Play on was pressed, else None."""
        if element is self.go:
            return ("play_on", self.tick, self.slots.get_text().strip())
        return None


class ScenarioWindow:
    """Asks for the focal team and the horizon (ticks allowed) of a scenario saved at `tick`."""

    def __init__(self, manager, tick: int, focal: str = "A", shown: int | None = None,
                 warn=None):  # fmt: skip
        self.tick = tick  # the replay index; `shown` the game tick the title names
        self.warn = warn  # (focal "A"/"B", horizon text) -> why it cannot be won, or ""
        title = f"Save tick {tick if shown is None else shown} as a scenario"
        self.window = UIWindow(pygame.Rect(L.BRANCH), manager, title)
        self.window.set_blocking(True)  # modal: the bar and the arena behind it wait
        box = self.window
        UILabel(pygame.Rect(10, 8, 200, 30), "Focal team (must win):", manager, container=box)
        self.focal = UIDropDownMenu(
            ["A", "B"], focal, pygame.Rect(220, 8, 80, 30), manager, container=box
        )
        UILabel(pygame.Rect(10, 46, 200, 30), "Horizon (ticks allowed):", manager, container=box)
        self.horizon = UITextEntryLine(pygame.Rect(220, 46, 80, 30), manager, container=box)
        self.horizon.set_text(str(HORIZON_DEFAULT))
        self.go = UIButton(pygame.Rect(10, 130, 160, 34), "Save scenario", manager, container=box)
        # two lines of the label font: the warning is wider than the window
        self.rows = [UILabel(pygame.Rect(10, 80 + 22 * k, 570, 22), " ", manager, container=box,
                             anchors={"left": "left"}) for k in range(2)]  # fmt: skip
        self.font = manager.get_theme().get_font(["label"])
        self.refresh()

    @property
    def warning(self) -> str:
        """The warning shown (its two lines joined), or "" when none."""
        return " ".join(row.text.strip() for row in self.rows).strip()

    def refresh(self) -> None:
        """Shows whether the chosen focal team can still win in the typed horizon (Save still
        works: a lost position is a valid file)."""
        focal, horizon = self.focal.selected_option[0], self.horizon.get_text().strip()
        text = self.warn(focal, horizon) if self.warn is not None else ""
        head, _, tail = text.partition(" (")  # the sum on a line of its own, when it fits
        fits = tail and self.font.size(head)[0] <= 560
        lines = [head, f"({tail}"] if fits else wrap(text, self.font, 560, indent="")
        for row, line in zip(self.rows, [*lines, " ", " "], strict=False):
            if row.text != line:
                row.set_text(line)

    def alive(self) -> bool:
        return self.window.alive()

    def typing(self) -> bool:
        """True while the horizon box has the keyboard (its digits are text, not views)."""
        return self.alive() and self.horizon.is_focused

    def kill(self) -> None:
        self.window.kill()

    def button(self, element):
        """("scenario", tick, focal, horizon text) when Save was pressed, else None."""
        if element is self.go:
            return (
                "scenario",
                self.tick,
                self.focal.selected_option[0],
                self.horizon.get_text().strip(),
            )
        return None
