"""`battleclient --study` in a real window under Xvfb, driven by xdotool: lock in two ticks with
Space, answer the questionnaire with mouse clicks (its buttons and slider arrows), submit; the
study folder then holds the replay and the CSV row with exactly those answers."""

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pygame

from battleclient.study_screen import LEFT, LIKERT_X, ROW_H, TLX_X
from evaluation import study
from evaluation.replay import read_replay
from tests.helpers.xvfb import XVFB_MARKS, find_window, wait_for, window_env, xdo
from ui.theme import COLOURS

ROOT = Path(__file__).resolve().parents[2]
pytestmark = XVFB_MARKS


def _shots(folder: Path) -> set:
    """Finished screenshots (a PNG being written is a hidden ".NAME.partial.png")."""
    return (
        {p for p in folder.glob("*.png") if not p.name.startswith(".")}
        if folder.exists()
        else set()
    )


def _questionnaire_on(image) -> bool:
    """The form's gutter between statements and answers is plain background; in the play
    screen the same column is arena floor."""
    return all(tuple(image.get_at((690, y)))[:3] == COLOURS["background"] for y in (150, 300, 450))


def test_a_study_game_and_its_questionnaire_by_mouse(xserver, tmp_path):
    data, folder = tmp_path / "data", tmp_path / "study"
    env = window_env(
        xserver, XDG_DATA_HOME=str(data), XDG_CONFIG_HOME=str(tmp_path / "config"),
        PYTHONHASHSEED="0", JAX_PLATFORMS="cpu",
        MBG_JAX_CACHE=os.environ.get("MBG_JAX_CACHE", str(ROOT / ".cache" / "jax")),
    )  # fmt: skip
    command = [sys.executable, "-m", "battleclient.app", "--study", "P01", "--study-ai",
               "random", "--horizon", "2", "--study-dir", str(folder)]  # fmt: skip
    client = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)  # fmt: skip
    shots = data / "marl-battlegrounds" / "screenshots"
    try:
        window = find_window(xserver, client.pid, timeout=120)
        image, end = None, time.monotonic() + 300
        while time.monotonic() < end:  # Space until the game is over and the form shows
            xdo(xserver, "key", "--window", window, "space")
            time.sleep(1.5)
            before = _shots(shots)
            xdo(xserver, "key", "--window", window, "F12")
            assert wait_for(lambda old=before: _shots(shots) - old, 20)
            path = sorted(_shots(shots) - before)[-1]
            image = pygame.image.load(str(path))
            if _questionnaire_on(image):
                shutil.copy(path, tmp_path / "questionnaire.png")
                break
        assert image is not None and _questionnaire_on(image), "the questionnaire never showed"
        picked = {"fluency": 3, "trust": 6, "predictability": 1}
        for row, value in enumerate(picked.values()):
            x, y = LIKERT_X + (value - 1) * 46 + 21, 120 + row * ROW_H + 18
            xdo(xserver, "mousemove", "--window", window, str(x), str(y), "click", "1")
            time.sleep(0.3)
        for row in range(len(study.TLX_ITEMS)):  # each scale's right arrow once: 55
            y = 120 + len(picked) * ROW_H + 24 + row * ROW_H + 4 + (ROW_H - 16) // 2
            xdo(xserver, "mousemove", "--window", window, str(TLX_X + 380 - 8), str(y),
                "click", "1")  # fmt: skip
            time.sleep(0.3)
        xdo(xserver, "mousemove", "--window", window, str(LEFT + 110), "750", "click", "1")
        csv_path = folder / study.CSV_NAME
        assert wait_for(csv_path.exists, 60), client.stdout.read()[-3000:] if client.poll() else ""
        row = pl.read_csv(csv_path).row(0, named=True)
        assert {k: row[k] for k in picked} == picked
        assert [row[k] for k in study.TLX_ITEMS] == [55] * 6
        (replay_path,) = folder.glob("P01_*.mbgr")
        assert read_replay(replay_path).header["study"]["questionnaire"]["trust"] == 6
        xdo(xserver, "key", "--window", window, "Escape")
    finally:
        client.kill()
        client.wait()
