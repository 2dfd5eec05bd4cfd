"""`mbg replay export FOLDER` reads the folder's own replays, as `mbg replay info` and `verify`
do; `-r/--recursive` adds its subfolders', and a folder whose replays are all below says so."""

from cli.main import main as mbg_main
from evaluation.replay import write_replay
from tests.helpers.replays import synthetic_replay

FAST = ["--size", "320x180", "--fps", "4", "--no-animation", "--from", "4"]


def test_export_is_not_recursive_unless_asked(tmp_path, capsys):
    games = tmp_path / "games"
    (games / "older").mkdir(parents=True)
    write_replay(games / "top.mbgr", synthetic_replay(6, seed=1))
    write_replay(games / "older" / "below.mbgr", synthetic_replay(6, seed=2))
    out = tmp_path / "videos"
    assert mbg_main(["replay", "export", str(games), "--to", str(out), *FAST]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["top_t0004-0006_oracle.gif"]
    assert mbg_main(["replay", "export", str(games), "-r", "--to", str(out), *FAST]) == 2
    err = capsys.readouterr().err
    assert "refusing to overwrite" in err and "1 of 2 failed" in err  # top's video is kept
    assert sorted(p.name for p in out.iterdir()) == [
        "below_t0004-0006_oracle.gif",
        "top_t0004-0006_oracle.gif",
    ]
    args = ["replay", "export", str(games / ".."), "--to", str(tmp_path / "v2"), *FAST]
    assert mbg_main(args) == 2
    assert "its subfolders hold some: --recursive reads them" in capsys.readouterr().err
