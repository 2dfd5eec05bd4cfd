"""LLM slots on the play screen: the "thinking" strip with its cancel key, and the replies panel.

Reads `GameSession.llm_status()` (plain Python, thread-safe), never JAX. Fair views: a human
sees the replies of its own team's LLM agents only; spectating (the Oracle view) shows all.
"""

import pygame

from battleclient import layout as L
from battleclient import panels
from ui.panels import draw_lines
from ui.rules import C, slot_label
from ui.theme import COLOURS

CANCEL_KEY = pygame.K_k
REPLIES_H = 170  # pixels taken from the bottom of the side panel when replies are shown


def thinking_text(status: dict) -> str:
    """ "LLM thinking: A1, A2 (3.1 s). K cancels" or "" when no LLM slot is waiting."""
    waiting = status.get("thinking") or {}
    if not waiting:
        return ""
    names = ", ".join(slot_label(s) for s in sorted(waiting))
    return f"LLM thinking: {names} ({max(waiting.values()):.1f} s). K cancels (no-op this tick)"


def failure_for(status: dict, team: int | None) -> str:
    """The last endpoint failure of `team`'s own LLM Systems, any team's when None (Oracle
    view): an opponent's failing endpoint is not the human's to know."""
    error = status.get("error") if team is None else (status.get("errors") or {}).get(team)
    return error or ""


def reply_lines(status: dict, team: int | None) -> list[tuple[str, tuple]]:
    """One line per LLM agent of `team` (None: every team) with its latest reply and outcome,
    then the last endpoint failure of `team`'s own LLM Systems (any team's when None): an
    opponent's failing endpoint is not the human's to know."""
    lines = []
    for slot, (tick, text, outcome) in sorted((status.get("replies") or {}).items()):
        if team is not None and slot // C.TEAM_SIZE != team:
            continue
        shown = " ".join(text.split())[:90] or "(no reply)"
        tint = COLOURS["text"] if outcome == "legal" else COLOURS["muted"]
        lines.append((f"{slot_label(slot)} t{tick}: {shown}", tint))
        if outcome != "legal":
            lines.append((f"   no-op: {outcome[:100]}", COLOURS["muted"]))
    error = failure_for(status, team)
    if error and lines and not any(error[:100] in text for text, _ in lines):
        lines.append((f"Last endpoint failure: {error[:110]}", COLOURS["accent"]))
    return lines


def side_rects(has_replies: bool) -> tuple[tuple, tuple | None]:
    """(unit cards rect, replies rect or None): the replies take the side panel's bottom."""
    if not has_replies:
        return L.SIDE, None
    x, y, w, h = L.SIDE
    return (x, y, w, h - REPLIES_H - 4), (x, y + h - REPLIES_H, w, REPLIES_H)


def draw_replies(surface, rect, lines, small) -> None:
    """The "LLM replies" panel."""
    inner = panels.panel(surface, rect, "LLM replies", small)
    draw_lines(surface, inner, lines, small)


def draw_thinking(surface, text: str, font) -> None:
    """The thinking strip at the top of the arena."""
    image = font.render(text, True, COLOURS["accent"])
    box = image.get_rect(topleft=(L.ARENA[0] + 10, L.ARENA[1] + 8)).inflate(14, 8)
    veil = pygame.Surface(box.size, pygame.SRCALPHA)
    veil.fill((10, 12, 16, 220))
    surface.blit(veil, box)
    pygame.draw.rect(surface, COLOURS["accent"], box, 1)
    surface.blit(image, image.get_rect(center=box.center))
