"""Where the apps keep their files, following the XDG base-directory variables.

- data: $XDG_DATA_HOME/marl-battlegrounds (default ~/.local/share/marl-battlegrounds), holding
  replays/ (the BattleClient's games), screenshots/ (PNGs saved from either app) and
  scenarios/ (positions saved as scenarios from either app).
"""

import os
from pathlib import Path

APP_DIR = "marl-battlegrounds"


def data_dir() -> Path:
    """$XDG_DATA_HOME/marl-battlegrounds, else ~/.local/share/marl-battlegrounds (an empty
    variable counts as unset, as the XDG specification says)."""
    value = os.environ.get("XDG_DATA_HOME")
    return (Path(value) if value else Path.home() / ".local/share") / APP_DIR


def screenshot_dir() -> Path:
    """The folder both apps save screenshots into (made on first save, not here)."""
    return data_dir() / "screenshots"


def metrics_dir() -> Path:
    """The folder the Replay Viewer exports metric tables (CSV) into (made on first export)."""
    return data_dir() / "metrics"


def video_dir() -> Path:
    """The folder both apps export videos into (made on first export, not here)."""
    return data_dir() / "videos"


def scenario_dir() -> Path:
    """The user's scenario folder: both apps save positions as scenarios here (with their
    arenas/), and the BattleClient's Scenarios screen lists its files after the shipped ones
    (evaluation.scenarios.SCENARIOS_DIR). Made on first save, not here."""
    return data_dir() / "scenarios"
