"""A replay position saved as a scenario loads back like a shipped one, with the re-simulated
start state bit for bit, on a scenario arena; bad requests are refused and leave no file."""

from pathlib import Path

import numpy as np
import pytest

from engine import maps as map_files
from evaluation import scenarios as S
from evaluation.replay import read_replay
from evaluation.replay_states import state_at_tick
from evaluation.scenario_save import free_scenario_id, main, recorded_controller, save_position

REPLAYS = Path(__file__).resolve().parents[1] / "fixtures" / "replays"
GAME = REPLAYS / "v1_real_2v2_no_metrics.mbgr"


def test_a_saved_position_loads_with_the_exact_start_state(tmp_path):
    path = save_position(GAME, 6, "B", 7, tmp_path)
    first = free_scenario_id(S.SCENARIOS_DIR)  # ids stay unique beside the shipped scenarios
    assert first > 1 and path.name == f"{first:03d}_v1_real_2v2_no_metrics_at_tick_6.json"
    scenario = S.load_scenario_file(path)
    state = state_at_tick(read_replay(GAME), 6)
    for name, value in vars(state).items():  # the arena copy has its own id, all else equal
        if name != "map_id":
            assert (
                np.asarray(getattr(scenario.start, name)).tobytes() == np.asarray(value).tobytes()
            )
    assert int(scenario.start.map_id) == scenario.arena.id and int(state.map_id) == 3
    assert (scenario.focal_team, scenario.horizon, scenario.lines) == (1, 7, ())
    assert scenario.controller == "scripted:brawler"  # Team A's System in the game
    shipped = {int(p.name[:3]) for p in map_files.ARENAS_DIR.glob("9*.json")}
    assert scenario.arena.split == "scenario" and scenario.arena.id not in shipped
    assert "copy of map" in scenario.arena.name
    # the next save takes the next free ids, never a file already there
    again = S.load_scenario_file(save_position(GAME, 6, "A", 5, tmp_path))
    assert again.id == first + 1 and again.arena.id not in shipped | {scenario.arena.id}
    assert again.start_hash != scenario.start_hash  # a horizon of 5, not 7
    assert again.controller == "random" and "played by" not in again.brief


def test_a_team_with_a_human_or_two_systems_gets_the_default_controller_and_a_note():
    header = {"systems": ["human", "scripted:kiter"] + [""] * 3 + ["random"] * 2 + [""] * 3}
    assert recorded_controller(header, "A") == ("random", "")
    spec, note = recorded_controller(header, "B")
    assert spec == S.DEFAULT_CONTROLLER == "scripted:tactician"
    assert note == (
        " In the game Team A was played by human, scripted:kiter; here scripted:tactician plays it."
    )


def test_bad_requests_are_refused_and_write_nothing(tmp_path, capsys):
    with pytest.raises(ValueError, match="focal team is A or B"):
        save_position(GAME, 3, "C", 5, tmp_path)
    with pytest.raises(ValueError, match="at least 1 tick"):
        save_position(GAME, 3, "A", 0, tmp_path)
    assert main([str(GAME), "--tick", "9999", "--folder", str(tmp_path)]) == 2
    last = read_replay(GAME).ticks
    assert f"--tick 9999: {GAME.name} has ticks 0 to {last} ({last} is the end" in (
        capsys.readouterr().err
    )
    assert not list(tmp_path.rglob("*.json"))


def test_a_long_replay_name_keeps_the_tick_in_the_file_name(tmp_path):
    """BattleClient replay names (date, time, map, seed) are long; the tick must survive."""
    long_name = tmp_path / "P01_20261201-142602_map047_seed0.mbgr"
    long_name.write_bytes(GAME.read_bytes())
    path = save_position(long_name, 6, "A", 5, tmp_path / "scenarios")
    assert path.name.endswith("_at_tick_6.json"), path.name


@pytest.mark.slow  # plays scenario 1's line (compiles its step): about 35 s here
def test_a_scenario_replay_saved_one_tick_in_is_named_by_its_game_tick(tmp_path):
    """A scenario replay starts at the scenario's start tick (295 for scenario 1): --tick is the
    game tick, as the viewer's, so 296 saves the start one tick in (the title, brief and file
    name say 296), and a replay position (1) is refused with the replay's ticks."""
    from battleclient.scenario_session import save_winning_line

    shipped = Path(S.__file__).resolve().parents[1] / "scenarios" / "001_hold_the_trap.json"
    replay_path = save_winning_line(tmp_path / "replays", S.load_scenario_file(shipped), 0)
    with pytest.raises(ValueError, match=r"--tick 1: .* has ticks 295 to "):
        save_position(replay_path, 1, "A", 4, tmp_path / "scenarios")
    path = save_position(replay_path, 296, "A", 4, tmp_path / "scenarios")
    saved = S.load_scenario_file(path)
    assert int(saved.start.tick) == 296 and saved.horizon == 4
    assert path.name.endswith("_at_tick_296.json"), path.name
    assert saved.title.endswith(" at tick 296") and " at tick 296: Team A" in saved.brief
