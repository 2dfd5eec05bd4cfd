"""Input of the play screen: pygame_gui buttons, keys and clicks, per phase (a PlayScreen mixin).

Keys are data in battleclient.controls (the help card lists them); a click on the arena picks a
move-ring dot, a target or one of the player's agents (RULES 3, 3.5: only legal choices).
"""

import pygame
import pygame_gui

from battleclient import layout as L
from battleclient.controls import MOVE_KEYS, SELECT_KEYS, TAKE_OVER_KEYS
from battleclient.llm_panel import CANCEL_KEY
from battleclient.play_draw import TWEEN_S
from battleclient.wording import target_refusal
from ui.rules import C, slot_label

HANDOVER_GUARD_S = 0.6  # seconds the hand-over card ignores keys and clicks

PLUS_KEYS = (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS)
MINUS_KEYS = (pygame.K_MINUS, pygame.K_KP_MINUS)
# orders-phase keys -> PlayScreen method: take back the last tick, repeat the last orders,
# orders repeat each tick on/off
ORDER_KEYS = {pygame.K_b: "take_back", pygame.K_r: "repeat_orders", pygame.K_o: "toggle_repeat"}


class PlayInput:
    """The PlayScreen's event handling; the actions it calls live on the PlayScreen."""

    def handle_events(self, events) -> None:
        for event in events:
            consumed = self.manager.process_events(event)
            if self.form is not None:  # "Save this position as a scenario" takes every event
                self.form.handle(event)
            elif event.type == pygame_gui.UI_BUTTON_PRESSED:
                self._button(event.ui_element)
            elif event.type == pygame.KEYDOWN and not consumed:
                self._key(event)
            elif event.type == pygame.MOUSEBUTTONDOWN and not consumed:
                pos = self.manager.calculate_scaled_mouse_position(event.pos)
                self._click(pos, event.button)

    def _button(self, element) -> None:
        if (self.show_menu or self.show_help) and element in self.buttons.values():
            return  # the menu and help cards are modal: the veiled bar behind them does nothing
        names = {w: n for n, w in {**self.buttons, **self.card_buttons}.items()}
        action = {
            "ult": self.toggle_ult,
            "takeback": self.take_back,
            "repeat": self.repeat_orders,
            "end": self.lock_in,
            "pause": self.toggle_pause,
            "step": self.step_once,
            "slower": lambda: self.change_speed(-1),
            "faster": lambda: self.change_speed(1),
            "help": self.toggle_help,
            "menu": self.toggle_menu,
            "resume": self.toggle_menu,
            "leave": self.leave,
            "quit": lambda: self.leave(self.app.quit),
            "position": self.open_position_form,
            "viewer": self.open_viewer,
            "video": self.export_video,
            "lobby": self.app.to_lobby,
        }.get(names.get(element))
        if action is not None:
            action()

    def _key(self, event) -> None:
        key = event.key
        if self.show_help:
            if key in (pygame.K_h, pygame.K_F1, pygame.K_ESCAPE):
                self.show_help = False
            return
        if self.show_menu:
            menu = {pygame.K_ESCAPE: self.toggle_menu, pygame.K_l: self.leave}
            menu[pygame.K_q] = lambda: self.leave(self.app.quit)
            menu[pygame.K_p] = self.open_position_form
            if key in menu:
                menu[key]()
            return
        if key in (pygame.K_h, pygame.K_F1):
            return self.toggle_help()
        if key == pygame.K_ESCAPE:
            return self.toggle_menu()
        if key == CANCEL_KEY and self.phase != "over":
            return self.cancel_thinking()
        handler = {
            "handover": self._key_handover,
            "orders": self._key_orders,
            "spectate": self._key_spectate,
            "over": self._key_over,
        }.get(self.phase)
        if handler is not None:
            handler(event)

    def _key_handover(self, event) -> None:
        if event.key in TAKE_OVER_KEYS:
            self._take_over_by_hand()

    def _take_over_by_hand(self) -> None:
        """A key or click takes over only once the card has been up HANDOVER_GUARD_S: the keys
        that end a turn also take over, so a double press would otherwise show the next team's
        board to the player who just ended theirs (fair views). An earlier press is ignored,
        and the card says so (controls.EARLY_PRESS_PROMPT)."""
        if self.card_age is not None and self.card_age >= HANDOVER_GUARD_S:
            self.take_over()
        else:
            self.early_press = True

    def take_over(self) -> None:
        if self.phase == "handover":
            self.phase, self.since = "orders", 0.0
            self._start_turn()
            self._sync_buttons()

    def _key_orders(self, event) -> None:
        key, book, slot = event.key, self.books[self.team], self.selected
        if key in (pygame.K_SPACE, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.lock_in()
        elif key == pygame.K_TAB:
            self.cycle_selection(-1 if event.mod & pygame.KMOD_SHIFT else 1)
        elif key in SELECT_KEYS:
            self.select(self.team * C.TEAM_SIZE + SELECT_KEYS[key])
        elif key in MOVE_KEYS:
            if not book.set_move(slot, MOVE_KEYS[key]):
                self.say(f"{slot_label(slot)} cannot move this tick (dead, stunned or no order)")
        elif key == pygame.K_u:
            self.toggle_ult()
        elif key == pygame.K_t:
            if not book.cycle_target(slot):
                self.say(target_refusal(self.snap.state, slot))
        elif key in (pygame.K_BACKSPACE, pygame.K_DELETE):
            book.clear_target(slot)
        elif key in ORDER_KEYS:
            return getattr(self, ORDER_KEYS[key])()
        self._sync_buttons()

    def _key_spectate(self, event) -> None:
        if event.key in (pygame.K_SPACE, pygame.K_p):
            self.toggle_pause()
        elif event.key in (pygame.K_n, pygame.K_RIGHT):
            self.step_once()
        elif event.key in PLUS_KEYS:
            self.change_speed(1)
        elif event.key in MINUS_KEYS:
            self.change_speed(-1)

    def _key_over(self, event) -> None:
        if event.key == pygame.K_r:
            self.open_viewer()
        elif event.key == pygame.K_v:
            self.export_video()
        elif event.key in (pygame.K_l, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.app.to_lobby()
        elif event.key == pygame.K_q:
            self.app.quit()
        elif event.key == pygame.K_b:  # the controls promise B says why it undoes nothing
            self.card_note = self.take_back_refusal()  # on the card: no toast over it

    def _click(self, pos, button) -> None:
        if self.phase == "handover" and button == 1:
            return self._take_over_by_hand()
        if self.phase != "orders" or self.show_help or self.show_menu:
            return
        if not pygame.Rect(L.ARENA).collidepoint(pos):
            return
        book, slot = self.books[self.team], self.selected
        scene = self.scenes[self.team]
        hit = self.renderer.unit_at(scene, pos, L.ARENA)
        choosing = button == 1 and slot is not None
        # a dot on a unit is drawn as an outline and the unit shows through (README, orders):
        # a legal target's body wins over the dot, anything else under it leaves the move
        if choosing and hit is not None and hit in book.choosable_targets(slot):
            book.choose_target(slot, hit)
            return self._sync_buttons()
        if choosing and self.since >= TWEEN_S:
            for d, point in self.drawing.ring(scene, slot):
                if (pos[0] - point[0]) ** 2 + (pos[1] - point[1]) ** 2 <= 12**2:
                    book.set_move(slot, 0 if book.orders[slot].move == d else d)
                    return self._sync_buttons()
        if hit is None:
            return
        if hit in book.slots:
            return self.select(hit)
        if button == 1 and slot is not None:
            self.say(f"{slot_label(hit)} is not a legal target for {slot_label(slot)} this tick")
