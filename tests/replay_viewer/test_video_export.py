"""Video export: frame counts and durations, real pictures, fair POV videos, safe
files, corrupt replays, MP4 through the optional extra, the command lines."""

import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image, ImageSequence

from evaluation.replay import read_replay, write_replay
from replay_viewer.cli import main as viewer_main
from replay_viewer.model import ViewerModel
from replay_viewer.video import VideoExport, VideoOptions, card_frames, to_rgb
from replay_viewer.video_frames import FrameMaker
from replay_viewer.video_writers import MP4_EXTRA, VideoError, check_format
from tests.helpers.replays import synthetic_replay
from tests.replay_viewer.test_viewer_pov_leak import hidden_twin
from ui.animation import HALF
from ui.theme import TEAM_COLOURS

SMALL = (480, 270)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return write_replay(
        tmp_path_factory.mktemp("video") / "game.mbgr", synthetic_replay(24, seed=4)
    )


def gif_frames(path):
    """Decoded (composited) RGB frames and their delays in ms."""
    with Image.open(path) as im:
        frames = [np.asarray(f.convert("RGB")) for f in ImageSequence.Iterator(im)]
        im.seek(0)
        delays = [f.info["duration"] for f in ImageSequence.Iterator(im)]
        comment = im.info.get("comment", b"")
    return frames, delays, comment


def leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def test_gif_frames_and_length_match_the_range_and_speed(game, tmp_path):
    out = tmp_path / "v.gif"
    options = VideoOptions(start=2, end=8, fps=20, ticks_per_second=4, size=SMALL)
    job = VideoExport(game, out, options)
    title, end = card_frames(20)
    assert (title, end) == (40, 40)
    assert job.game_frames == 6 * 20 // 4 == 30
    assert job.run() == out and job.total == 110
    frames, delays, comment = gif_frames(out)
    # identical card frames are stored once; every game frame differs (units move)
    assert len(frames) == 1 + 30 + 1
    assert sum(delays) == 110 * 1000 // 20  # 5.5 s: cards 2 s each, 6 ticks at 4 ticks/s
    assert delays[0] == 2000 and delays[-1] == 2000 and set(delays[1:-1]) == {50}
    meta = json.loads(comment)
    assert meta["ticks"] == [2, 8] and meta["view"] == "oracle" and meta["replay"] == "game.mbgr"
    assert len(meta["sha256"]) == 64 and meta["frames"] == 110
    assert leftovers(tmp_path) == []


def test_frames_are_pictures_that_move(game):
    model = ViewerModel(read_replay(game))
    maker = FrameMaker(model, SMALL)
    a = to_rgb(maker.game_frame(5, 0.0)).copy()
    b = to_rgb(maker.game_frame(5, 0.3)).copy()
    colours = {tuple(c) for c in a.reshape(-1, 3)[::7]}
    assert len(colours) > 20  # not a blank or flat frame
    for team in (0, 1):  # both teams' discs are drawn
        assert (a == TEAM_COLOURS[team]).all(axis=2).sum() > 100
    moved = np.abs(a.astype(int) - b).sum(axis=2) > 0
    assert moved.sum() > 200  # units glided between the two phases
    band = slice(maker.caption.top, None)
    assert len(np.unique(a[band].reshape(-1, 3), axis=0)) > 2  # the 5 -> 6 caption
    closing = to_rgb(maker.end_card(5))
    assert len(np.unique(closing[band].reshape(-1, 3), axis=0)) == 1  # no caption past the end


@pytest.mark.parametrize("view", [("agent", 2), ("team", 1)])
def test_pov_video_never_shows_what_the_view_did_not_see(tmp_path, view):
    base = synthetic_replay(16, seed=4)
    twin = hidden_twin(base, view)
    paths = {}
    for name, replay in (("base", base), ("twin", twin)):
        (tmp_path / name).mkdir()
        game = write_replay(tmp_path / name / "game.mbgr", replay)
        for v in (view, "oracle"):
            out = tmp_path / name / f"{v != 'oracle'}.gif"
            VideoExport(
                game, out, VideoOptions(view=v, fps=10, ticks_per_second=5, size=SMALL)
            ).run()
            paths[name, v] = out
    pov = [gif_frames(paths[n, view])[0] for n in ("base", "twin")]
    assert len(pov[0]) == len(pov[1]) > 30
    for k, (a, b) in enumerate(zip(*pov, strict=True)):  # every exported frame
        assert np.array_equal(a, b), f"frame {k} shows something the view did not see"
    oracle = [gif_frames(paths[n, "oracle"])[0] for n in ("base", "twin")]
    assert len(oracle[0]) != len(oracle[1]) or any(
        not np.array_equal(a, b) for a, b in zip(*oracle, strict=True)
    )


