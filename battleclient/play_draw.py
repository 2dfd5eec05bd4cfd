"""Drawing of the play screen: arena with the orders ring, panels, resolution banner, cards.

Everything in a human's view is drawn from the fair Scene of battleclient.views (units, floating
numbers, cards of the side panel, log lines); only public facts (score, tick, waves, the result)
are read from the snapshot directly.
"""

import math
import re

import pygame
from pygame_gui.elements import UIButton

from battleclient import layout as L
from battleclient import llm_panel, panels
from battleclient.controls import EARLY_PRESS_PROMPT, SPEEDS, TAKE_OVER_PROMPT
from battleclient.resolution import RESOLVE_S, TWEEN_S, draw_resolution
from battleclient.views import ORACLE, fair_scene, viewer_label
from ui import modal
from ui.explain import counted, end_reason
from ui.panels import ELLIPSIS, cut_end, short_path, wrap
from ui.rules import C
from ui.scene import DEFAULT_OVERLAYS
from ui.theme import COLOURS, TEAM_COLOURS

RING_UNITS = 1.7  # map units from an agent to its move dots: clear of its floating numbers


class PlayDrawing:
    """Draws a PlayScreen `screen`; owns the card buttons (menu, game over)."""

    over_buttons = L.OVER_BUTTONS  # the game-over card's buttons: name -> (text, rect)
    menu_buttons = L.MENU_BUTTONS  # the in-game menu's buttons: name -> (text, rect)

    def __init__(self, screen):
        self.s = screen
        self.fonts = (screen.app.font, screen.app.small, screen.app.big)

    # --- geometry shared with input --------------------------------------------------------
    def scale(self) -> float:
        r = self.s.renderer
        return r.world_to_screen((1, 0), L.ARENA)[0] - r.world_to_screen((0, 0), L.ARENA)[0]

    def ring_inner(self) -> float:
        """Pixels from a unit's centre to where the ring's spokes start (clear of its glyph)."""
        return C.BODY_RADIUS * self.scale() + 9

    def ring(self, scene, slot):
        """[(world direction, screen point)] of the selected agent's legal move dots, every dot
        wholly inside the map: one that would stick out is drawn nearer the agent along its
        spoke, and left out when that leaves no room between the glyph and the edge (the move
        runs into the map's edge at once; its key still works)."""
        book = self.s.books.get(self.s.team)
        unit = scene.unit(slot)
        if book is None or unit is None or not unit.alive or not book.can_move(slot):
            return []
        centre = self.s.renderer.world_to_screen(unit.pos, L.ARENA)
        legal = book.legal_moves(slot)
        radius = max(44.0, RING_UNITS * self.scale())
        room = self.s.renderer.map_rect(L.ARENA).inflate(-2 * panels.DOT_R, -2 * panels.DOT_R)
        least = self.ring_inner() + panels.DOT_R
        return panels.fitted_ring(centre, radius, legal, room, least)

    # --- frame -----------------------------------------------------------------------------
    def draw(self, surface) -> None:
        s = self.s
        font, small, big = self.fonts
        surface.fill(COLOURS["background"])
        if s.snap is None:
            text, fraction, done = s.app.progress_view()
            self._card(surface, "Setting up the game", [text])
            panels.draw_progress(surface, L.SETUP_BAR, fraction, done)
        elif s.phase == "handover":
            self._handover(surface)
        elif s.phase == "locked" and s.hotseat:
            self._card(surface, "Resolving the tick", ["Every slot has locked in."])
        else:
            self._game(surface)
        s.manager.draw_ui(surface)
        if s.show_help:
            panels.draw_help(surface, (font, big))
        elif s.show_menu:
            self._card(surface, "Menu", [menu_line(self.ticks_played(), s.saved)])
            if s.form is not None:
                s.form.draw(surface, (font, big))
            # only the card's own widgets come back bright: the top bar stays under the veil
            form = s.form.widgets() if s.form is not None else ()
            modal.draw_widgets(surface, [*s.card_buttons.values(), *form])

    def _card(self, surface, title, lines) -> None:
        panels.draw_card(surface, L.CARD, title, lines, (self.fonts[0], self.fonts[2]))

    def _handover(self, surface) -> None:
        team = C.TEAM_NAMES[self.s.team]
        other = C.TEAM_NAMES[1 - self.s.team]
        self._card(
            surface,
            f"Team {team}'s turn",
            [
                f"Hand the controls to Team {team}'s player; Team {other}, look away.",
                f"Tick {self.s.snap.tick}. Team {team}'s orders stay hidden from Team {other}.",
                "",
                EARLY_PRESS_PROMPT if self.s.early_press else TAKE_OVER_PROMPT,
            ],
        )

    def _scene(self):
        s = self.s
        key = s.viewer_key
        viewer = s.viewers[key]
        if s.phase == "over":  # the end keeps the game's view (fair views): the replay has all
            return fair_scene(s.snap, viewer, sight=s.sight), None, viewer
        selected, highlights, overlays = None, (), set(DEFAULT_OVERLAYS)
        if s.phase == "orders" and s.selected is not None:
            book = s.books[s.team]
            order = book.orders[s.selected]
            selected = s.selected
            highlights = book.legal_targets(selected, order.ult or order.armed)
            overlays.add("ranges")
        scene = fair_scene(
            s.snap,
            viewer,
            selected=selected,
            highlights=highlights,
            overlays=overlays,
            sight=s.sight,
        )
        return scene, s.before.get(key), viewer

    def _game(self, surface) -> None:
        s = self.s
        font, small, big = self.fonts
        scene, before, viewer = self._scene()
        ringed = s.phase == "orders" and s.since >= TWEEN_S  # the ring waits for units to settle
        dots = self.ring(scene, s.selected) if ringed and s.selected is not None else []
        r = panels.DOT_R
        s.renderer.label_avoid = tuple((x - r, y - r, 2 * r, 2 * r) for _, (x, y) in dots)
        draw_resolution(surface, s, scene, before)
        if ringed:
            book = s.books[s.team]
            panels.draw_order_marks(surface, s.renderer, scene, book, lambda u: u.pos)
            if s.selected is not None:
                unit = scene.unit(s.selected)
                chosen = book.orders[s.selected].move
                if unit is not None and dots:
                    centre = s.renderer.world_to_screen(unit.pos, L.ARENA)
                    clip = surface.get_clip()
                    surface.set_clip(pygame.Rect(L.ARENA))  # never over the panels
                    # a dot on another unit is drawn as an outline only: the unit stays seen
                    covered = {
                        d
                        for d, p in dots
                        if s.renderer.unit_at(scene, p, L.ARENA) not in (None, s.selected)
                    }
                    panels.draw_ring(
                        surface, centre, dots, chosen, small, self.ring_inner(), covered
                    )
                    surface.set_clip(clip)
        self._top(surface)
        label = viewer_label(viewer, s.sight)
        status = s.session.llm_status()
        replies = llm_panel.reply_lines(status, s.viewer_key)
        side, replies_rect = llm_panel.side_rects(bool(replies))
        panels.draw_side(surface, side, scene, s.snap, s.session.config.horizon, self.fonts, label)
        if replies_rect is not None:
            llm_panel.draw_replies(surface, replies_rect, replies, small)
        self._bottom(surface)
        panels.draw_log(surface, L.LOG, s.logs.get(s.viewer_key, []), font, small)
        thinking = llm_panel.thinking_text(status)
        if thinking and s.phase != "over":
            llm_panel.draw_thinking(surface, thinking, font)
        if s.message and s.message_age < 4.0 and s.phase != "over":  # the card says it
            self._toast(surface, s.message)
        if s.phase == "over":
            self._over(surface)

    def _top(self, surface) -> int:
        """Tick, score, phase and, while it shows, the resolution banner on the top bar, all
        before its first button (`fit_top_bar`); returns the x where they end."""
        s = self.s
        font, small, big = self.fonts
        score = s.snap.state["score"]
        text = {
            "orders": f"Team {C.TEAM_NAMES[s.team] if s.team is not None else ''}: your orders"
            + (f" ({math.ceil(s.clock_left)} s)" if s.clock_left is not None else ""),
            "locked": "Locked in: waiting for the engine",
            "spectate": f"Spectating, {panels_speed(s)}" + ("  (paused)" if s.paused else ""),
            "over": "Game over",
        }.get(s.phase, "")
        parts = [
            (self.heading(), COLOURS["text"], 22),
            (f"A {int(score[0])}", TEAM_COLOURS[0], 6),
            (":", COLOURS["text"], 6),
            (f"{int(score[1])} B", TEAM_COLOURS[1], 22),
            (text, COLOURS["accent"], 6),
        ]
        if s.since < RESOLVE_S and s.snap.events is not None and s.phase != "over":
            parts.append((self._banner_text(), COLOURS["accent"], BANNER_SPACE))
        reserve = BANNER_SPACE + font.size(WIDEST_BANNER)[0] if s.phase != "over" else 0
        room = self._top_room()
        top_font, texts = fit_top_bar([p[::2] for p in parts], (big, font), 10, room, font, reserve)
        x = 10
        for i, (words, (_, colour, space)) in enumerate(zip(texts, parts, strict=True)):
            image = (font if i == BANNER else top_font).render(words, True, colour)
            if i == BANNER and words:
                box = image.get_rect(midleft=(x + BANNER_SPACE - 7, 20)).inflate(14, 8)
                pygame.draw.rect(surface, COLOURS["panel"], box)
                pygame.draw.rect(surface, COLOURS["accent"], box, 1)
                surface.blit(image, image.get_rect(center=box.center))
            else:
                surface.blit(image, (x, 20 - image.get_height() // 2))
            x += image.get_width() + space
        return x

    def _top_room(self) -> int:
        """The x where the top bar must end: before the leftmost button shown on it."""
        shown = [w.relative_rect.left for w in self.s.buttons.values() if w.visible]
        return min(shown, default=L.TOP[2]) - TOP_MARGIN

    def _banner_text(self) -> str:
        """ "Tick N resolved", with public score changes (the banner while it shows)."""
        events = self.s.snap.events
        parts = [f"Tick {self.s.snap.tick - 1} resolved"]
        parts += [f"+{d} {C.TEAM_NAMES[t]}" for t, d in enumerate(events["score_delta"]) if d]
        return "  ".join(parts)

    def ticks_played(self) -> int:
        """Ticks resolved in this game so far (the game starts at tick 0)."""
        return self.s.snap.tick if self.s.snap is not None else 0

    def heading(self) -> str:
        """The top bar's first words: the tick (panels.tick_heading)."""
        s = self.s
        return panels.tick_heading(s.snap.tick, s.session.config.horizon, s.snap.over)

    def _bottom(self, surface) -> None:
        s = self.s
        font, small, _ = self.fonts
        if s.phase in ("orders", "locked") and s.team is not None:
            repeat = "on" if s.repeat else "off"
            title = (
                "Your orders: click a ring dot to move, a ringed unit to target; U Ultimate; "
                f"Space ends the turn.  Orders repeat: {repeat} (O)"
                if s.phase == "orders"
                else "Locked in"
            )
            panels.draw_orders(
                surface, L.ORDERS, s.books[s.team], s.snap, s.selected, font, small, title
            )
            return
        inner = panels.panel(surface, L.ORDERS, "Slots", small)
        specs = s.session.lineup.specs
        lines = [
            f"Team {C.TEAM_NAMES[t]}: "
            + ", ".join(f"{C.slot_label(s)} {specs[s]}" for s in C.TEAM_SLOTS[t] if specs[s])
            for t in range(C.NUM_TEAMS)
        ]
        panels.draw_lines(surface, inner, lines, small)

    def _toast(self, surface, message: str) -> None:
        text = self.fonts[0].render(message, True, COLOURS["text"])
        box = text.get_rect(midbottom=(L.ARENA[0] + L.ARENA[2] // 2, L.ARENA[1] + L.ARENA[3] - 14))
        box = box.inflate(16, 8)
        veil = pygame.Surface(box.size, pygame.SRCALPHA)
        veil.fill((10, 12, 16, 210))
        surface.blit(veil, box)
        surface.blit(text, text.get_rect(center=box.center))

    def _over(self, surface) -> None:
        s = self.s
        events = s.snap.events
        a, b = (int(v) for v in s.snap.state["score"])
        why = ""
        if events is not None:
            why = f" ({end_reason(events)})"  # the log's words for it
        inner = pygame.Rect(L.OVER_CARD).inflate(-32, -28).width - 8  # panels.draw_card
        saved = replay_lines(s.replay_path, self.fonts[0], inner)
        lines = [end_score_line(a, b, s.snap.tick, why), *saved]
        lines += wrap(view_note(s.viewers[s.viewer_key], s.sight), self.fonts[0], inner, indent="")
        lines.append("R opens it in the Replay Viewer, V exports a video; L or Enter: the lobby.")
        if s.card_note:  # B's answer (PlayInput._key_over)
            lines += wrap(s.card_note, self.fonts[0], inner, indent="")
        if s.video.line:  # "Saved the video PATH": as long as the replay's path
            lines += path_lines(s.video.line, self.fonts[0], inner)
        rect = pygame.Rect(L.OVER_CARD)
        title = f"Game over: {C.OUTCOME_NAMES[s.snap.outcome]}"
        panels.draw_card(surface, rect, title, lines, (self.fonts[0], self.fonts[2]), shade=False)

    def sync_card_buttons(self) -> None:
        """Menu and game-over buttons exist only while their card is up."""
        s = self.s
        wanted = (
            self.menu_buttons if s.show_menu else (self.over_buttons if s.phase == "over" else {})
        )
        wanted = {} if s.form is not None else wanted  # the form has its own buttons
        if s.snap is None:  # still setting up: there is no position on screen to save yet
            wanted = {n: b for n, b in wanted.items() if n != "position"}
        for name in list(s.card_buttons):
            if name not in wanted:
                s.card_buttons.pop(name).kill()
        for name, (text, rect) in wanted.items():
            if name not in s.card_buttons:
                s.card_buttons[name] = UIButton(pygame.Rect(rect), text, s.manager)


def menu_line(tick: int, saved: bool) -> str:
    """What leaving does to the replay: nothing is written before the first tick resolved
    (GameSession.save), the game so far after it (PlayScreen.leave), once."""
    if saved:
        return "The replay of this game is saved."
    if tick == 0:
        return "No tick has been played yet: leaving now saves no replay."
    return f"The game so far ({counted(tick, 'tick')}) is saved as a replay when you leave."


def view_note(viewer, sight: str = "agent") -> str:
    """The end card's words on what the board, panels and log show: the game's own view
    (`sight`, game_setup.VIEWS) to the end (a POV game reveals nothing at game over; the
    replay shows the whole game)."""
    if viewer == ORACLE:
        return "Shown in the Oracle view: every unit, every event."
    return f"Shown as in play, {viewer_label(viewer, sight)}; the replay shows the whole game."


def end_score_line(a: int, b: int, ticks: int, why: str) -> str:
    """The end card's score line; names the last tick (ticks - 1) as the log numbers it."""
    return (
        f"Final score A {a} : {b} B after {counted(ticks, 'tick')} (last: tick {ticks - 1}){why}."
    )


def replay_lines(path, font, width: int) -> list[str]:
    """The end card's "Replay: PATH" text as lines of at most `width` pixels, the path whole
    (so it can be read and typed): "~" for the home folder, broken after a "/" where it must
    be, inside a folder or file name only when that alone is wider than a line."""
    if path is None:
        return ["Writing the replay..."]
    return path_lines(f"Replay: {short_path(path)}", font, width)


def path_lines(text: str, font, width: int) -> list[str]:
    """`text` ending in a path as lines of at most `width` pixels, broken after a space or a
    "/" where it must be, inside a word, folder or file name only when that alone is wider
    than a line (the words before the path wrap as words: "Opening", not "Openin" "g")."""
    lines = [""]
    for piece in re.findall(r"[^/ ]*[/ ]|[^/ ]+$", text):
        for char_run in _fit_piece(piece, font, width):
            if lines[-1] and font.size(lines[-1] + char_run)[0] > width:
                lines.append("")
            lines[-1] += char_run
    return lines


def _fit_piece(piece: str, font, width: int) -> list[str]:
    """`piece`, cut into runs of characters each at most `width` pixels wide."""
    runs = [""]
    for char in piece:
        if runs[-1] and font.size(runs[-1] + char)[0] > width:
            runs.append("")
        runs[-1] += char
    return runs


def panels_speed(screen) -> str:
    return f"{SPEEDS[screen.speed_index]} ticks/s"


TOP_MARGIN = 8  # pixels between the top bar's last words and its first button
PHASE, BANNER = 4, 5  # the top bar's parts: tick note, "A n", ":", "n B", phase, banner
BANNER_SPACE = 21  # the banner's box and lead beyond its text (pixels)
WIDEST_BANNER = "Tick 999 resolved  +10 A  +10 B"  # five 2-point deaths a side (RULES 4, A4)
CUT_ORDER = (BANNER, PHASE, 0)  # what loses words first (the banner is in the log too)


def fit_top_bar(parts, fonts, left: int, right: int, banner_font=None, reserve: int = 0) -> tuple:
    """(font, texts) for the top bar's `parts` ((text, pixels it takes beyond its text: the gap
    after it or the banner's box), ...) to fit from x `left` to `right`. The font is the first
    of `fonts` (largest first) in which the parts before the banner fit with `reserve` pixels to
    spare (room for the widest banner), so it does not change as the banner comes and goes; the
    banner (part BANNER, in `banner_font`, default that font) and then the others are cut in
    CUT_ORDER ("...": ui.panels.cut_end; "" when not even that fits) until all fit. The score
    (parts 1-3) is never cut."""
    texts = [text for text, _ in parts]

    def width(font, words):
        sizes = [
            (banner_font or font if i == BANNER else font).size(w)[0] + parts[i][1]
            for i, w in enumerate(words)
            if w or i != BANNER  # a banner cut away takes no room
        ]
        return sum(sizes)

    steady = texts[:BANNER]
    font = next((f for f in fonts if left + width(f, steady) + reserve <= right), fonts[-1])
    for i in (i for i in CUT_ORDER if i < len(texts)):
        if left + width(font, texts) <= right:
            break
        shown = banner_font or font if i == BANNER else font
        room = right - left - width(font, texts[:i] + [""] + texts[i + 1 :])
        room -= parts[i][1] if i == BANNER else 0
        texts[i] = cut_end(texts[i], shown, room) if room >= shown.size(ELLIPSIS)[0] else ""
    return font, texts
