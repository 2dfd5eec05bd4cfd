"""`battleclient --headless`: play a game of machine slots to the end without a window."""

import sys
import time

from battleclient.controllers import configure_jax
from battleclient.game_setup import ClientSetup
from battleclient.map_catalog import maps_by_split, read_catalog
from battleclient.settings import new_replay_path, replay_dir
from ui.explain import counted
from ui.rules import C


def human_slots(slots: str, where: str | None = None) -> list[int]:
    """The global slots a slot spec gives to `human` (policies.slotspec grammar), read from the
    text alone (no System is built). Raises ValueError for a spec that does not parse, its
    message starting with `where` (parse_slots' default: "slot spec '...'")."""
    from policies.slotspec import is_human, parse_slots

    return [slot for slot, spec in enumerate(parse_slots(slots, where)) if is_human(spec)]


def run_headless(setup: ClientSetup, replay_out=None, out=None, slots_option=None) -> int:
    """Play `setup` to the end, save the replay, print one result line and the replay path to
    `out` (default: sys.stdout at the time of the call, not of the import). slots_option: the
    option the setup's slots came from ("--slots"), named with a spec that does not parse.

    Returns 0, or 2 when the setup cannot be played (a human slot, a bad spec or map, a
    System that cannot be built), with the reason on stderr.
    """
    out = out or sys.stdout
    started = time.perf_counter()
    configure_jax()  # before the first import of JAX (JAX_PLATFORMS, the compile cache)
    try:  # the slots first: a human slot is refused before seconds of building the game
        where = f"{slots_option} {setup.slots}" if slots_option else None
        humans = human_slots(setup.slots, where)
    except ValueError as error:  # the message names the option, or the spec without one
        print(f"battleclient: {error}", file=sys.stderr)
        return 2
    if humans:
        names = ", ".join(C.slot_label(s) for s in humans)
        print(
            f"battleclient: --headless plays machine slots only; {names} is human "
            '(give every slot a machine spec, e.g. --slots "A*=scripted:kiter,B*=random")',
            file=sys.stderr,
        )
        return 2
    from battleclient.session import GameSession

    try:
        game = GameSession(setup, maps_by_split(read_catalog()))
    except Exception as error:
        print(f"battleclient: cannot start the game: {error}", file=sys.stderr)
        return 2
    while not game.snapshot.over:
        snap = game.resolve({})
        for note in snap.notes:
            print(f"tick {snap.tick}: {note}", file=sys.stderr)
    path = game.save(replay_out or new_replay_path(replay_dir(), game.map_id, setup.seed))
    state = game.snapshot.state
    print(
        f"{C.OUTCOME_NAMES[game.snapshot.outcome]}: A {int(state['score'][0])} - "
        f"B {int(state['score'][1])} after {counted(game.snapshot.tick, 'tick')} "
        f"on map {game.map_id} "
        f"({time.perf_counter() - started:.1f} s)",
        file=out,
    )
    print(f"replay: {path}", file=out)
    return 0
