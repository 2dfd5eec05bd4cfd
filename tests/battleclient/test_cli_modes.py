"""`battleclient` for scripts: --headless, --replay-out, --screenshot --after-ticks, bad options."""

import pygame
import pytest

from battleclient import layout as L
from battleclient.app import main
from evaluation.replay import read_replay
from tests.battleclient.driver import GAME_TICKS

GAME = ["--map", "47", "--horizon", str(GAME_TICKS), "--seed", "3"]


def test_headless_plays_machine_slots_to_the_end(tmp_path, capsys):
    out = tmp_path / "game.mbgr"
    code = main(["--headless", "--slots", "A*=random,B*=random", "--replay-out", str(out), *GAME])
    assert code == 0
    printed = capsys.readouterr().out
    assert f"replay: {out}" in printed and f"after {GAME_TICKS} ticks on map 47" in printed
    replay = read_replay(out)
    assert replay.ticks == GAME_TICKS and replay.header["seeds"]["game"] == 3


def test_headless_refuses_human_slots_and_bad_options(tmp_path, capsys):
    assert main(["--headless", "--slots", "A0=human,A1-A4=random,B*=random", *GAME]) == 2
    assert "A0 is human" in capsys.readouterr().err
    assert main(["--headless", "--roster", "MQ", *GAME]) == 2
    assert "unknown class letter 'Q'" in capsys.readouterr().err
    taken = tmp_path / "taken.mbgr"
    taken.write_bytes(b"")
    assert main(["--headless", "--replay-out", str(taken), *GAME]) == 2
    assert "refusing to overwrite" in capsys.readouterr().err
    assert main(["--headless", "--slots", "A*=warp,B*=random", *GAME]) == 2
    assert "unknown kind 'warp'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--spawn-end", "north"])


def test_screenshot_after_ticks(display, tmp_path, capsys):
    png = tmp_path / "not_yet" / "shot.png"  # the folder is made, as for replays
    code = main(["--slots", "A0=human,A1-A4=random,B*=random", "--screenshot", str(png),
                 "--after-ticks", "2", *GAME])  # fmt: skip
    assert code == 0 and capsys.readouterr().out.strip().endswith(str(png))
    image = pygame.image.load(str(png))
    assert image.get_size() == L.SIZE
    arena = image.get_at((L.ARENA[0] + L.ARENA[2] // 2, L.ARENA[1] + L.ARENA[3] // 2))
    assert tuple(arena)[:3] != (24, 26, 32)  # the arena is drawn, not the empty background
    assert main(["--screenshot", str(png), *GAME]) == 2  # never over an existing file


def test_an_unwritable_replay_is_one_line(monkeypatch, capsys):
    def read_only(setup, out, **options):
        raise OSError(30, "Read-only file system", str(out))

    monkeypatch.setattr("battleclient.headless.run_headless", read_only)
    code = main(["--headless", "--slots", "A*=random,B*=random", "--replay-out", "/ro/g.mbgr"])
    assert code == 2
    assert capsys.readouterr().err.strip() == (
        "battleclient: [Errno 30] Read-only file system: '/ro/g.mbgr'"
    )
