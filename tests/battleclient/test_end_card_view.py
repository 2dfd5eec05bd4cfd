"""The game-over card of a human's game keeps that human's view on every surface (fair views:
board, side panel, log), and the card says so; the Oracle view is the spectator's and the
replay's. Keys posted on SDL's event queue, read back by the App's own event loop."""

import pygame

from battleclient import panels
from battleclient.views import ORACLE, fair_scene
from tests.battleclient.driver import GAME_TICKS, frame, setup, wait_for
from tests.battleclient.test_persist_orders import HUMAN, at_orders, press


def spy(monkeypatch, name: str) -> list:
    """Calls of battleclient.panels.`name` (still drawn): their arguments, newest last."""
    calls, real = [], getattr(panels, name)

    def record(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(panels, name, record)
    return calls


def human_game_over(apps):
    """An App whose human (A0) ended every turn with Space until the game was over and its
    replay saved: (app, its PlayScreen)."""
    app = apps(setup(HUMAN, seed=5))
    screen = app.screen
    for tick in range(GAME_TICKS):
        at_orders(app, tick)
        press(app, pygame.K_SPACE)
    wait_for(app, lambda: screen.phase == "over" and screen.replay_path is not None)
    return app, screen


def test_the_end_card_shows_what_the_players_team_saw(apps, monkeypatch):
    app, screen = human_game_over(apps)
    sides, logs, cards = (spy(monkeypatch, n) for n in ("draw_side", "draw_log", "draw_card"))
    frame(app)
    _, _, scene, snap, _, _, label = sides[-1]
    pov, oracle = fair_scene(snap, (0,)), fair_scene(snap, ORACLE)
    assert len(oracle.units) == 10 and len(pov.units) < 10  # something to keep hidden
    assert [u.slot for u in scene.units] == [u.slot for u in pov.units]
    assert label == "Team A (A0): your agents' own sight + relayed rows"
    assert logs[-1][2] == screen.logs[0]  # the log: Team A's lines, its "Game over" last
    assert "Game over" in screen.logs[0][-1][1]
    _, _, title, lines, *_ = cards[-1]
    assert title.startswith("Game over: ")
    assert (
        "Shown as in play, Team A (A0): your agents' own sight + relayed rows; the replay "
        "shows the whole game."
    ) in " ".join(lines)


def test_a_spectated_game_ends_in_the_oracle_view_and_says_so(apps, monkeypatch):
    app = apps(setup())
    screen = app.screen
    wait_for(app, lambda: screen.phase == "over")
    sides, cards = spy(monkeypatch, "draw_side"), spy(monkeypatch, "draw_card")
    frame(app)
    assert len(sides[-1][2].units) == 10 and sides[-1][6] == "Oracle"
    assert "Shown in the Oracle view: every unit, every event." in cards[-1][3]