def test_pov_frames_hold_only_units_known_at_their_tick(game):
    job = VideoExport(game, game.parent / "unused.gif", VideoOptions(view=("agent", 7)))
    maker = FrameMaker(job.model, SMALL)
    from ui.animation import tween_scene

    for tick, u in job.frame_times():
        before, after, events, _, _ = maker._transition(tick)
        scene = tween_scene(before, after, events, u) if after is not None else before
        shown_tick = tick + 1 if u >= HALF else tick
        assert {x.slot for x in scene.units} <= job.model.known(shown_tick, ("agent", 7))


def test_existing_file_is_refused_and_left_intact(game, tmp_path, capsys):
    out = tmp_path / "keep.gif"
    out.write_bytes(b"precious")
    with pytest.raises(FileExistsError, match="refusing to overwrite"):
        VideoExport(game, out, VideoOptions(size=SMALL))
    assert viewer_main([str(game), "--export", str(out), "--size", "480x270"]) == 2
    assert capsys.readouterr().err == (
        f"replay-viewer: --export {out}: already exists; choose another name\n"
    )
    inside = out / "x.gif"
    assert viewer_main([str(game), "--export", str(inside)]) == 2
    assert (
        capsys.readouterr().err
        == f"replay-viewer: --export {inside}: {out} is a file, not a folder\n"
    )
    assert viewer_main([str(game), "--export="]) == 2
    assert capsys.readouterr().err == "replay-viewer: --export: is empty; give a path\n"
    assert out.read_bytes() == b"precious"
    # a file that appears while the export runs is not replaced either
    late = tmp_path / "late.gif"
    job = VideoExport(game, late, VideoOptions(end=2, size=SMALL))
    late.write_bytes(b"theirs")
    with pytest.raises(FileExistsError):
        job.run()
    assert out.read_bytes() == b"precious" and late.read_bytes() == b"theirs"
    assert leftovers(tmp_path) == []


