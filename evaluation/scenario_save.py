"""Save a replay position as a scenario file (authoring, scenarios/README.md; issue #17 point 6).

`save_position(replay_path, tick, focal_team, horizon)` re-simulates the replay to `tick`
(`evaluation.replay_states.state_at_tick`), turns that State into a scenario document
(`evaluation.scenarios.document_for_state`), writes it as a new `NNN_<slug>.json` file in the
scenarios folder (`scenarios.SCENARIOS_DIR`, so `mbg scenarios list` shows it) and loads it back
with the same checks as a shipped scenario; a file that fails them is removed again and the
problems are raised. A scenario plays on a scenario arena (ids 900-999, split "scenario"): a
replay of a scenario keeps its arena; a game on a built-in map gets a copy of that map file
under a free arena id in `arenas/` beside the scenario, marked with the map it copies.

The Replay Viewer runs `python -m evaluation.scenario_save REPLAY --tick N --focal A
--horizon H` in a child process, so the viewer itself never imports JAX.
"""

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

from engine import constants as C
from engine import maps as map_files

HORIZON_DEFAULT = 10  # ticks; the paper's scenarios are won within 5-10 (seed 000, 5.1)


def slug(text: str) -> str:
    """`text` as a file-name part: lower case letters, digits and underscores, at most 40."""
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")[:40] or "position"


def free_scenario_id(*folders: Path) -> int:
    """The lowest scenario id (1 and up) that no NNN_*.json file in `folders` uses."""
    used = {int(p.name[:3]) for f in folders for p in Path(f).glob("[0-9][0-9][0-9]_*.json")}
    return next(i for i in range(1, len(used) + 2) if i not in used)


def free_arena_id(*folders: Path) -> int:
    """The lowest arena id (900-999) no NNN_*.json file of `folders` uses. Raises ValueError
    when all hundred are taken."""
    used = {int(p.name[:3]) for f in folders for p in f.glob("9[0-9][0-9]_*.json")}
    for arena_id in map_files.SCENARIO_IDS:
        if arena_id not in used:
            return arena_id
    raise ValueError(f"arenas: every id 900-999 is taken in {', '.join(map(str, folders))}")


def _replay_map(replay):
    """The MapSpec the replay was played on, checked against its recorded layout. Raises
    ValueError for a map that is not built in (or whose file no longer matches the replay)."""
    from evaluation.replay_verify import built_in_map

    map_id = int(np.asarray(replay.states["map_id"][0]))
    try:
        spec = built_in_map(map_id)
    except (ValueError, OSError) as error:
        raise ValueError(f"replay: map {map_id} is not a built-in map or arena ({error})") from None
    table = np.zeros((C.MAX_OBSTACLES, C.OBSTACLE_FEATURES), np.float32)
    table[: len(spec.obstacles)] = spec.obstacles
    if not np.array_equal(table, np.asarray(replay.states["obstacles"][0], np.float32)):
        raise ValueError(f"replay: map {map_id}'s file {spec.source} has another layout now")
    return spec


def arena_for(replay, folder: Path) -> int | str:
    """The `arena` field for a position of `replay`: its arena id for a scenario arena, else the
    path (relative to `folder`) of a new arena file copying the replay's map (split
    "scenario", a free id 900-999, name and description naming the map it copies)."""
    spec = _replay_map(replay)
    if spec.split == map_files.SCENARIO_SPLIT:
        return int(spec.id)
    from evaluation.replay import write_new_file

    arenas = folder / "arenas"
    arena_id = free_arena_id(arenas, map_files.ARENAS_DIR)
    doc = json.loads(Path(spec.source).read_text(encoding="utf-8"))
    doc |= {"id": arena_id, "split": map_files.SCENARIO_SPLIT, "team_size": None}
    doc["name"] = f"{spec.name} (scenario copy of map {spec.id})"
    doc["description"] = f"A copy of map {spec.id} ({spec.split}) for a saved position."
    path = arenas / f"{arena_id}_{slug(spec.name)}.json"
    text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
    write_new_file(path, text.encode("utf-8"), "exists; refusing to overwrite it")
    return f"arenas/{path.name}"


