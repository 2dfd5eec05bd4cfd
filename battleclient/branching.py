"""Playing on from a tick of a replay: `battleclient --from-replay FILE --tick N [--slots ...]`.

The new game's setup comes from the parent replay's header (map, roster, rules, spawn end,
seed; by default its Systems, else the --slots given), and its first state is the parent's
state at tick N, rebuilt by re-simulation (evaluation.replay_states.state_at_tick) on the
engine thread. Machine Systems draw the keys the parent's did at each tick (the same seed,
evaluation.match.system_keys), so the same slots replay the same game; their recurrent carries
start afresh. The new replay's header "parent" names the parent file, its SHA-256 and the tick.
"""

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from battleclient.game_setup import SPAWN_ENDS, ClientSetup, roster_text, slots_text
from evaluation.replay import Replay, read_replay
from ui.rules import C


@dataclass(frozen=True)
class Branch:
    """Where a branched game starts: `replay` (the parent, read and checked) at tick `tick`
    (a states["tick"] number); `parent` is the new replay's header "parent" entry."""

    replay: Replay
    tick: int
    parent: dict

    def checked_state(self, obstacles, roster, spawn_end: int, map_id: int):
        """The parent's engine State at `tick` (re-simulated; imports JAX), checked against
        the layout the new game loaded: obstacle table (32, 8) float32, roster (10,) int32,
        spawn end 0/1 and map id. Raises ValueError naming the field that differs (a map file
        changed since the parent was recorded) or what state_at_tick raises."""
        from evaluation.replay_states import state_at_tick

        state = state_at_tick(self.replay, self.tick)
        wanted = {
            "obstacles": np.asarray(obstacles, np.float32),
            "class_id": np.asarray(roster, np.int32),
            "spawn_end": np.int32(spawn_end),
            "map_id": np.int32(map_id),
        }
        for name, value in wanted.items():
            if not np.array_equal(np.asarray(getattr(state, name)), value):
                raise ValueError(
                    f"{self.parent['replay']}: states.{name} differs from the map and roster "
                    "this game loaded (was the map file changed since?)"
                )
        return state


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def branch_setup(replay: Replay, slots: str | None = None) -> ClientSetup:
    """The ClientSetup that plays on from `replay`: its map id, roster, information regime,
    spawn end, seed (seeds "game"), score threshold and horizon; `slots` (a slot-spec string)
    or else the replay's own Systems. Raises ValueError naming the setup field at fault."""
    header = replay.header
    return ClientSetup(
        map=str(int(header["map"]["id"])),
        roster=roster_text(header["roster"]),
        slots=slots or slots_text(header["systems"]),
        info_regime=header["info_regime"],
        spawn_end=SPAWN_ENDS[int(header["spawn_end"])],
        seed=int(header["seeds"]["game"]),  # present: replay_schema.check_header requires it
        score_threshold=int(header["score_threshold"]),
        horizon=int(header["horizon"]),
    )


def load_branch(path, tick: int, slots: str | None = None) -> tuple[ClientSetup, Branch]:
    """(setup, Branch) for `--from-replay path --tick tick [--slots slots]`; reads the file
    only (no JAX). Raises FileNotFoundError, ReplayError (a ValueError naming the file and
    field) and ValueError for a replay of other rules than this engine's (its tick state could
    not be re-simulated: evaluation.replay_verify.rules_problem), a tick outside the replay or
    a game that is over by then."""
    from evaluation.replay_verify import rules_problem

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"--from-replay {path}: no such file")
    replay = read_replay(path)
    problem = rules_problem(replay.header)
    if problem:  # said now, not once the window is open and the engine thread re-simulates
        raise ValueError(f"--from-replay {path}: {problem}")
    ticks = np.asarray(replay.states["tick"])
    first, last = int(ticks[0]), int(ticks[-1])
    if not first <= tick <= last:
        raise ValueError(f"--tick {tick}: {path} holds ticks {first}-{last}")
    if tick == last and int(np.asarray(replay.states["outcome"][-1])) != C.ONGOING:
        raise ValueError(f"--tick {tick}: the game in {path} is over at that tick; choose less")
    parent = {"replay": str(path.resolve()), "sha256": file_sha256(path), "tick": int(tick)}
    setup = branch_setup(replay, slots)
    return setup, Branch(replay=replay, tick=int(tick), parent=parent)
