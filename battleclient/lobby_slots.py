"""The lobby's ten slot rows: a class menu and a controller menu per slot (battleclient.lobby).

The controller menus offer the kinds this installation can build (the app's `kinds`, known
once the engine thread has loaded policies.slotspec), the scripted bots by name, a file
dialog for a checkpoint and "type a spec" for any other kind; what is chosen is written back
into the slot-spec line (`slots_text`), the one place the lobby keeps the controllers.
"""

import pygame
from pygame_gui.elements import UIDropDownMenu
from pygame_gui.windows import UIFileDialog

from battleclient import layout as L
from battleclient.game_setup import default_spec, slot_name, slots_text
from ui.rules import C

CLASS_OPTIONS = [*C.CLASS_NAMES[1:], "(empty)"]
PICK_FILE = "checkpoint: pick a file..."
TYPE_SPEC = "other: type a spec below..."
TYPED = ": type its spec below..."  # after the name of any other kind the registry offers


class SlotRows:
    """The Lobby's slot rows (a mixin: the Lobby holds `rows`, `roster`, `specs`,
    `spec_entry`, `manager`, `dialog`, `dialog_slot`, `spec_problem` and `say`)."""

    def controller_options(self, spec: str) -> list[str]:
        kinds = self.app.kinds
        if self.specs is None or kinds is None:
            return ["(fix the slot spec below)" if self.spec_problem else "(loading)"]
        options = [k for k in ("human", "random") if k in kinds]
        options += [f"scripted:{b}" for b in self.app.scripted] if "scripted" in kinds else []
        if spec and spec not in options:
            options.append(spec)
        if "checkpoint" in kinds:
            options.append(PICK_FILE)
        others = [k for k in kinds if k not in ("human", "random", "scripted", "checkpoint")]
        return options + [f"{k}{TYPED}" for k in others] + [TYPE_SPEC]

    def _row_y(self, slot: int) -> int:
        return L.SLOTS_Y + 30 + slot * L.ROW_H + (12 if slot >= C.TEAM_SIZE else 0)

    def _build_rows(self) -> None:
        for widgets in self.rows.values():
            for widget in widgets:
                widget.kill()
        self.rows = {}
        for slot in range(C.NUM_SLOTS):
            y = self._row_y(slot)
            cls = int(self.roster[slot])
            name = C.CLASS_NAMES[cls] if cls else "(empty)"
            cls_menu = UIDropDownMenu(
                CLASS_OPTIONS, name, pygame.Rect(L.SLOTS_X + 50, y, 130, 32), self.manager
            )
            spec = self.specs[slot] if self.specs is not None else ""
            options = self.controller_options(spec)
            shown = spec if spec in options else options[0]
            ctl_menu = UIDropDownMenu(
                options, shown, pygame.Rect(L.SLOTS_X + 186, y, 440, 32), self.manager
            )
            self.rows[slot] = (cls_menu, ctl_menu)

    def _give_controller(self, slot: int) -> None:
        """A slot that just got a class and has no controller gets the default one, so the
        setup matches what its menu shows."""
        if self.specs is None or not self.roster[slot] or self.specs[slot]:
            return
        self.specs[slot] = default_spec(slot)
        self.spec_entry.set_text(slots_text(self.specs))
        self._build_rows()

    def _controller(self, slot: int, text: str) -> None:
        if text == PICK_FILE:
            self.dialog_slot = slot
            self.dialog = UIFileDialog(
                pygame.Rect(L.DIALOG),
                self.manager,
                f"Checkpoint for slot {slot_name(slot)}",
                allow_existing_files_only=True,
            )
        elif text == TYPE_SPEC or text.endswith(TYPED):
            if text != TYPE_SPEC and self.specs is not None:
                kind = text[: -len(TYPED)]
                self.specs[slot] = f"{kind}:"
                self.spec_entry.set_text(slots_text(self.specs))
            self.spec_entry.focus()
            self.say(f"Type the spec of {slot_name(slot)} in the slot-spec line, then Enter")
        elif self.specs is not None:
            self.specs[slot] = text
            self.spec_entry.set_text(slots_text(self.specs))

    def _picked(self, path: str) -> None:
        self.dialog = None
        if self.specs is not None and self.dialog_slot is not None:
            self.specs[self.dialog_slot] = f"checkpoint:{path}"
            self.spec_entry.set_text(slots_text(self.specs))
        self._build_rows()
