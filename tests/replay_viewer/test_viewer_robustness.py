"""Bad and unusual replays open or fail with a clear message; the command line; no JAX."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pygame
import pytest

from evaluation.replay import encode_replay, write_replay
from replay_viewer import layout as L
from replay_viewer.app import App
from replay_viewer.cli import main
from replay_viewer.folder import list_replays
from replay_viewer.metrics_source import jax_free, replay_metrics
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import click, frame, key

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "replays"
FIXTURE = FIXTURES / "v1_synthetic_5v5.mbgr"
REAL = FIXTURES / "v1_real_5v5_full_metrics.mbgr"


@pytest.fixture
def viewer(display):
    return App(L.SIZE)


def every_tab_and_view(app):
    """Renders each tick in every view and panel; returns the number of frames drawn."""
    drawn = 0
    for t in sorted({0, app.model.ticks // 2, app.model.ticks}):
        app.model.timeline.seek(t)
        for view in ("oracle", ("agent", 0), ("agent", 5), ("team", 1)):
            app.model.set_view(view)
            app.model.selected = 0 if 0 in app.model.known(t) else None
            for tab in ("log", "agent", "metrics", "heat"):
                app.side.tab = tab
                frame(app)
                drawn += 1
    return drawn


@pytest.mark.parametrize("path", sorted(FIXTURES.glob("v*.mbgr")), ids=lambda p: p.name)
def test_every_fixture_renders_in_every_view_and_panel(viewer, path):
    assert viewer.open_path(path), viewer.message
    assert every_tab_and_view(viewer) > 0
    if viewer.model.replay.metrics is not None:
        assert viewer.side.table.all.height == viewer.model.replay.metrics.height


def test_truncated_file_gives_a_message_not_a_crash(viewer, tmp_path):
    data = encode_replay(synthetic_replay(5, seed=1))
    (tmp_path / "cut.mbgr").write_bytes(data[: len(data) // 2])
    assert not viewer.open_path(tmp_path / "cut.mbgr")
    assert viewer.model is None and viewer.message_is_error
    assert "cut.mbgr" in viewer.message and "truncated" in viewer.message
    frame(viewer)


def test_corrupted_file_gives_a_message(viewer, tmp_path):
    data = bytearray(encode_replay(synthetic_replay(5, seed=1)))
    data[-40] ^= 0x55
    (tmp_path / "bad.mbgr").write_bytes(bytes(data))
    assert not viewer.open_path(tmp_path / "bad.mbgr")
    assert "corrupted" in viewer.message


def test_missing_file_gives_a_message(viewer, tmp_path):
    assert not viewer.open_path(tmp_path / "nothing.mbgr")
    assert "nothing.mbgr" in viewer.message and viewer.message_is_error


def test_folder_lists_games_and_unreadable_files(viewer, tmp_path):
    write_replay(tmp_path / "a.mbgr", synthetic_replay(4, seed=1))
    write_replay(
        tmp_path / "b.mbgr", synthetic_replay(3, seed=2, roster=(1, 5, 0, 0, 0, 2, 0, 0, 0, 0))
    )
    (tmp_path / "c.mbgr").write_bytes(b"\x00garbage")
    (tmp_path / "notes.txt").write_text("not a replay")
    entries = list_replays(tmp_path)
    assert [e.path.name for e in entries] == ["a.mbgr", "b.mbgr", "c.mbgr"]
    assert "map 99 synthetic" in entries[0].label() and "in 4 ticks" in entries[0].label()
    assert entries[2].label().startswith("c.mbgr  (unreadable: ")
    assert viewer.open_path(tmp_path) and viewer.model is None
    frame(viewer)
    item = viewer.list_widget.item_list_container.elements[1]
    frame(viewer, click(item.rect.center))
    assert viewer.model is not None and viewer.model.name == "b.mbgr"
    frame(viewer, [key(pygame.K_f, unicode="f")])
    assert viewer.model is None and viewer.list_widget is not None


@pytest.mark.parametrize(
    "replay",
    [
        pytest.param(lambda: synthetic_replay(1, seed=3), id="one-tick game"),
        pytest.param(lambda: synthetic_replay(0, seed=3), id="initial state only"),
        pytest.param(lambda: synthetic_replay(8, seed=3, fallback_ticks=(0, 3, 7)), id="fallback"),
        pytest.param(lambda: synthetic_replay(60, seed=2, threshold=3), id="ends on a death"),
        pytest.param(
            lambda: synthetic_replay(6, seed=3, roster=(2, 0, 0, 0, 0, 4, 0, 0, 0, 0)), id="1v1"
        ),
    ],
)
def test_unusual_games_render_in_every_view_and_panel(viewer, tmp_path, replay):
    game = replay()
    assert viewer.open_path(write_replay(tmp_path / "g.mbgr", game))
    if not game.states["active"][0][5]:
        pytest.fail("every fixture game has a Team B slot 5")
    assert every_tab_and_view(viewer) > 0


def test_death_on_the_last_tick_is_told_and_drawn(viewer, tmp_path):
    game = synthetic_replay(60, seed=2, threshold=3)
    assert game.events["died"][-1].any() and game.header["result"]["outcome"] in (1, 2)
    viewer.open_path(write_replay(tmp_path / "g.mbgr", game))
    viewer.act("seek", -1)
    assert any(" died" in line for line in viewer.model.log_lines())
    assert any(line.startswith("Game over") for line in viewer.model.log_lines())


def test_fallback_tick_shows_in_agent_panel(viewer, tmp_path):
    viewer.open_path(
        write_replay(tmp_path / "g.mbgr", synthetic_replay(5, seed=3, fallback_ticks=(2,)))
    )
    viewer.model.timeline.seek(3)
    assert "No answer from its System: fallback order used" in viewer.model.agent_lines(1)


def test_recorded_metrics_are_used():
    game = synthetic_replay(2, seed=1)
    from tests.helpers.viewer import demo_metrics

    game.metrics = demo_metrics(game)
    frame_, note = replay_metrics(game)
    assert frame_ is game.metrics and note.startswith("102 metrics recorded")


def test_jax_free_reads_imports_without_importing():
    assert (
        jax_free("evaluation.replay") and jax_free("ui.arena") and jax_free("replay_viewer.model")
    )
    assert not jax_free("engine.types")
    # engine/__init__.py imports jax only inside its lazy __getattr__
    assert jax_free("engine.constants") and jax_free("evaluation.metrics")


def test_screenshot_command(tmp_path, display):
    out = tmp_path / "shot.png"
    assert main([str(FIXTURE), "--tick", "12", "--view", "agent:3", "--screenshot", str(out)]) == 0
    assert pygame.image.load(str(out)).get_size() == L.SIZE
    assert main([str(FIXTURE), "--screenshot", str(out)]) != 0  # never overwrites


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--view", "agent:12"], "expected oracle"),
        (["--view", "team:C"], "expected oracle"),
    ],
)
def test_command_line_errors(tmp_path, capsys, args, message):
    assert main([str(FIXTURE), *args, "--screenshot", str(tmp_path / "x.png")]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("tick", [-1, 41, 500])
def test_tick_outside_the_replay_is_refused(tmp_path, capsys, display, tick):
    path = write_replay(tmp_path / "g40.mbgr", synthetic_replay(40, seed=1))
    out = tmp_path / "x.png"
    assert main([str(path), "--tick", str(tick), "--screenshot", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert error == (
        f"replay-viewer: --tick {tick}: g40.mbgr has ticks 0 to 40 (40 is the end, after the "
        "last tick played, tick 39)"
    )  # the end card of the same game says "after 40 ticks (last: tick 39)"
    assert not out.exists()
    assert main([str(path), "--tick", "40", "--screenshot", str(out)]) == 0  # the last tick


def test_screenshot_of_a_folder_names_a_replay_to_use(tmp_path, capsys, display):
    (tmp_path / "a_bad.mbgr").write_bytes(b"nope")  # unreadable: never suggested
    write_replay(tmp_path / "b.mbgr", synthetic_replay(3, seed=1))
    write_replay(tmp_path / "c.mbgr", synthetic_replay(3, seed=2))
    out = tmp_path / "x.png"
    assert main([str(tmp_path), "--tick", "2", "--screenshot", str(out)]) == 2
    error = capsys.readouterr().err.strip()
    assert error == (
        "replay-viewer: --screenshot needs a replay file, not a folder; try: replay-viewer "
        f"{tmp_path / 'b.mbgr'} --tick 2 --screenshot {out} (1 of 2)"
    )
    assert not out.exists()
    suggested = error.split("try: replay-viewer ")[1].split(" (")[0].split()
    assert main(suggested) == 0 and out.exists()  # the suggestion works as printed


def test_screenshot_of_a_folder_without_replays_says_so(tmp_path, capsys, display):
    (tmp_path / "a_bad.mbgr").write_bytes(b"nope")
    assert main([str(tmp_path), "--screenshot", str(tmp_path / "x.png")]) == 2
    error = capsys.readouterr().err.strip()
    assert error == (
        f"replay-viewer: --screenshot needs a replay file; {tmp_path} holds no readable *.mbgr file"
    )


def test_screenshot_of_an_unreadable_file_fails(tmp_path, capsys, display):
    (tmp_path / "bad.mbgr").write_bytes(b"nope")
    assert main([str(tmp_path / "bad.mbgr"), "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "bad.mbgr" in capsys.readouterr().err
    assert not (tmp_path / "x.png").exists()


def test_empty_slot_view_is_refused(tmp_path, capsys, display):
    path = write_replay(
        tmp_path / "g.mbgr", synthetic_replay(2, seed=3, roster=(2, 0, 0, 0, 0, 4, 0, 0, 0, 0))
    )
    assert main([str(path), "--view", "agent:3", "--screenshot", str(tmp_path / "x.png")]) == 2
    assert "empty" in capsys.readouterr().err


NO_JAX = """
import json, os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"
import pygame
from replay_viewer import layout as L
from replay_viewer.app import App
pygame.display.init(); pygame.font.init(); pygame.display.set_mode(L.SIZE)
app, notes = App(L.SIZE), []
for path in sys.argv[1:]:
    assert app.open_path(path), app.message
    for view in ("oracle", ("agent", 0), ("team", 0)):
        app.model.set_view(view)
        for tab in ("log", "agent", "metrics", "heat"):
            app.side.tab = tab
            app.model.timeline.seek(20)
            app.model.overlays |= {"sight", "ranges", "los", "trails"}
            app.model.selected = 0
            app.update(0.1)
            app.draw(pygame.Surface(L.SIZE))
    notes.append(app.side.note)
heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("jax", "jaxlib", "flax", "optax"))
print(json.dumps({"heavy": heavy, "notes": notes}))
"""


def test_opening_and_rendering_never_imports_jax():
    result = subprocess.run(
        [sys.executable, "-c", NO_JAX, str(REAL), str(FIXTURES / "v1_real_2v2_no_metrics.mbgr")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    assert report["heavy"] == []
    assert "metrics recorded (full)" in report["notes"][0]
    assert report["notes"][1].endswith("priority metrics computed from the events")


def test_layout_rects_fit_the_window():
    window = pygame.Rect((0, 0), L.SIZE)
    rects = [
        L.ARENA,
        L.SCRUB,
        L.SIDE,
        L.TABLE,
        L.INFO,
        *L.PLOTS.values(),
        *(b[2] for b in L.BUTTONS),
    ]
    assert all(window.contains(pygame.Rect(r)) for r in rects)
    assert not pygame.Rect(L.ARENA).colliderect(L.SIDE)
    assert np.isclose(pygame.Rect(L.ARENA).width / 2, 430)


def test_png_into_a_missing_folder_makes_the_folder_and_never_overwrites(tmp_path):
    import pygame

    from replay_viewer.export import save_png

    target = tmp_path / "new" / "deeper" / "x.png"
    surface = pygame.Surface((4, 3))
    assert save_png(surface, target) == target and target.stat().st_size > 0
    before = target.read_bytes()
    with pytest.raises(FileExistsError, match="refusing to overwrite"):
        save_png(pygame.Surface((5, 5)), target)
    assert target.read_bytes() == before
    assert sorted(p.name for p in target.parent.iterdir()) == ["x.png"]  # no temp file left


def test_screenshot_into_an_unusable_folder_is_one_line(tmp_path, capsys, display):
    blocker = tmp_path / "afile"
    blocker.write_text("keep")
    assert main([str(FIXTURE), "--screenshot", str(blocker / "shot.png")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("replay-viewer: --screenshot:") and len(err.splitlines()) == 1
    assert blocker.read_text() == "keep"
