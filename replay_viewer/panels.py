"""Text panels of the viewer: wrapped lines, the info bar, the event log and the help card."""

from collections import Counter
from functools import partial
from pathlib import PurePath

import pygame

from evaluation.replay_verify import other_rules, rules_number
from replay_viewer import layout as L
from replay_viewer.llm_lines import study_lines
from replay_viewer.shortcuts import HELP
from ui.explain import counted
from ui.panels import cut_end, elide_middle
from ui.panels import draw_lines as shared_draw_lines
from ui.rules import C, hp_text, unit_name
from ui.theme import COLOURS

# The viewer indents wrapped continuation lines by two spaces (the BattleClient by three).
draw_lines = partial(shared_draw_lines, indent="  ")


def short_spec(spec: str) -> str:
    """A System spec as the header shows it: `checkpoint:PATH[#greedy]` keeps only the file
    name of PATH (policies/slotspec.py spec forms); other specs are unchanged."""
    kind, _, arg = spec.partition(":")
    if kind != "checkpoint" or not arg:
        return spec
    path, mark, flag = arg.partition("#")
    return f"checkpoint:{PurePath(path).name}{mark}{flag}"


def team_systems(specs) -> str:
    """One team's Systems: the one name if all slots share it, else each distinct name in slot
    order with its slot count ("human / 4x checkpoint:p.msgpack"); "-" for an empty team."""
    names = [short_spec(s) for s in specs if s]
    if not names:
        return "-"
    counts = Counter(names)
    if len(counts) == 1:
        return names[0]
    return " / ".join(name if n == 1 else f"{n}x {name}" for name, n in counts.items())


def systems_text(systems, font=None, width: int | None = None) -> str:
    """ "A: ...   B: ..." for the 10 slot specs; with `font` and `width` (pixels) each team's part
    is shortened in its middle to half the room, so Team B is never pushed out of sight."""
    a, b = team_systems(systems[:5]), team_systems(systems[5:])
    text = f"A: {a}   B: {b}"
    if font is None or width is None or font.size(text)[0] <= width:
        return text
    half = (width - font.size("A:    B: ")[0]) // 2
    return f"A: {elide_middle(a, font, half)}   B: {elide_middle(b, font, half)}"


def result_words(result: dict) -> str:
    """A header-shaped result {outcome_name, score, ticks} in words: "A wins 20-16 in 241 ticks"."""
    score = f"{result['score'][0]}-{result['score'][1]}"
    return f"{result['outcome_name']} {score} in {counted(result['ticks'], 'tick')}"


def rules_mark(header: dict) -> str | None:
    """The info bar's standing note on a replay of other rules than this engine's, naming both
    versions: it is shown as recorded, and Play on and Save as scenario (which re-simulate)
    refuse it (RULES.md 8); None for a replay of this engine's rules. Versions by number only
    (`rules_number`), so that the bar keeps room for the Systems; the opening message names a
    legacy version as it was written."""
    pair = other_rules(header)
    if pair is None:
        return None
    recorded, ours = (rules_number(v) for v in pair)
    return (
        f"other rules: recorded under rules version {recorded}, this engine runs rules version "
        f"{ours} (shown as recorded)"
    )


def info_lines(model, font=None, width: int | None = None) -> list[str]:
    """The lines over the arena: file, map, tick, score, view; then in the Oracle view the
    result and regime, and the Systems of both teams on a line of their own, fitted to `width`
    pixels of `font` when given (checkpoints by file name, long names shortened in the middle).
    A replay of other rules ends them with `rules_mark`, on its own line when fewer than three
    are shown, else after the last one (shortened so that the mark shows whole)."""
    mark = rules_mark(model.replay.header)
    fit = font is not None and width is not None
    room = width - font.size(f"   {mark}")[0] if fit and mark else width
    lines = _info_lines(model, font, width, room)
    if not mark:
        return lines
    if len(lines) < 3:
        return [*lines, mark]
    return [*lines[:-1], f"{lines[-1]}   {mark}"]


def _info_lines(model, font, width, room) -> list[str]:
    """info_lines without the rules mark; the last of three lines fits `room` pixels."""
    h, t = model.replay.header, model.tick
    s = model.state(t)
    over = int(s["outcome"]) != C.ONGOING
    rest = (
        f"   map {h['map']['id']} {h['map']['name']} ({h['map']['split']})   "
        f"{tick_heading(t, model.ticks, over, model.first_tick)}   "
        f"score A {int(s['score'][0])} : B {int(s['score'][1])}   "
        f"view: {model.view_name()}"
    )
    name = model.name
    fit = font is not None and width is not None
    if fit:  # a long file name must not wrap the line
        name = elide_middle(name, font, max(0, width - font.size(rest)[0]))
    first = name + rest
    if h.get("scenario"):  # the three lines go to the scenario: what a playtester reads
        lines = [first, *scenario_lines(h["scenario"], t, model.view == "oracle", over)]
    elif model.view != "oracle":
        return [first, "point of view: only what this view knew at this tick is shown"]
    else:
        said = (
            "result (the game's; its header says otherwise)" if model.header_problems else "result"
        )
        second = f"{said}: {result_words(model.result)}   {h['info_regime']}"
        if not h.get("study"):
            return [first, second, systems_text(h["systems"], font, room)]
        head, answers = study_lines(h["study"])  # three lines: the study's record shares them
        lines = [first, f"{second}   {head}", f"{answers}   {systems_text(h['systems'])}"]
    if fit:  # the brief or the study's answers end in "..." rather than at the edge
        lines = [cut_end(line, font, width) for line in lines[:-1]] + [
            cut_end(lines[-1], font, room)
        ]
    return lines