def test_corrupt_replay_is_named_and_nothing_is_written(game, tmp_path, capsys):
    bad = tmp_path / "bad.mbgr"
    bad.write_bytes(game.read_bytes()[:900])  # a cut-off file
    out = tmp_path / "bad.gif"
    assert viewer_main([str(bad), "--export", str(out)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "truncated" in err
    assert not out.exists() and leftovers(tmp_path) == []


def test_bad_options_are_named(game, tmp_path, capsys):
    for args, word in (
        (["--fps", "60"], "--fps 60"),
        (["--from", "9", "--to", "3"], "--from 9 --to 3"),
        (["--to", "99"], "--to 99"),
        (["--size", "big"], "--size 'big'"),
        (["--size", "99999x99999"], "--size 99999x99999: at most 3840x2160"),
        (["--view", "agent:12"], "--view"),
    ):
        assert viewer_main([str(game), "--export", str(tmp_path / "x.gif"), *args]) == 2
        assert word in capsys.readouterr().err
    with pytest.raises(VideoError, match="must end in .gif or .mp4"):
        check_format(tmp_path / "x.avi", 30, SMALL)


def test_mp4_without_the_extra_names_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)  # import now fails
    with pytest.raises(VideoError, match=rf"extra '{MP4_EXTRA}'.*imageio-ffmpeg"):
        check_format(tmp_path / "x.mp4", 30, (1280, 720))


def test_mp4_export(game, tmp_path):
    ffmpeg = pytest.importorskip(
        "imageio_ffmpeg", reason=f"MP4 export needs the optional extra '{MP4_EXTRA}'"
    )
    out = tmp_path / "v.mp4"
    options = VideoOptions(view=("team", 0), end=4, fps=24, ticks_per_second=6, size=(480, 270))
    job = VideoExport(game, out, options)
    job.run()
    frames, seconds = ffmpeg.count_frames_and_secs(str(out))
    assert frames == job.total == 48 + 16 + 48
    assert seconds == pytest.approx(job.total / 24, abs=0.05)
    probe = subprocess.run(
        [ffmpeg.get_ffmpeg_exe(), "-v", "error", "-i", str(out), "-f", "ffmetadata", "-"],
        capture_output=True,
        text=True,
    )
    line = next(x for x in probe.stdout.splitlines() if x.startswith("comment="))
    meta = json.loads(line.removeprefix("comment=").replace("\\", ""))
    assert meta["view"] == "team:A" and meta["ticks"] == [0, 4]
    assert leftovers(tmp_path) == []


def test_batch_export_goes_through_every_file(game, tmp_path, capsys):
    from cli.main import main as mbg_main

    folder = tmp_path / "games"
    folder.mkdir()
    for k in (1, 2):
        write_replay(folder / f"g{k}.mbgr", synthetic_replay(6, seed=k))
    (folder / "broken.mbgr").write_bytes(b"not a replay")
    out = tmp_path / "videos"
    args = ["replay", "export", str(folder), "--to", str(out), "--size", "480x270", "--fps", "10"]
    assert mbg_main(args) == 2  # bad input, as every refusal in cli.main
    assert sorted(p.name for p in out.iterdir()) == [
        "g1_t0000-0006_oracle.gif",
        "g2_t0000-0006_oracle.gif",
    ]
    err = capsys.readouterr().err
    assert "broken.mbgr" in err and "1 of 3 failed" in err
    assert mbg_main(args) == 2  # a second run refuses to replace the videos
    assert "refusing to overwrite" in capsys.readouterr().err


def test_batch_empty_range_names_until_once(game, tmp_path, capsys):
    from cli.main import main as mbg_main

    args = ["replay", "export", str(game), "--to", str(tmp_path / "v"), "--from", "5"]
    assert mbg_main([*args, "--until", "3"]) == 2
    err = capsys.readouterr().err
    assert "--from 5 --until 3: the range needs at least one tick" in err
    assert err.count("\n") == 1 and not (tmp_path / "v").exists()
    assert mbg_main([*args, "--until", "9999"]) == 2  # past the game: named as --until too
    err = capsys.readouterr().err
    assert "--until 9999: " in err and "--to 9999" not in err
    last = read_replay(game).ticks
    assert f"has ticks 0 to {last} ({last} is the end, after the last tick played, tick" in err


def test_export_never_imports_jax(game, tmp_path):
    code = (
        "import sys; from replay_viewer.cli import main; "
        f"rc = main([{str(game)!r}, '--export', {str(tmp_path / 'j.gif')!r}, '--to', '3', "
        "'--size', '480x270']); "
        "print(rc, sorted(m for m in sys.modules if m.split('.')[0] in ('jax', 'jaxlib')))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            timeout=120)  # fmt: skip
    assert result.stdout.split("\n")[-2] == "0 []", result.stderr


def test_batch_without_the_mp4_extra_says_so_once(tmp_path, monkeypatch, capsys):
    from cli.main import main as mbg_main

    monkeypatch.setitem(sys.modules, "imageio_ffmpeg", None)
    write_replay(tmp_path / "g.mbgr", synthetic_replay(3, seed=1))
    args = ["replay", "export", str(tmp_path), "--to", str(tmp_path / "v"), "--format", "mp4"]
    assert mbg_main(args) == 2
    err = capsys.readouterr().err
    assert err.count(f"[{MP4_EXTRA}]") == 1 and not (tmp_path / "v").exists()


def test_an_edited_header_result_is_warned_of_once_the_video_is_written(tmp_path, capsys):
    """The video's cards show the game's result; the header's false claim is said on stderr
    by both export commands, and the export still succeeds."""
    from cli.main import main as mbg_main

    replay = synthetic_replay(6, seed=4)
    told = int(replay.header["result"]["outcome"])
    played = int(replay.states["outcome"][-1])
    replay.header["result"]["outcome"] = wrong = (played + 1) % 4
    replay.header["result"]["outcome_name"] = "A wins" if wrong == 1 else "draw"
    assert told == played  # the synthetic header was true before the edit
    edited = write_replay(tmp_path / "edited.mbgr", replay)
    said = f"header.result.outcome says {wrong}; the game gives {played}"
    out = tmp_path / "edited.gif"
    assert viewer_main([str(edited), "--export", str(out), "--size", "480x270"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert f"replay-viewer: warning: {edited}: {said}; the video shows what the game gives" in err
    assert out.exists()
    assert mbg_main(["replay", "export", str(edited), "--to", str(tmp_path / "v"),
                     "--size", "480x270"]) == 0  # fmt: skip
    err = capsys.readouterr().err.splitlines()
    assert (
        f"mbg replay export: warning: {edited}: {said}; the video shows what the game gives" in err
    )


def test_the_end_card_names_the_moment_as_the_viewer_does():
    """The closing card said "Tick 10" for the state after tick 9, where both apps say "after
    tick 9 (end)" (replay_viewer.panels.tick_heading)."""
    from replay_viewer.video_frames import end_heading

    model = ViewerModel(synthetic_replay(10, seed=5), "x.mbgr")
    a, b = (int(v) for v in model.state(10)["score"])
    assert end_heading(model, 10) == f"After tick 9 (end): A {a} : {b} B"
    a, b = (int(v) for v in model.state(3)["score"])
    assert end_heading(model, 3) == f"Tick 3/10: A {a} : {b} B"  # a range that stops early
