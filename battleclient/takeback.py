"""Take back on the play screen (B or "Take back"): undo resolved ticks back to the last one a
human gave orders for, stepping past those the client played by itself (no human agent could
act: all dead or stunned, RULES 3.3's Charge stun), and bring that tick's orders back.

The pure rules (how many ticks, why not) serve both the key and the button's state, so the
button is enabled exactly when B would undo something and its tooltip says why not otherwise.
The engine work runs on the App's engine thread (GameSession.take_back); a `TakeBack` mixin
holds the PlayScreen's side of it. `TakeBackButton` shows the refusal while the button is
disabled: pygame_gui 0.6.14's UIButton.can_hover is False for a disabled button, so its tooltip
never appears.
"""

from pygame_gui.core import UIElement
from pygame_gui.elements import UIButton

from battleclient import layout as L
from battleclient.views import fair_scene

TAKE_BACK_TIP = L.PLAY_BUTTONS["takeback"][2]  # the tooltip while it would undo something
NOTHING_RESOLVED = "Nothing to take back yet: no tick has been resolved"
NO_HUMAN_TICK = "Nothing to take back: no human agent could act on any tick yet"
GAME_OVER = "The game is over: nothing to take back; R opens the replay."


def ticks_to_take_back(by_hand: list) -> int:
    """How many resolved ticks one take back undoes: those at the end the client played by
    itself (False in `by_hand`, one bool per resolved tick, oldest first) and the last one with
    human orders (True); 0 when no tick had them."""
    auto = next((i for i, hand in enumerate(reversed(by_hand)) if hand), None)
    return 0 if auto is None else auto + 1


def take_back_refusal(can_take_back: bool, by_hand: list, over: bool = False) -> str:
    """Why a take back would undo nothing now ("" when it would undo something):
    `can_take_back` is GameSession.can_take_back (a tick resolved, the game not over),
    `by_hand` as for ticks_to_take_back, `over` whether the game has ended (the game-over
    card's B)."""
    if over:
        return GAME_OVER
    if not can_take_back:
        return NOTHING_RESOLVED
    return "" if ticks_to_take_back(by_hand) else NO_HUMAN_TICK


def take_back_ticks(session, count: int):
    """Engine-thread job: GameSession.take_back `count` times (count >= 1); the Snapshot it
    returns last. Raises RuntimeError as GameSession.take_back does."""
    for _ in range(count):
        snap = session.take_back()
    return snap


class TakeBackButton(UIButton):
    """The "Take back" button: hovered while disabled too, so its tooltip (the refusal, set by
    TakeBack._sync_take_back_button) appears after the theme's delay; a disabled one keeps its
    disabled look and still ignores clicks (UIButton.process_event checks is_enabled)."""

    def can_hover(self) -> bool:
        return not self.is_selected and not self.held and self.alive()

    def on_hovered(self) -> None:
        if self.is_enabled:
            return super().on_hovered()
        UIElement.on_hovered(self)  # only the tooltip's timer: no hovered look, no hover event

    def set_tooltip(self, text=None, *args, **kwargs) -> None:
        """As UIButton's; a tooltip already open closes, so the next hovered frame opens one
        with the new text (pygame_gui keeps an open tooltip's text)."""
        super().set_tooltip(text, *args, **kwargs)
        if getattr(self, "tool_tip", None) is not None:
            self.tool_tip.kill()
            self.tool_tip = None


class TakeBack:
    """The PlayScreen's take back: B, the "Take back" button and its state (a mixin; it uses
    the screen's session, given, viewers, logs, scenes and _new_orders)."""

    def take_back_refusal(self) -> str:
        """Why B would undo nothing now, "" when it would undo something (take_back_refusal)."""
        if self.session is None:
            return NOTHING_RESOLVED
        over = self.snap is not None and bool(self.snap.over)
        return take_back_refusal(self.session.can_take_back, [h for _, h in self.given], over)

    def take_back(self) -> None:
        """B or "Take back": undo resolved ticks (GameSession.take_back) back to the last one
        a human gave orders for, stepping past those the client played by itself; that tick's
        orders come back to be changed. Only while giving orders; when there is nothing to
        undo, it says why (take_back_refusal) and undoes nothing."""
        if self.phase != "orders" or self.waiting or self.session is None:
            return
        refusal = self.take_back_refusal()
        if refusal:
            return self.say(refusal)
        count = ticks_to_take_back([by_hand for _, by_hand in self.given])
        self.phase, self.waiting = "locked", True
        done = lambda ok, value: self._on_taken_back(ok, value, count)  # noqa: E731
        self.app.submit(take_back_ticks, self.session, count, done=done)
        self._sync_buttons()

    def _on_taken_back(self, ok, value, count: int = 1) -> None:
        """The engine thread undid `count` ticks (take_back): the last of them, the one with
        human orders, comes back to be changed."""
        if not ok:
            self.phase, self.waiting = "orders", False
            return self.say(f"Could not take back the tick: {value}", error=True)
        undone = self.given[-count][0]
        del self.given[-count:]
        self.snap, self.waiting, self.since = value, False, 99.0  # no resolution to replay
        for key, viewer in self.viewers.items():
            # log lines of tick t are labelled t - 1 (PlayScreen._accept): drop the undone ticks'
            self.logs[key] = [(t, line) for t, line in self.logs.get(key, []) if t < value.tick]
            self.scenes[key] = fair_scene(value, viewer, sight=self.sight)
            self.before[key] = None
        self._new_orders(value, undone, origin="takeback")
        past = f" (and {count - 1} played by itself after it)" if count > 1 else ""
        self.say(f"Took back tick {value.tick}{past}: its orders are back, change them")
        self._sync_buttons()

    def _sync_take_back_button(self) -> None:
        """Enabled only when B would undo something; the tooltip says why not otherwise."""
        button, refusal = self.buttons["takeback"], self.take_back_refusal()
        button.disable() if refusal else button.enable()
        tip = refusal or TAKE_BACK_TIP
        if button.tool_tip_text != tip:
            button.set_tooltip(tip)
