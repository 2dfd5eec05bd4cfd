"""Replay files: round trip, atomic no-clobber writes, version and corruption handling."""

import sys
import zlib
from pathlib import Path

import msgpack
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from evaluation import replay_schema  # noqa: E402
from evaluation.replay import (  # noqa: E402
    FORMAT_VERSION,
    Replay,
    ReplayError,
    decode_replay,
    encode_replay,
    read_header,
    read_replay,
    replay_summary,
    write_replay,
)
from tests.helpers.replays import synthetic_replay  # noqa: E402

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "replays"


@pytest.fixture(scope="module")
def small() -> Replay:
    return synthetic_replay(12, seed=5)


def assert_same(a: Replay, b: Replay) -> None:
    assert a.header == b.header
    for group_a, group_b in ((a.states, b.states), (a.events, b.events)):
        assert group_a.keys() == group_b.keys()
        for name in group_a:
            assert group_a[name].dtype == group_b[name].dtype, name
            np.testing.assert_array_equal(group_a[name], group_b[name], err_msg=name)
    np.testing.assert_array_equal(a.visible, b.visible)
    np.testing.assert_array_equal(a.relayed, b.relayed)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ticks=st.integers(0, 6), seed=st.integers(0, 2**16), spawn_end=st.sampled_from([0, 1]))
def test_round_trip_keeps_every_field(ticks, seed, spawn_end):
    original = synthetic_replay(ticks, seed=seed, spawn_end=spawn_end)
    back = decode_replay(encode_replay(original))
    assert_same(original, back)
    assert back.ticks == ticks


def test_layout_fields_are_stored_once_and_broadcast(small):
    data = encode_replay(small)
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    unpacker.unpack()
    body = msgpack.unpackb(zlib.decompress(unpacker.unpack()), raw=False)
    assert body["states"]["obstacles"]["shape"] == [32, 8]
    assert body["states"]["pos"]["shape"] == [13, 10, 2]
    assert decode_replay(data).states["obstacles"].shape == (13, 32, 8)


def test_write_is_atomic_and_never_overwrites(tmp_path, small):
    path = write_replay(tmp_path / "game.mbgr", small)
    before = path.read_bytes()
    with pytest.raises(FileExistsError, match="game.mbgr"):
        write_replay(path, synthetic_replay(3, seed=1))
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.mbgr"]  # no temp files left
    assert_same(small, read_replay(path))


def test_invalid_replay_is_not_written(tmp_path, small):
    bad = Replay(small.header, dict(small.states), small.events, small.visible, small.relayed)
    bad.states["health"] = bad.states["health"].astype(np.float64) * np.nan
    with pytest.raises(ReplayError, match="states.health: contains NaN"):
        write_replay(tmp_path / "bad.mbgr", bad)
    assert not (tmp_path / "bad.mbgr").exists()


def test_read_header_reads_the_listing_facts(tmp_path, small):
    path = write_replay(tmp_path / "g.mbgr", small)
    header = read_header(path)
    assert header["map"]["name"] == "synthetic"
    assert header["result"]["ticks"] == 12
    assert header["format_version"] == FORMAT_VERSION


def _repack(data: bytes, change) -> bytes:
    """Edits the preamble of encoded replay bytes (recomputing the header checksum)."""
    unpacker = msgpack.Unpacker(raw=False)
    unpacker.feed(data)
    preamble, body = unpacker.unpack(), unpacker.unpack()
    change(preamble)
    header = msgpack.packb(preamble["header"], use_bin_type=True)
    preamble["header_crc"] = zlib.crc32(header)
    return msgpack.packb(preamble, use_bin_type=True) + msgpack.packb(body)


def test_future_version_is_refused_naming_it(small):
    data = _repack(encode_replay(small), lambda p: p.update(format_version=FORMAT_VERSION + 6))
    with pytest.raises(ReplayError, match=f"format_version: version {FORMAT_VERSION + 6} is newer"):
        decode_replay(data, "future.mbgr")


def test_unknown_old_version_is_refused_naming_it(small):
    data = _repack(encode_replay(small), lambda p: p.update(format_version=0))
    with pytest.raises(ReplayError, match="format_version: 0 is not a known format version"):
        decode_replay(data)


def test_missing_header_key_names_it(small):
    data = _repack(encode_replay(small), lambda p: p["header"].pop("systems"))
    with pytest.raises(ReplayError, match="header.systems: missing"):
        decode_replay(data)


