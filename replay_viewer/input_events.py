"""How the viewer window takes its input: SDL events to pygame_gui, the toolbar, the side
panel, the branch form and the shortcuts, and who holds the keyboard.

An `InputHandling` mixin holds App's side of it: `handle_events(events)` and the keyboard
focus of the text boxes (tick entry, search, branch form). A shortcut is run through App.act
(replay_viewer.actions); behind a form only MODAL_KEYS act.
"""

import pygame
import pygame_gui

from replay_viewer import layout as L
from replay_viewer.actions import branch_request
from replay_viewer.shortcuts import action_for

MODAL_KEYS = ("escape", "quit", "fullscreen")  # the shortcuts that still act behind a form


class InputHandling:
    """App's input: events in, actions, clicks and keyboard focus out."""

    def handle_events(self, events) -> None:
        for event in events:
            if event.type == pygame.QUIT:
                self.running = False
                continue
            if event.type == pygame.TEXTINPUT and self._swallowed(event.text):
                continue
            if event.type == pygame.KEYDOWN and self._typing() and self._leave_box(event):
                continue
            consumed = self.manager.process_events(event)
            if event.type == pygame.MOUSEMOTION:
                self.mouse = event.pos
            if self._ui_event(event):
                continue
            if event.type == pygame.KEYDOWN and not consumed and not self._typing():
                action = action_for(event)
                if action is not None and self.modal_windows() and action[0] not in MODAL_KEYS:
                    continue  # a shortcut must not change the replay behind a form
                if action is not None:
                    self.shortcut_char = getattr(event, "unicode", "")
                    self.act(*action)
                    self.shortcut_char = ""
            elif event.type == pygame.MOUSEBUTTONDOWN and not consumed and event.button == 1:
                self._click(event.pos)
            elif event.type == pygame.MOUSEWHEEL and not self.modal_windows():
                self.side.wheel(self.mouse, event.y)

    def modal_windows(self) -> list:
        """The open windows everything else waits for: a branch form and the file dialog
        (both blocking pygame_gui windows); the problem message is not one (Ctrl+O still works)."""
        branch = self.branch_window.window if self.branch_window is not None else None
        return [w for w in (branch, self.dialog) if w is not None and w.alive()]

    def _typing(self) -> bool:
        window = self.branch_window
        branch_typing = window is not None and window.typing()
        # pygame_gui focuses a greyed-out box on a click too; it takes no text, so no keys
        ticks = self.tick_entry.is_focused and self.tick_entry.is_enabled
        return ticks or self.side.typing() or branch_typing

    def give_keyboard(self, entry) -> None:
        """Focuses a text box through the UI manager (so a click elsewhere releases it) and drops
        the TEXTINPUT that SDL sends after the shortcut's own KEYDOWN (`g`, `/`)."""
        self.manager.set_focus_set(entry)
        self.swallow_text = self.shortcut_char

    def release_keyboard(self) -> None:
        self.manager.set_focus_set(None)

    def _swallowed(self, text: str) -> bool:
        swallow, self.swallow_text = self.swallow_text, ""
        return bool(swallow) and text == swallow

    def _leave_box(self, event) -> bool:
        """Esc in a text box gives the keyboard back to the shortcuts; True if it did."""
        if event.key != pygame.K_ESCAPE:
            return False
        self.release_keyboard()
        return True

    def _ui_event(self, event) -> bool:
        kind = event.type
        if self.bar.ui_event(event):
            return True
        if kind == pygame_gui.UI_BUTTON_PRESSED:
            window = self.branch_window
            request = window.button(event.ui_element) if window is not None else None
            if request is not None:
                branch_request(self, request)
                return True
            return self.side.button(event.ui_element)
        if kind == pygame_gui.UI_TEXT_ENTRY_FINISHED and event.ui_element is self.side.search:
            self.release_keyboard()  # Enter keeps the filter and gives the keys back
            return True
        if kind == pygame_gui.UI_TEXT_ENTRY_CHANGED:
            return self.side.text_changed(event.ui_element, event.text)
        if (
            kind == pygame_gui.UI_SELECTION_LIST_NEW_SELECTION
            and event.ui_element is self.list_widget
        ):
            index = int(event.text.split()[0]) - 1
            self.open_replay(self.entries[index].path)
            return True
        if kind == pygame_gui.UI_FILE_DIALOG_PATH_PICKED:
            self.dialog = None
            self.open_path(event.text)
            return True
        return False

    def _click(self, pos) -> None:
        if self.model is None or self.bar.strip_click(pos):
            return
        if pygame.Rect(L.ARENA).collidepoint(pos):
            scene = self.model.scene()
            self.model.selected = self.renderer.unit_at(scene, pos, L.ARENA)
            if self.model.selected is not None:
                self.side.tab = self.side.tab if self.side.tab != "log" else "agent"
            return
        self.side.click(pos)
