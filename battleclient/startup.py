"""How the BattleClient process starts, apart from its window's logic (battleclient.app).

The interpreter re-started once with a fixed hash seed (the compile cache's key), the lobby's
remembered setup for a game that opens the lobby, and --screenshot mode's wait for the frame
to save.
"""

import os
import sys

from battleclient.map_catalog import read_catalog, settle_map
from battleclient.settings import load_last_setup


def fixed_hash_seed() -> None:
    """Re-start the interpreter once with PYTHONHASHSEED=0 (console-script runs only).

    JAX's persistent compile-cache key includes compile options whose serialisation follows
    Python's randomised string hashing, so without a fixed seed every start misses the cache
    and compiles the engine again (a minute on a small machine); with it, a second start loads
    the compiled code in seconds. MBG_KEEP_HASH_SEED=1 turns this off.
    """
    if "PYTHONHASHSEED" in os.environ or os.environ.get("MBG_KEEP_HASH_SEED"):
        return
    os.environ["PYTHONHASHSEED"] = "0"
    try:
        os.execv(sys.executable, [sys.executable, "-m", "battleclient.app", *sys.argv[1:]])
    except OSError:
        pass  # keep going in this process, without the compile cache across runs


def remembered_setup(args) -> tuple:
    """(the lobby's last setup or None, a note to show): the last setup fills in only a game
    that opens the lobby; one started at once from the command line (--slots without --lobby,
    --headless, --screenshot) plays the defaults --help gives, plus its own options."""
    if args.headless or args.screenshot or (args.slots and not args.lobby):
        return None, ""
    last, note = load_last_setup()
    if last is not None:  # a remembered map whose file is gone: the default map, said once
        last, map_note = settle_map(last, read_catalog())
        note = f"{note} {map_note}".strip()
    return last, note


def screenshot_ready(app, after_ticks: int) -> bool:
    """Screenshot mode: lock in idle orders for humans until the tick is reached; True when the
    frame to save is on screen (the resolution of the last tick still showing)."""
    from battleclient.play_draw import TWEEN_S

    screen = app.screen
    snap = screen.snap
    if snap is None or screen.waiting:
        return False
    if screen.phase == "spectate":
        screen.speed_index = 5
    if snap.tick < after_ticks and not snap.over:
        if screen.phase == "handover":
            screen.take_over()
        if screen.phase == "orders":
            screen.end_turn()
        return False
    if screen.phase == "handover":
        screen.take_over()
    screen.since = TWEEN_S
    return screen.phase in ("orders", "spectate", "over") and (not snap.over or screen.replay_path)