def recorded_controller(header: dict, focal_team: str) -> tuple[str, str]:
    """The other team's System in the replay as a scenario controller: (spec, a note for the
    brief, "" when none is needed). A team played by one System keeps it; a team with a human
    slot or several Systems cannot be one controller, so it gets the scenarios' default
    (scenarios.DEFAULT_CONTROLLER) and the note says so."""
    from evaluation import scenarios as S

    other = 1 - S.TEAMS.index(focal_team)
    team = header["systems"][other * C.TEAM_SIZE : (other + 1) * C.TEAM_SIZE]
    played = sorted({spec for spec in team if spec})
    if len(played) == 1 and played[0] != "human":
        return played[0], ""
    label = S.TEAMS[other]
    return S.DEFAULT_CONTROLLER, (
        f" In the game Team {label} was played by {', '.join(played) or 'nobody'}; here "
        f"{S.DEFAULT_CONTROLLER} plays it."
    )


def save_position(replay_path, tick: int, focal_team: str, horizon: int, folder=None) -> Path:
    """Write the position at game tick `tick` as a new scenario file; returns its path.

    tick: the game tick as the Replay Viewer and the BattleClient show it (states["tick"]: a
    scenario's or a branched game's replay starts after tick 0), from the replay's first tick
    to its end.
    focal_team: "A" or "B"; horizon: ticks allowed (1 and up); folder: where the file goes
    (default scenarios.SCENARIOS_DIR). Raises ValueError for a tick not in the replay (naming
    --tick, the value and the replay's ticks), a bad team or horizon, a
    replay that does not re-simulate or is not on a built-in map, and ScenarioError (naming
    the new file, the field and the value) when the saved file does not load back.
    """
    from evaluation import scenarios as S
    from evaluation.record import replay_config
    from evaluation.replay import read_replay
    from evaluation.replay_schema import tick_range
    from evaluation.replay_states import state_at_tick

    if focal_team not in S.TEAMS:
        raise ValueError(f"--focal {focal_team!r}: the focal team is A or B")
    if int(horizon) < 1:
        raise ValueError(f"--horizon {horizon}: a scenario allows at least 1 tick")
    replay_path = Path(replay_path)
    replay = read_replay(replay_path)
    first = int(replay.states["tick"][0])
    game_tick = int(tick)
    if not first <= game_tick <= first + replay.ticks:
        raise ValueError(f"--tick {tick}: {tick_range(replay_path.name, replay.ticks, first)}")
    state = state_at_tick(replay, game_tick)
    folder = Path(folder or S.SCENARIOS_DIR)
    # unique beside the shipped files too: the Scenarios screen lists a user folder after them
    scenario_id = free_scenario_id(folder, S.SCENARIOS_DIR)
    title = f"{replay_path.stem} at tick {game_tick}"
    # the replay's part is the one slug() shortens, so the tick always stays in the name
    name = f"{scenario_id:03d}_{slug(replay_path.stem)}_at_tick_{game_tick}.json"
    controller, note = recorded_controller(replay.header, focal_team)
    doc = S.document_for_state(
        state,
        arena=arena_for(replay, folder),
        title=title,
        skill="saved from a replay (describe the skill it tests)",
        brief=f"Saved from {replay_path.name} at tick {game_tick}: Team {focal_team} must win "
        f"within {horizon} ticks.{note}",
        focal_team=focal_team,
        horizon=int(horizon),
        score_to_win=replay_config(replay.header).score_threshold,
        scenario_id=scenario_id,
        controller=controller,
    )
    path = S.write_document(folder / name, doc)
    try:
        S.load_scenario_file(path)
    except (S.ScenarioError, ValueError):
        path.unlink()  # a file that does not load is not a scenario: nothing half-saved stays
        raise
    return path


def main(argv=None) -> int:
    """`python -m evaluation.scenario_save REPLAY --tick N --focal A|B [--horizon H]
    [--folder DIR]`: prints the new file's path; exit code 2 with one line on stderr when the
    position cannot be saved."""
    parser = argparse.ArgumentParser(prog="python -m evaluation.scenario_save")
    parser.add_argument("replay", type=Path)
    parser.add_argument("--tick", type=int, required=True,
                        help="the game tick, as the Replay Viewer shows it")  # fmt: skip
    parser.add_argument("--focal", default="A", help="the team that must win: A or B")
    parser.add_argument("--horizon", type=int, default=HORIZON_DEFAULT, help="ticks allowed")
    parser.add_argument("--folder", type=Path, help="default: the scenarios folder")
    args = parser.parse_args(argv)
    try:
        path = save_position(args.replay, args.tick, args.focal, args.horizon, args.folder)
    except (ValueError, OSError) as error:
        print(f"scenario_save: {error}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
