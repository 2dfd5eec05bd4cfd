"""The play screen: turn-based simultaneous orders, the resolution of each tick, spectating.

Phases: "starting" (the engine thread builds the game and compiles new rules, said on a card),
"handover" (hotseat: a card hides the screen until the next team's player takes over), "orders"
(a team's human agents get orders), "locked" (every human locked in; the engine thread resolves
the tick), "spectate" (no human slot: the game plays itself in the Oracle view, with pause, step
and speed) and "over".
Orders persist from tick to tick (battleclient.persist), resolved ticks can be taken back (B:
battleclient.takeback) and a hotseat turn can run on a clock (setup.turn_clock). All engine
work is submitted to the App's engine thread; this module never imports JAX.
"""

import pygame
from pygame_gui.elements import UIButton

from battleclient import layout as L
from battleclient import llm_panel
from battleclient.controllers import build_game
from battleclient.controls import SPEEDS
from battleclient.orders import OrderBook
from battleclient.persist import carry_orders, orders_of
from battleclient.play_draw import RESOLVE_S, PlayDrawing
from battleclient.play_input import PlayInput
from battleclient.screens import Screen
from battleclient.settings import new_replay_path, replay_dir
from battleclient.takeback import TakeBack, TakeBackButton
from battleclient.views import ORACLE, fair_scene, log_lines
from battleclient.wording import armed_warning, ult_refusal
from replay_viewer.playback import VideoRunner
from ui.arena import ArenaRenderer
from ui.rules import C
from ui.theme import GUI_THEME
from ui.window_fit import FittedManager

# play buttons with their own pygame_gui class (the rest are plain UIButtons)
BUTTON_KINDS = {"takeback": TakeBackButton}


