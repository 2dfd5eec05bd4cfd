"""The lobby's presets: a game against the released checkpoint, a whole team of one class, and
the last five setups started (battleclient.settings.load_recent_setups).

A preset is a function of the setup the lobby shows (it keeps what it does not decide: map,
rules, seed), so choosing one and then changing a field works as a player expects.
"""

import re
from pathlib import Path

from battleclient.game_setup import ClientSetup
from ui.rules import C

# policies/released/README.md: the checkpoint the README's results were made with
RELEASED_CHECKPOINT = Path(__file__).resolve().parents[1] / "policies/released/ippo_v1.msgpack"
MIXED_TEAM = "MWHRP"  # one of each class (RULES 2.2)
BESIDE_BOTS = "A0=human,A1-A4=scripted:tactician"
PLACEHOLDER = "Presets..."
LETTER_OF = dict(enumerate(C.CLASS_LETTERS, start=1))  # class id -> roster letter


def released_preset(setup: ClientSetup) -> ClientSetup:
    """You (A0) beside four tactician bots against a team of the released checkpoint."""
    slots = f"{BESIDE_BOTS},B*=checkpoint:{RELEASED_CHECKPOINT}"
    return setup.replace(roster=f"{MIXED_TEAM}/{MIXED_TEAM}", slots=slots)


def whole_team_preset(class_id: int):
    """A preset giving Team A five agents of one class (engine.constants class id) against a
    mixed Team B; the controllers stay as they are."""
    letter = LETTER_OF[class_id]

    def apply(setup: ClientSetup) -> ClientSetup:
        return setup.replace(roster=f"{letter * C.TEAM_SIZE}/{MIXED_TEAM}")

    return apply


def describe(setup: ClientSetup, number: int = 1) -> str:
    """Recent setup `number` (1 = newest) in one menu line: seed, map, roster and controllers
    (a scripted bot by its name, a checkpoint by its file's stem: the whole spec is in the setup
    itself), then every rule that is not the default (`_rules`), so that two setups told apart
    only by, say, their max ticks do not read the same."""
    where = Path(setup.map).name if "/" in setup.map else setup.map
    slots = re.sub(r"checkpoint:[^,]*?([^/,]+?)(\.msgpack)?(?=,|$)", r"checkpoint:\1", setup.slots)
    slots = slots.replace("scripted:", "")
    line = f"Last {number}: seed {setup.seed}, map {where}, {setup.roster}, {slots}"
    return ", ".join([line, *_rules(setup)])


def _rules(setup: ClientSetup) -> list[str]:
    """The setup's rules that differ from ClientSetup's defaults, in the lobby's words."""
    default, out = ClientSetup(), []
    if setup.info_regime != default.info_regime:
        out.append(setup.info_regime)
    if setup.spawn_end != default.spawn_end:
        out.append(f"Team A {setup.spawn_end}")
    if setup.score_threshold != default.score_threshold:
        out.append(f"{setup.score_threshold} to win")
    if setup.horizon != default.horizon:
        out.append(f"max {setup.horizon} ticks")
    if setup.turn_clock != default.turn_clock:
        out.append(f"clock {setup.turn_clock} s")
    if setup.view != default.view:
        out.append(f"{setup.view} view")
    return out


def preset_menu(recent: list[ClientSetup], fit=None) -> dict:
    """Menu text -> function(setup shown) -> the preset's setup, in menu order: the released
    checkpoint, a whole team of each class, then the recent setups (newest first, numbered, so
    they stay told apart when `fit`, a function str -> str that shortens a line to the menu's
    width such as `ui.panels.elide_middle`, cuts their ends)."""
    fit = fit or (lambda text: text)
    menu = {"Against the released checkpoint (you: A0)": released_preset}
    for class_id in sorted(LETTER_OF):
        menu[f"A whole team of {C.CLASS_NAMES[class_id]}s (Team A)"] = whole_team_preset(class_id)
    for number, setup in enumerate(recent, start=1):
        menu[fit(describe(setup, number))] = lambda _shown, kept=setup: kept
    return menu
