"""Replay Viewer robustness: unreadable files say why in full, the folder list marks them,
the status line fits, and an idle window waits on the event queue instead of spinning."""

import zlib

import msgpack
import pygame
import pytest

from evaluation.replay import encode_replay, write_replay
from replay_viewer import layout as L
from replay_viewer.app import App
from replay_viewer.folder import list_replays
from tests.helpers.replays import synthetic_replay
from tests.helpers.viewer import frame, key

LONG_NAME = "game0001_map47_A-west_ippo-v1-against-scripted-tactician-seed-123456.mbgr"


@pytest.fixture
def viewer(display):
    return App(L.SIZE)


def status_fits(app) -> None:
    font, lines = app.status_lines()
    assert len(lines) * font.get_linesize() <= L.STATUS[3]
    assert all(font.size(line)[0] <= L.STATUS[2] - 8 for line in lines)
    assert " ".join(line.strip() for line in lines) == app.message  # nothing was cut


def test_an_unopenable_file_shows_the_whole_reason_in_a_window(viewer, tmp_path):
    folder = tmp_path / "a-rather-long-folder-name-for-replays-of-the-evening-tournament"
    folder.mkdir()
    data = encode_replay(synthetic_replay(40, seed=1))
    path = folder / LONG_NAME
    path.write_bytes(data[: len(data) // 2])
    assert not viewer.open_path(path)
    window = viewer.problem_window
    assert window is not None and window.alive()
    assert window.window_display_title == f"Cannot open {LONG_NAME}"
    text = window.text_block.html_text
    assert str(path) in text and "body: file ends early (truncated)" in text
    assert viewer.problem == f"Cannot open {path}: body: file ends early (truncated)"
    frame(viewer)
    status_fits(viewer)
    frame(viewer, [key(pygame.K_ESCAPE)])
    assert viewer.problem_window is None and not window.alive()
    assert viewer.open_path(write_replay(tmp_path / "ok.mbgr", synthetic_replay(3, seed=2)))


def test_folder_marks_truncated_files_from_the_header_alone(viewer, tmp_path, monkeypatch):
    data = encode_replay(synthetic_replay(40, seed=2))  # its header is well under half of it
    n = len(data)
    (tmp_path / "a_whole.mbgr").write_bytes(data)
    (tmp_path / "b_cut.mbgr").write_bytes(data[:-10])
    (tmp_path / "c_half.mbgr").write_bytes(data[: n // 2])
    (tmp_path / "d_stub.mbgr").write_bytes(data[:40])

    def no_decompress(*args):
        raise AssertionError("the folder list decompressed a body")

    monkeypatch.setattr(zlib, "decompress", no_decompress)
    entries = list_replays(tmp_path)
    assert entries[0].header is not None and "unreadable" not in entries[0].label()
    assert entries[1].label() == f"b_cut.mbgr  (unreadable: truncated: {n - 10:,} of {n:,} bytes)"
    assert entries[2].label() == f"c_half.mbgr  (unreadable: truncated: {n // 2:,} of {n:,} bytes)"
    assert entries[3].label() == (
        "d_stub.mbgr  (unreadable: ends before the header (empty or truncated))"
    )
    assert viewer.open_path(tmp_path)
    assert viewer.message.startswith("4 replays (3 unreadable) in ")


def test_folder_names_the_header_field_that_is_wrong(tmp_path):
    data = encode_replay(synthetic_replay(3, seed=3))
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    preamble = unpacker.unpack()
    body = data[unpacker.tell() :]
    del preamble["header"]["roster"]  # a consistent checksum: only the field is wrong
    preamble["header_crc"] = zlib.crc32(msgpack.packb(preamble["header"], use_bin_type=True))
    (tmp_path / "no_roster.mbgr").write_bytes(msgpack.packb(preamble, use_bin_type=True) + body)
    preamble["header_crc"] ^= 1
    (tmp_path / "worse.mbgr").write_bytes(msgpack.packb(preamble, use_bin_type=True) + body)
    entries = list_replays(tmp_path)
    assert entries[0].label() == "no_roster.mbgr  (unreadable: header.roster: missing)"
    assert entries[1].label() == (
        "worse.mbgr  (unreadable: header: checksum mismatch (the file is corrupted))"
    )


def test_the_opening_status_line_fits(viewer, tmp_path):
    path = write_replay(tmp_path / LONG_NAME, synthetic_replay(40, seed=4))
    assert viewer.open_path(path)
    assert LONG_NAME in viewer.message and "40 ticks" in viewer.message and "?" in viewer.message
    frame(viewer)
    status_fits(viewer)
    viewer.say("x" * 400)  # no spaces: elided in its middle rather than drawn past the window
    font, lines = viewer.status_lines()
    assert [line.count("...") for line in lines] == [1]
    assert font.size(lines[0])[0] <= L.STATUS[2] - 8 < font.size("x" * 400)[0]


def fake_queue(monkeypatch, quit_after_waits=None, quit_after_gets=None):
    """Replaces pygame's event wait and get; records wait timeouts; posts QUIT when told."""
    waits, gets = [], []

    def wait(timeout):
        waits.append(timeout)
        if quit_after_waits is not None and len(waits) >= quit_after_waits:
            return pygame.event.Event(pygame.QUIT)
        return pygame.event.Event(pygame.NOEVENT)

    def get():
        gets.append(1)
        if quit_after_gets is not None and len(gets) >= quit_after_gets:
            return [pygame.event.Event(pygame.QUIT)]
        return []

    monkeypatch.setattr(pygame.event, "wait", wait)
    monkeypatch.setattr(pygame.event, "get", get)
    return waits


def test_an_idle_viewer_waits_on_the_event_queue(app, display, monkeypatch):
    # QUIT after 200 polls too, so a loop that never waits ends (and fails) instead of hanging
    waits = fake_queue(monkeypatch, quit_after_waits=3, quit_after_gets=200)
    app.run(display)  # paused replay, no input: after the linger it blocks in event.wait
    assert waits == [83, 83, 83]  # 1000 ms / 12 frames a second
    assert not app.running


def test_a_playing_viewer_keeps_its_frame_rate(app, display, monkeypatch):
    app.act("play")
    waits = fake_queue(monkeypatch, quit_after_gets=5)
    app.run(display)
    assert waits == [] and app.busy()
