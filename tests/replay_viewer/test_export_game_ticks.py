"""The video export's --from/--to (and the batch's --until) are game ticks, as the viewer's
--tick and its tick box read them: a scenario's replay starts at its start tick (294 here), so
its first frame is --from 294, not --from 0, and a tick not in the replay is refused by option
and value with the replay's range."""

import json

import pytest
from PIL import Image

from cli.main import main as mbg_main
from evaluation.replay import write_replay
from replay_viewer.cli import main as viewer_main
from replay_viewer.video import VideoExport, VideoOptions
from tests.helpers.replays import synthetic_replay

START = 294  # scenario 6's start tick


@pytest.fixture(scope="module")
def scenario_replay(tmp_path_factory):
    replay = synthetic_replay(6, seed=3)
    replay.states["tick"] = replay.states["tick"] + START  # states 294..300, as recorded
    return write_replay(tmp_path_factory.mktemp("ticks") / "scenario06.mbgr", replay)


def test_from_and_to_are_game_ticks(scenario_replay, tmp_path):
    job = VideoExport(scenario_replay, tmp_path / "v.gif", VideoOptions(start=296, end=299))
    assert (job.start, job.end) == (2, 5)  # replay indices of game ticks 296 and 299
    assert job.game_ticks == (296, 299)
    assert job.metadata()["ticks"] == [296, 299]
    whole = VideoExport(scenario_replay, tmp_path / "w.gif", VideoOptions())
    assert whole.game_ticks == (START, START + 6) and (whole.start, whole.end) == (0, 6)


def test_a_tick_outside_the_replay_names_the_option_value_and_range(scenario_replay, tmp_path,
                                                                    capsys):  # fmt: skip
    out = tmp_path / "x.gif"
    for args, said in ((["--from", "2"], "--from 2: "), (["--to", "301"], "--to 301: ")):
        assert viewer_main([str(scenario_replay), "--export", str(out), *args]) == 2
        err = capsys.readouterr().err
        assert said in err and "scenario06.mbgr has ticks 294 to 300 (300 is the end" in err
    assert not out.exists()


def test_the_batch_names_and_exports_by_game_tick(scenario_replay, tmp_path, capsys):
    out = tmp_path / "videos"
    args = ["replay", "export", str(scenario_replay), "--to", str(out), "--size", "320x180"]
    assert mbg_main([*args, "--fps", "4", "--from", "298", "--no-animation"]) == 0, (
        capsys.readouterr().err
    )
    (video,) = out.iterdir()
    assert video.name == "scenario06_t0298-0300_oracle.gif"
    with Image.open(video) as image:
        assert json.loads(image.info["comment"])["ticks"] == [298, 300]
    assert mbg_main([*args, "--until", "5"]) == 2
    assert "--until 5: scenario06.mbgr has ticks 294 to 300" in capsys.readouterr().err
