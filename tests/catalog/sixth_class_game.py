"""A game with a sixth class that no shipped file knows: run by test_sixth_class.py.

    python tests/catalog/sixth_class_game.py OUT_DIR

The Knight is one catalogue entry (`KNIGHT` below, a `ClassSpec` of engine/constants.py). The
engine's abilities are data (relation, reach, damage, heal, status channels; RULES 2.2), so
an ordinary Basic and an Ultimate that damages and stuns need no ability function of their
own; only movement (the Warrior's Charge) and the Mage's self-buff have code, keyed by their
class ids. The observation's one-hot class columns (engine/types.py ROW_FEATURES) are sized
by the catalogue when engine/constants.py is imported, so the entry must be in place before
that: this script executes engine/constants.py's own source with the entry appended to
`CLASSES` and registers the result as `engine.constants`, before anything imports it. Nothing
else is patched. Prints one JSON line of facts for the test to check.
"""

import json
import os
import sys
import types
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("JAX_PLATFORMS", "cpu")
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

KNIGHT = """ClassSpec(
    "Knight", "K", 150.0, 0.9, 6.0,
    AbilitySpec(_BASIC, REL_ENEMY, 1.5, damage=10.0, verb="slashed"),
    AbilitySpec(
        "Shield Bash", REL_ENEMY, 2.0, damage=15.0, verb="shield-bashed",
        on_hit=("charge_stun",),
    ),
    summary="Shield Bash: 15 damage and a 1-tick stun",
)"""
ANCHOR = "CLASS_NAMES = tuple(c.name for c in CLASSES)"
ROSTER = "MWK/KRP"
TICKS = 40


def install_catalogue_with_knight() -> types.ModuleType:
    """engine.constants with KNIGHT appended to CLASSES (see the module docstring)."""
    import engine  # the package only: its JAX names load lazily

    assert "engine.constants" not in sys.modules, "engine.constants was imported too early"
    path = ROOT / "engine" / "constants.py"
    source = path.read_text(encoding="utf-8")
    assert source.count(ANCHOR) == 1, f"{path}: expected one line {ANCHOR!r}"
    source = source.replace(ANCHOR, f"CLASSES = CLASSES + ({KNIGHT},)\n{ANCHOR}")
    module = types.ModuleType("engine.constants")
    module.__file__ = str(path)
    sys.modules["engine.constants"] = module
    exec(compile(source, str(path), "exec"), module.__dict__)
    engine.constants = module
    return module


def play_and_record(out: Path) -> tuple[Path, dict]:
    """Engine + scripted bots + metrics + a replay file, re-simulated by `verify`."""
    import numpy as np

    from engine.types import Config
    from evaluation.match import schedule
    from evaluation.metrics import compute_metrics
    from evaluation.record import record_games
    from evaluation.replay import read_replay, write_replay
    from evaluation.replay_verify import verify
    from policies.slotspec import parse_slots, resolve_slots, team_spec

    setup = schedule(47, [ROSTER], games=1, seed=5)
    lineup = resolve_slots(
        parse_slots(team_spec("scripted:tactician", "scripted:kiter")), setup[0].roster
    )
    _, (replay,) = record_games(lineup, setup, Config(horizon=TICKS), metrics_level="full")
    replay.metrics = compute_metrics(replay, "full")
    path = write_replay(out / "knight.mbgr", replay)
    back = read_replay(path)
    states, events = back.states, back.events
    knights = [int(s) for s in np.flatnonzero(states["class_id"][0] == 6)]
    metrics = back.metrics
    knight_rows = metrics.filter(metrics["source"].is_in(knights)).height
    lanes = events["lane"][:, knights]
    return path, {
        "roster": back.header["roster"],
        "knights": knights,
        "knight_health_at_start": [float(states["health"][0][s]) for s in knights],
        "knight_actions": int((lanes > 0).sum()),
        "knight_metric_rows": knight_rows,
        "verify_problems": verify(back),
        "ticks": int(len(events["lane"])),
    }


def viewer_frame(path: Path, out: Path) -> dict:
    """A Replay Viewer frame of the recorded game, in the Oracle view."""
    import pygame

    from replay_viewer import layout as L
    from replay_viewer.app import App
    from replay_viewer.export import save_png

    pygame.display.init()
    pygame.font.init()
    pygame.display.set_mode(L.SIZE)
    app = App(L.SIZE)
    assert app.open_path(path), "the viewer refused the replay"
    model = app.model
    log = [line for t in range(1, model.ticks + 1) for line in model.log_lines(t)]
    model.timeline.seek(model.ticks // 2)
    surface = pygame.Surface(L.SIZE)
    app.draw(surface)
    save_png(surface, out / "viewer.png")
    knight_lines = [line for line in log if "Knight" in line]
    card = model.agent_lines(2)  # A2 is a Knight in ROSTER
    return {
        "viewer_png": str(out / "viewer.png"),
        "viewer_knight_lines": knight_lines[:3],
        "viewer_card": card,
    }


def client_frame(out: Path) -> dict:
    """A BattleClient frame of a live game with Knights (machine slots only)."""

    from battleclient.game_setup import ClientSetup
    from replay_viewer.export import save_png
    from tests.battleclient.driver import frame, make_app, wait_for

    setup = ClientSetup(map="47", roster=ROSTER, slots="A*=scripted:kiter,B*=random", horizon=6)
    app = make_app(setup)
    try:

        def played_a_while():
            snap = getattr(app.screen, "snap", None)
            return snap is not None and (snap.over or snap.tick >= 3)

        wait_for(app, played_a_while, seconds=900)
        surface = frame(app)
        save_png(surface, out / "client.png")
        classes = [int(c) for c in app.screen.snap.state["class_id"]]
    finally:
        app.close()
    return {"client_png": str(out / "client.png"), "client_classes": classes}


def main() -> None:
    out = Path(sys.argv[1])
    C = install_catalogue_with_knight()
    facts = {"class_names": list(C.CLASS_NAMES), "letters": C.CLASS_LETTERS}
    path, game = play_and_record(out)
    print(json.dumps(game), file=sys.stderr)  # what the engine side gave, should a frame fail
    facts |= game | viewer_frame(path, out) | client_frame(out)
    print(json.dumps(facts))


if __name__ == "__main__":
    main()