class PlayScreen(TakeBack, PlayInput, Screen):
    """One game of a ClientSetup; `app` gives submit(), fonts, to_lobby(), quit(), open_viewer()."""

    def __init__(self, app, setup, maps_by_split: dict, replay_out=None, branch=None):
        self.app, self.setup, self.replay_out = app, setup, replay_out
        self.sight = setup.view  # what a human sees (game_setup.VIEWS, views.fair_scene)
        theme = str(GUI_THEME) if GUI_THEME.is_file() else None
        self.manager = FittedManager(app.fit, theme)
        self.renderer = ArenaRenderer()
        self.buttons = {
            name: BUTTON_KINDS.get(name, UIButton)(
                pygame.Rect(rect), text, self.manager, tool_tip_text=tip
            )
            for name, (text, rect, tip) in L.PLAY_BUTTONS.items()
        }
        self.card_buttons: dict = {}
        self.session = self.snap = None
        self.phase, self.message, self.message_age = "starting", "", 0.0
        self.card_note = ""  # what a key on the game-over card said (B): the card shows it
        self.teams: list[int] = []
        self.viewers: dict = {}  # team (or None when spectating) -> viewer
        self.books: dict = {}
        self.scenes: dict = {}
        self.before: dict = {}
        self.logs: dict = {}
        self.turn, self.selected = 0, None
        self.repeat = setup.repeat_orders  # orders persist until changed (battleclient.persist)
        self.last_orders: dict = {}  # slot -> Order of the last resolved tick
        # (orders, by_hand) of each resolved tick, for take_back; by_hand: some human agent
        # could act (else the client played the tick by itself, see update)
        self.given: list = []
        self.notes: dict = {}  # team -> notes on its repeated orders this tick
        # the slots whose armed Ultimate (no target yet) the last Space warned about: a second
        # Space with the same ones ends the turn without them (lock_in)
        self.armed_warned: tuple = ()
        self.clock_left = None  # seconds of the turn clock (setup.turn_clock), None: no clock
        self.since = 99.0  # seconds since the shown tick resolved
        # seconds the hand-over card has been up (HANDOVER_GUARD_S); None on the frame it appears,
        # so the frame's dt (time that passed before the key that ended the turn) is not counted
        self.card_age: float | None = None
        self.early_press = False  # a press the card ignored (play_input._take_over_by_hand)
        self.paused, self.speed_index, self.timer, self.waiting = False, 2, 0.0, False
        self.show_help = self.show_menu = False
        self.form = None  # the menu's "Save this position as a scenario" (position_form)
        self.saved_position = None  # the scenario file it wrote last
        self.replay_path, self.saved = None, False
        self.llm_error = ""  # the last LLM endpoint failure already said
        self.video = VideoRunner()  # the game-over card's "Export video" (Oracle view)
        self.drawing = self.drawing_class(self)
        self._submit_build(maps_by_split, branch)
        self._sync_buttons()

    drawing_class = PlayDrawing  # a screen with its own cards (scenario_play) draws with its own

    def _submit_build(self, maps_by_split: dict, branch) -> None:
        """The engine-thread job that builds the game; new rules compile in it, under the
        "Setting up the game" card's progress line."""
        job = (build_game, self.app.progress, self.setup, maps_by_split, branch)
        self.app.submit(*job, done=self._on_built)

    # --- engine-thread jobs ----------------------------------------------------------------
    def _save(self):
        folder = replay_dir()
        path = self.replay_out or new_replay_path(folder, self.session.map_id, self.setup.seed)
        return self.session.save(path)

    # --- game flow -------------------------------------------------------------------------
    @property
    def hotseat(self) -> bool:
        return len(self.teams) > 1

    @property
    def team(self):
        """The team giving orders (after the last lock-in: the last one, until the tick lands)."""
        return self.teams[min(self.turn, len(self.teams) - 1)] if self.teams else None

    @property
    def viewer_key(self):
        return self.team if self.teams else None

    def _on_built(self, ok, value) -> None:
        if not ok:
            self.app.to_lobby(f"Could not start the game: {value}", error=True)
            return
        self.session = value
        humans = value.human_slots
        self.teams = sorted({s // C.TEAM_SIZE for s in humans})
        self.viewers = {t: tuple(s for s in humans if s // C.TEAM_SIZE == t) for t in self.teams}
        if not self.teams:
            self.viewers = {None: ORACLE}
        self._accept(value.snapshot)

    def _accept(self, snap) -> None:
        """A new tick arrived: scenes and logs per viewer, then the next orders or the end."""
        self.snap, self.waiting, self.since = snap, False, 0.0
        self.message = ""  # hints about the last tick's orders are stale now
        for key, viewer in self.viewers.items():
            scene = fair_scene(snap, viewer, sight=self.sight)
            before = self.scenes.get(key)
            lines = log_lines(snap, viewer, scene, before, self.sight)
            # labelled by the tick that resolved (the banner's "Tick N resolved")
            self.logs.setdefault(key, []).extend((snap.tick - 1, line) for line in lines)
            self.before[key], self.scenes[key] = before, scene
        if snap.over:
            self.phase = "over"
            if not self.saved:  # else leave() already queued a save, behind this tick
                self.app.submit(self._save, done=self._on_saved)
            self.saved = True
        elif self.teams:
            self._new_orders(snap, self.last_orders if self.repeat else {})
        else:
            self.phase = "spectate"
        self._sync_buttons()

    def _new_orders(self, snap, previous: dict, origin: str = "repeat") -> None:
        """Fresh order books for the tick of `snap`, holding `previous` orders where legal
        (battleclient.persist; `origin` says where they come from), and the machine Systems
        asked to decide meanwhile."""
        end = int(snap.state["spawn_end"])
        self.books = {
            t: OrderBook(self.viewers[t], snap.move_mask, snap.pair_mask, end) for t in self.teams
        }
        self.notes = {
            t: carry_orders(b, previous, self.scenes[t], origin) for t, b in self.books.items()
        }
        self.turn = 0
        self._begin_turn()
        self.app.submit(self.session.decide, done=self._on_decided)

    def _begin_turn(self) -> None:
        self.phase = "handover" if self.hotseat else "orders"
        self.card_age, self.early_press = None, False
        self.armed_warned = ()
        book = self.books[self.team]
        actable = [s for s in book.slots if book.can_act(s)]
        self.selected = (actable or list(book.slots))[0]
        if not self.hotseat:
            self._start_turn()

    def _start_turn(self) -> None:
        """The team on screen starts giving orders: its notes, and its turn clock if set."""
        self.clock_left = float(self.setup.turn_clock) if self.setup.turn_clock else None
        self._say_notes()

    def _say_notes(self) -> None:
        """The current team's notes on its repeated orders (only its own: hotseat teams do
        not learn each other's targets)."""
        notes = self.notes.get(self.team)
        if notes:
            self.say("; ".join(notes))

    def lock_in(self) -> None:
        """Space, Enter or "End turn": end the turn, unless an Ultimate is armed and still has
        no target (orders.Order.armed), which would be dropped without a word: the first press
        says so (armed_warning), a second with the same armed slots ends the turn anyway."""
        if self.phase != "orders":
            return
        armed = self.books[self.team].armed_without_target()
        if armed and armed != self.armed_warned:
            self.armed_warned = armed
            return self.say(armed_warning(self.snap.state, armed))
        self.end_turn()

    def end_turn(self) -> None:
        """Lock in this team's orders; the next hotseat team, or resolve the tick."""
        if self.phase != "orders":
            return
        self.turn += 1
        if self.turn < len(self.teams):
            self._begin_turn()
        else:
            orders = {}
            for book in self.books.values():
                orders.update(book.all_heads())
            alive = self.snap.state["alive"]
            self.last_orders = orders_of(self.books, self.last_orders, alive)
            by_hand = any(b.can_act(s) for b in self.books.values() for s in b.slots)
            self.given.append((self.last_orders, by_hand))
            self.phase, self.waiting = "locked", True
            self.app.submit(self.session.resolve, orders, done=self._on_tick)
        self._sync_buttons()

    def repeat_orders(self) -> None:
        """R: this team's orders of the last tick again (for when repeating is off)."""
        if self.phase != "orders":
            return
        notes = carry_orders(self.books[self.team], self.last_orders, self.scenes[self.team])
        self.say("; ".join(notes) or "Last tick's orders repeated")
        self._sync_buttons()

    def toggle_repeat(self) -> None:
        """O: orders repeat each tick until changed (on by default), or not."""
        self.repeat = not self.repeat
        self.say(f"Orders repeat each tick: {'on' if self.repeat else 'off'} (O)")

    def _on_tick(self, ok, value) -> None:
        if ok:
            self._accept(value)
            self._say_llm_failure()
        else:
            self.waiting = False
            self.say(f"The engine failed on this tick: {value}")

    def _on_decided(self, ok, value) -> None:
        if not ok:
            self.say(f"Machine slots could not decide: {value}")
        self._say_llm_failure()

    def _say_llm_failure(self) -> None:
        """A failed LLM endpoint is said once (until it fails differently); play goes on."""
        if self.session is None:
            return
        error = llm_panel.failure_for(self.session.llm_status(), self.viewer_key)
        if error and error != self.llm_error:
            self.llm_error = error
            self.say(f"LLM: {error[:90]}; its agents play the no-op", error=True)

    def cancel_thinking(self) -> None:
        """K: stop waiting for the LLM slots; they play the no-op this tick."""
        if self.session is not None and self.session.cancel_thinking():
            self.say("Stopped waiting for the LLM: its agents play the no-op this tick")

    def _on_saved(self, ok, value) -> None:
        if ok and value is not None:
            self.replay_path = value
            self.app.last_replay = value
            self.say(f"Replay saved: {value}")
        elif not ok:
            self.say(f"The replay could not be saved: {value}")

    def advance(self) -> None:
        """Spectating: decide and resolve the next tick (no human orders)."""
        if self.phase == "spectate" and not self.waiting and self.session is not None:
            self.waiting = True
            self.app.submit(self.session.resolve, {}, done=self._on_tick)

    def leave(self, then=None) -> None:
        """Save what was played (if not saved yet) and go to the lobby (or quit)."""
        if self.session is not None and not self.saved and self.snap is not None and self.snap.tick:
            self.saved = True
            self.app.submit(self._save, done=self.app.on_left_game_saved)
        (then or self.app.to_lobby)()

    def say(self, text: str, error: bool = False) -> None:
        """A short message over the arena (errors and hints alike)."""
        self.message, self.message_age = text, 0.0

    # --- actions ---------------------------------------------------------------------------
    def select(self, slot: int) -> None:
        if self.phase == "orders" and slot in self.books[self.team].slots:
            self.selected = slot
            self._sync_buttons()

    def cycle_selection(self, step: int = 1) -> None:
        slots = list(self.books[self.team].slots)
        index = slots.index(self.selected) if self.selected in slots else -1
        self.select(slots[(index + step) % len(slots)])

    def toggle_ult(self) -> None:
        if self.phase != "orders" or self.selected is None:
            return
        if not self.books[self.team].toggle_ult(self.selected):
            self.say(ult_refusal(self.snap.state, self.selected))
        self._sync_buttons()

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self._sync_buttons()

    def step_once(self) -> None:
        if self.phase == "spectate" and self.paused:
            self.advance()

    def change_speed(self, step: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + step))
        self.say(f"Speed: {SPEEDS[self.speed_index]} ticks per second")

    def toggle_help(self) -> None:
        self.show_help = not self.show_help

    def toggle_menu(self) -> None:
        self.show_menu = not self.show_menu
        self._sync_buttons()

    def open_position_form(self) -> None:
        """The menu's "Save this position as a scenario" (P): asks focal team and horizon."""
        from battleclient.position_form import PositionForm

        if self.form is None and self.snap is not None:
            self.form = PositionForm(self)
            self._sync_buttons()

    def open_viewer(self) -> None:
        if self.replay_path is None:
            return self.say("The replay is still being written")
        self.say(self.app.open_viewer(self.replay_path))

    def export_video(self) -> None:
        """The game-over card's "Export video" (V): the replay as a GIF in the Oracle view at
        4 ticks a second, in the videos folder (replay_viewer.playback.VideoRunner)."""
        if self.replay_path is None:  # the card shows video.line, not the toast
            self.video.line = "The replay is still being written; try again in a moment"
            return
        self.video.start(self.replay_path)

    def _sync_buttons(self) -> None:
        orders = self.phase == "orders"
        spectate = self.phase == "spectate"
        for name, widget in self.buttons.items():
            shown = {"ult": orders, "end": orders, "takeback": orders, "repeat": orders}
            show = {**shown, "help": True, "menu": self.phase != "over"}.get(name, spectate)
            widget.show() if show else widget.hide()
        if orders and self.selected is not None:
            book = self.books[self.team]
            can = book.can_ult(self.selected)
            self.buttons["ult"].enable() if can else self.buttons["ult"].disable()
            order = book.orders[self.selected]
            label = "Ultimate: ON (U)" if (order.ult or order.armed) else "Ultimate (U)"
            if self.buttons["ult"].text != label:
                self.buttons["ult"].set_text(label)
        self._sync_take_back_button()
        pause = "Play (Space)" if self.paused else "Pause (Space)"
        if self.buttons["pause"].text != pause:
            self.buttons["pause"].set_text(pause)
        self.drawing.sync_card_buttons()

    # --- frame -----------------------------------------------------------------------------
    def busy(self) -> bool:
        """True while the picture moves on its own: a resolution animating (units gliding,
        numbers, banner), a spectated game playing, LLM slots thinking (the clock runs) or a
        video export."""
        animating = self.since < RESOLVE_S and self.phase not in ("over", "starting")
        clock = self.phase == "orders" and self.clock_left is not None
        spectating = self.phase == "spectate" and not self.paused
        thinking = self.session is not None and bool(self.session.llm_status()["thinking"])
        return animating or spectating or thinking or clock or self.video.running

    def update(self, dt: float) -> None:
        self.since += dt
        self.card_age = 0.0 if self.card_age is None else self.card_age + dt
        self.message_age += dt
        self.video.step()
        self._run_clock(dt)
        if self.phase == "orders" and self.since > RESOLVE_S and not self.show_menu:
            book = self.books[self.team]
            if not any(book.can_act(s) for s in book.slots):  # all dead or stunned: no orders
                self.end_turn()
        if self.phase == "spectate" and not self.paused and not self.waiting:
            self.timer += dt
            if self.timer >= 1.0 / SPEEDS[self.speed_index]:
                self.timer = 0.0
                self.advance()
        self.manager.update(dt)

    def _run_clock(self, dt: float) -> None:
        """The turn clock counts down while a team gives orders; at 0 they lock in as they
        stand (unset ones play the no-op)."""
        if self.phase != "orders" or self.clock_left is None:
            return
        self.clock_left -= dt
        if self.clock_left <= 0:
            self.clock_left = None
            self.say(f"Time is up: Team {C.TEAM_NAMES[self.team]}'s orders are locked in")
            self.end_turn()

    def draw(self, surface) -> None:
        self.drawing.draw(surface)