def test_missing_state_field_names_it(small):
    states = {k: v for k, v in small.states.items() if k != "cooldown"}
    bad = Replay(small.header, states, small.events, small.visible, small.relayed)
    with pytest.raises(ReplayError, match="states.cooldown: missing"):
        encode_replay(bad)


def test_wrong_shape_names_field_and_shapes(small):
    events = dict(small.events, lethal=small.events["lethal"][:, :, :9])
    bad = Replay(small.header, small.states, events, small.visible, small.relayed)
    with pytest.raises(ReplayError, match=r"events.lethal: shape \(12, 10, 9\), expected"):
        encode_replay(bad)


def test_ticks_must_agree_with_arrays(small):
    header = dict(small.header, result=dict(small.header["result"], ticks=99))
    bad = Replay(header, small.states, small.events, small.visible, small.relayed)
    with pytest.raises(ReplayError, match="header.result.ticks: 99"):
        encode_replay(bad)


def test_not_a_replay_and_empty_file(tmp_path):
    (tmp_path / "empty.mbgr").write_bytes(b"")
    with pytest.raises(ReplayError, match="empty.mbgr: file: ends before the header"):
        read_replay(tmp_path / "empty.mbgr")
    (tmp_path / "text.mbgr").write_bytes(msgpack.packb({"hello": 1}))
    with pytest.raises(ReplayError, match="no MBG-REPLAY marker"):
        read_replay(tmp_path / "text.mbgr")


@settings(max_examples=40, deadline=None)
@given(fraction=st.floats(0.0, 0.999))
def test_any_truncation_is_a_replay_error(fraction):
    data = encode_replay(synthetic_replay(4, seed=2))
    with pytest.raises(ReplayError):
        decode_replay(data[: int(len(data) * fraction)], "cut.mbgr")


@settings(max_examples=60, deadline=None)
@given(position=st.floats(0.0, 0.999), bit=st.integers(0, 7))
def test_any_flipped_bit_is_an_error_or_changes_nothing(position, bit):
    original = synthetic_replay(4, seed=2)
    data = bytearray(encode_replay(original))
    data[int(len(data) * position)] ^= 1 << bit
    try:
        back = decode_replay(bytes(data), "flipped.mbgr")
    except ReplayError:
        return
    # deflate ignores the padding bits of its last byte: the content must be untouched
    assert_same(original, back)


def test_corrupted_body_says_corrupted(small):
    data = bytearray(encode_replay(small))
    data[-50] ^= 0xFF
    with pytest.raises(ReplayError, match="body: corrupted"):
        decode_replay(bytes(data))


def test_edge_games_round_trip():
    one_tick = synthetic_replay(1, seed=3)
    assert decode_replay(encode_replay(one_tick)).ticks == 1
    fallback = synthetic_replay(6, seed=3, fallback_ticks=(2, 4))
    back = decode_replay(encode_replay(fallback))
    assert back.events["fallback"].any(axis=1).tolist() == [False, False, True, False, True, False]
    assert replay_summary(back)["fallback_ticks"] == 2


def test_300_tick_5v5_replay_is_under_one_megabyte():
    data = encode_replay(synthetic_replay(300, seed=11))
    assert len(data) < 1_000_000


def test_summary_counts(small):
    summary = replay_summary(small)
    assert summary["ticks"] == 12
    assert summary["deaths"] == [
        int(small.events["died"][:, :5].sum()),
        int(small.events["died"][:, 5:].sum()),
    ]
    assert summary["systems"] == ["scripted:synthetic"] * 10


@pytest.mark.parametrize("fixture", sorted(FIXTURES.glob("v*.mbgr")), ids=lambda p: p.name)
def test_every_kept_format_version_still_loads(fixture):
    replay = read_replay(fixture)
    assert replay.header["format_version"] == FORMAT_VERSION
    assert replay.visible.shape[0] == replay.ticks + 1


def test_a_fixture_exists_for_the_current_version():
    assert list(FIXTURES.glob(f"v{FORMAT_VERSION}_*.mbgr"))


def test_schema_matches_engine_types():
    types = pytest.importorskip("engine.types", reason="engine.types needs jax")
    import dataclasses

    for cls, table in (
        (types.State, replay_schema.STATE_FIELDS),
        (types.Events, replay_schema.EVENT_FIELDS),
    ):
        names = [f.name for f in dataclasses.fields(cls)]
        stored = [n for n in names if n not in replay_schema.DERIVED_STATE_FIELDS]
        assert sorted(stored) == sorted(table), cls.__name__
