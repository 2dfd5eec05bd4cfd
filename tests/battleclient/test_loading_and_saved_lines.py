"""Two lines a new user reads: the Scenarios screen's loading line says what it waits for
(never the lobby's stale "Ready: the engine is compiled", which read as if loading were over),
and the lobby's "Replay of the last game saved" names the file with "~" for the home folder,
as the end card's "Replay:" line does."""

from pathlib import Path

from battleclient.scenario_screen import ScenarioScreen
from tests.battleclient.driver import setup


def test_the_scenarios_loading_line_says_what_it_waits_for(apps):
    app = apps(setup(), start=False)
    app.kinds = None  # the Systems are still being imported: the start-up's line is the news
    app.progress.stage("Importing JAX", 0.05)
    app.progress.done = False  # the engine thread may have finished its start-up job already
    screen = ScenarioScreen(app)
    assert screen.loading_line() == "Loading the scenarios: Importing JAX (5%)"
    app.progress.stage("Ready: the engine is compiled", 1.0)
    app.kinds = {}  # imported: the files are being read now, whatever the lobby's line says
    assert screen.loading_line() == "Loading the scenarios: reading and checking the scenario files"


def test_the_lobby_names_the_saved_replay_with_a_tilde(apps):
    app = apps(setup(), start=False)
    lobby = app.screen
    saved = (
        Path.home() / ".local/share/marl-battlegrounds/replays/20261202-063104_map047_seed0.mbgr"
    )
    app.on_left_game_saved(True, saved)  # what the engine thread reports after L in the menu
    assert lobby.message == (
        "Replay of the last game saved: "
        "~/.local/share/marl-battlegrounds/replays/20261202-063104_map047_seed0.mbgr"
    )
    assert app.last_replay == saved
    app.on_left_game_saved(False, "disk full")
    assert lobby.message == "Replay not saved: disk full"