def tick_heading(t: int, last: int, over: bool, first: int = 0) -> str:
    """The info bar's tick, numbered as the BattleClient numbers the same moment (RULES 0:
    tick t leads from state t to t+1): "tick t/T" for state t, and the final state of a
    finished game names the tick that ended it, "after tick T-1 (end)", so it never reads as
    state T-1 does. t and last are replay indices; first is the game tick of index 0 (a
    scenario replay's start tick)."""
    if over and t == last and t > 0:
        return f"after tick {first + t - 1} (end)"
    return f"tick {first + t}/{first + last}"


def scenario_lines(info: dict | None, tick: int, oracle: bool, over: bool = False) -> list[str]:
    """A scenario replay's lines (header "scenario", evaluation/scenario_lines.py): its title,
    skill and the ticks left at replay tick `tick` (or, at the final state of a finished
    game, how many of the horizon's ticks it took), then its brief; whether the success rule
    was met only in the Oracle view, since an agent's view at this tick cannot know it."""
    if not info:
        return []
    horizon = int(info["horizon"])
    left = max(horizon - tick, 0)
    clock = (
        f"game over after {tick} of {counted(horizon, 'tick')}"
        if over
        else f"{counted(left, 'tick')} left"
    )
    head = f"scenario {info['id']} {info['title']} ({info['skill']}): {clock}"
    if oracle:
        met = "met" if info["solved"] else "not met"
        head += f"   focal team {info['focal_team']} wins within the horizon: {met}"
    return [head, info["brief"]]


def log_history(model, depth: int = 4) -> list:
    """The current transition's sentences, then the previous few (dimmed)."""
    out = []
    t0 = model.tick
    for k in range(depth):
        t = t0 - k
        if t < 0 or (k > 0 and t < 1):
            break
        lines = model.log_lines(t)
        colour = COLOURS["text"] if k == 0 else COLOURS["muted"]
        g = model.game_tick(t)
        title = f"Tick {g - 1} (state {g - 1} -> {g})" if t > 0 else f"State {g}"
        out.append((title, COLOURS["accent"] if k == 0 else COLOURS["muted"]))
        out += [(line, colour) for line in lines]
    return out


def draw_help(surface, rect, font, title_font) -> None:
    """The keyboard help card, centred in `rect`."""
    rect = pygame.Rect(rect)
    card = pygame.Rect(0, 0, min(680, rect.width - 40), min(40 + 22 * len(HELP), rect.height - 40))
    card.center = rect.center
    shade = pygame.Surface(rect.size, pygame.SRCALPHA)
    shade.fill((0, 0, 0, 150))
    surface.blit(shade, rect)
    surface.fill(COLOURS["panel"], card)
    pygame.draw.rect(surface, COLOURS["accent"], card, 2)
    surface.blit(
        title_font.render("Keyboard shortcuts", True, COLOURS["accent"]), (card.x + 14, card.y + 8)
    )
    y = card.y + 36
    for keys, _, description in HELP:
        surface.blit(font.render(keys, True, COLOURS["accent"]), (card.x + 14, y))
        surface.blit(font.render(description, True, COLOURS["text"]), (card.x + 230, y))
        y += 22


def tooltip_lines(unit) -> list[str]:
    """Hover text for a unit of the Scene (already limited to the view)."""
    name = unit_name(unit.slot, unit.class_id)
    lines = [name + (" (relayed, last tick)" if unit.relayed else "")]
    lines.append(
        f"health {hp_text(unit.health)}/{hp_text(unit.max_health)}"
        + ("" if unit.alive else ", dead")
    )
    statuses = [f"{C.STATUS_NAMES[c]} {v}" for c, v in enumerate(unit.status) if v > 0]
    if statuses:
        lines.append(", ".join(statuses))
    if unit.shield:
        lines.append(f"spawn shield {unit.shield}")
    return lines


def tooltip_box(pos, size, areas, bounds) -> pygame.Rect:
    """The screen box (pixels) of a tooltip of `size` (w, h) for the pointer at `pos`: right of
    and below the pointer, flipped to its left or above it where that would cross the edge, so
    the box never covers what is hovered when there is room; inside the first of `areas`
    (rects, most specific first) that holds `pos` and is big enough, else inside `bounds`
    (the window)."""
    w, h = size
    x, y = pos
    holders = [pygame.Rect(a) for a in areas if pygame.Rect(a).collidepoint(pos)]
    area = next((a for a in holders if a.width >= w and a.height >= h), pygame.Rect(bounds))
    left = x + 14 if x + 14 + w <= area.right else x - 14 - w
    top = y + 10 if y + 10 + h <= area.bottom else y - 10 - h
    return pygame.Rect(left, top, w, h).clamp(area)


def draw_tooltip(surface, pos, lines, font) -> None:
    """`lines` in a box beside the pointer at `pos`, kept in the window and off the panels it
    is not about (tooltip_box, layout.TOOLTIP_AREAS)."""
    width = max(font.size(line)[0] for line in lines) + 10
    height = font.get_linesize() * len(lines) + 6
    box = tooltip_box(pos, (width, height), L.TOOLTIP_AREAS, surface.get_rect())
    surface.fill((12, 12, 16), box)
    pygame.draw.rect(surface, COLOURS["panel_line"], box, 1)
    draw_lines(surface, box.inflate(-2, -6), lines, font)
