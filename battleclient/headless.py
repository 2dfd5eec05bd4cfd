"""`battleclient --headless`: play a game of machine slots to the end without a window."""

import sys
import time

from battleclient.controllers import configure_jax
from battleclient.game_setup import ClientSetup
from battleclient.map_catalog import maps_by_split, read_catalog
from battleclient.settings import new_replay_path, replay_dir
from ui.rules import C


def run_headless(setup: ClientSetup, replay_out=None, out=None) -> int:
    """Play `setup` to the end, save the replay, print one result line and the replay path to
    `out` (default: sys.stdout at the time of the call, not of the import).

    Returns 0, or 2 when the setup cannot be played (a human slot, a bad spec or map, a
    System that cannot be built), with the reason on stderr.
    """
    out = out or sys.stdout
    configure_jax()
    from battleclient.session import GameSession

    started = time.perf_counter()
    try:
        game = GameSession(setup, maps_by_split(read_catalog()))
    except Exception as error:
        print(f"battleclient: cannot start the game: {error}", file=sys.stderr)
        return 2
    if game.human_slots:
        names = ", ".join(C.slot_label(s) for s in game.human_slots)
        print(
            f"battleclient: --headless plays machine slots only; {names} is human "
            '(give every slot a machine spec, e.g. --slots "A*=scripted:kiter,B*=random")',
            file=sys.stderr,
        )
        return 2
    while not game.snapshot.over:
        snap = game.resolve({})
        for note in snap.notes:
            print(f"tick {snap.tick}: {note}", file=sys.stderr)
    path = game.save(replay_out or new_replay_path(replay_dir(), game.map_id, setup.seed))
    state = game.snapshot.state
    print(
        f"{C.OUTCOME_NAMES[game.snapshot.outcome]}: A {int(state['score'][0])} - "
        f"B {int(state['score'][1])} after {game.snapshot.tick} ticks on map {game.map_id} "
        f"({time.perf_counter() - started:.1f} s)",
        file=out,
    )
    print(f"replay: {path}", file=out)
    return 0
