"""compute_metrics levels and errors, storage round trips, the catalog and its documentation."""

import subprocess
import sys
from pathlib import Path

import msgpack
import numpy as np
import polars as pl
import pytest

from evaluation.metrics import (
    LEVELS,
    METRICS,
    PRIORITY,
    SCHEMA,
    TOPICS,
    MetricsInputError,
    catalog_markdown,
    compute_metrics,
    metrics_from_bytes,
    metrics_to_bytes,
    search,
)
from evaluation.metrics.registry import REGISTRY
from tests.evaluation.metrics.handgame import hand_game
from tests.evaluation.metrics.randgame import random_game

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def full():
    return compute_metrics(hand_game(), "full")


def test_catalog_shape():
    assert len(TOPICS) >= 25
    assert len({m.id for m in METRICS}) == len(METRICS)
    assert set(REGISTRY) == {m.id for m in METRICS}  # no metric without a definition, or back
    for m in METRICS:
        assert m.id == f"{m.topic}.{m.id.split('.', 1)[1]}" and m.topic in TOPICS
        assert m.definition.endswith(".") and m.unit
    required = {"outcome", "score", "damage", "healing", "kills", "deaths", "focus", "trades"}
    required |= {"control", "mage", "warrior", "hunter", "rogue", "priest", "cooldown", "regen"}
    required |= {"respawn", "movement", "positioning", "red_zone", "vision", "legality"}
    assert required <= set(TOPICS)


def test_priority_is_sixteen_values_listed_in_the_catalog(full):
    priority = compute_metrics(hand_game(), "priority")
    assert priority.height == 16
    assert priority["metric"].unique(maintain_order=True).to_list() == list(PRIORITY)
    assert all(m.priority == (m.id in PRIORITY) for m in METRICS)


def test_levels_and_schema(full):
    assert LEVELS == ("none", "priority", "full")
    none = compute_metrics(hand_game(), "none")
    assert none.height == 0 and none.schema == pl.Schema(SCHEMA)
    assert full.schema == pl.Schema(SCHEMA)
    assert full.height > 1000 and full["game"].unique().to_list() == ["hand"]
    assert compute_metrics(hand_game(), "full", game="other")["game"][0] == "other"
    with pytest.raises(ValueError, match="metrics level 'most'"):
        compute_metrics(hand_game(), "most")


def test_bad_input_names_the_field():
    game = hand_game()
    del game["events"]["lethal"]
    with pytest.raises(MetricsInputError, match="events.lethal: missing"):
        compute_metrics(game, "full")
    game = hand_game()
    game["states"]["health"] = game["states"]["health"][:-1]
    with pytest.raises(
        MetricsInputError, match=r"states.health: shape \(4, 10\), expected \(5, 10\)"
    ):
        compute_metrics(game, "priority")
    game = hand_game()
    del game["visible"]
    with pytest.raises(MetricsInputError, match="visible: missing"):
        compute_metrics(game, "full")


def test_layout_fields_stored_once_are_broadcast(full):
    game = hand_game()
    for name in ("class_id", "active", "red_zones", "spawn_end"):
        game["states"][name] = game["states"][name][0]
    assert compute_metrics(game, "full").equals(full)


def test_storage_round_trip_is_exact(full):
    for level in LEVELS:
        frame = compute_metrics(hand_game(), level)
        assert metrics_from_bytes(metrics_to_bytes(frame)).equals(frame)
    several = pl.concat([full, compute_metrics(random_game(1, [1] * 10, 20), "full")])
    assert metrics_from_bytes(metrics_to_bytes(several)).equals(several)


def test_storage_is_small(full):
    assert len(metrics_to_bytes(full)) < 54_000
    assert len(metrics_to_bytes(compute_metrics(hand_game(), "priority"))) < 1_000


def test_storage_rejects_bad_bytes(full):
    with pytest.raises(ValueError, match="game.mbgr: metrics: not a metrics table"):
        metrics_from_bytes(b"\x00junk", source="game.mbgr")
    packed = msgpack.unpackb(metrics_to_bytes(full))
    packed["version"] = 99
    with pytest.raises(ValueError, match="version 99"):
        metrics_from_bytes(msgpack.packb(packed))
    packed["version"], packed["n"] = 1, packed["n"] + 1
    with pytest.raises(ValueError, match="do not hold"):
        metrics_from_bytes(msgpack.packb(packed))


def test_search(full):
    heal = search(full, "heal")
    assert heal.height > 0 and all("heal" in m for m in heal["metric"].to_list())
    assert "healing.pair_realised" in heal["metric"].to_list()
    slot2 = search(full, "HEALING.PAIR_RAW @2")
    pairs = set(zip(slot2["source"].to_list(), slot2["target"].to_list(), strict=True))
    assert pairs == {(2, 0), (2, 1), (2, 2), (0, 2), (1, 2)}  # ally pairs with slot 2 either side
    assert search(full, "no_such_metric").height == 0


def test_game_without_ticks_gives_rows_without_errors():
    game = random_game(3, [1, 2, 0, 0, 0, 3, 0, 0, 0, 0], ticks=5)
    for name in game["events"]:
        game["events"][name] = game["events"][name][:0]
    for name in game["states"]:
        game["states"][name] = game["states"][name][:1]
    game["visible"], game["relayed"] = game["visible"][:1], game["relayed"][:1]
    frame = compute_metrics(game, "full")
    ticks = frame.filter(pl.col("metric") == "outcome.ticks")["value"].to_list()
    assert ticks == [0.0] and not np.isinf(frame["value"].to_numpy()).any()


def test_docs_are_generated_from_the_catalog():
    docs = (ROOT / "docs" / "METRICS.md").read_text()
    assert docs == catalog_markdown(), "regenerate: mbg metrics --catalog --format md"
    for topic in TOPICS:
        count = sum(m.topic == topic for m in METRICS)
        assert f"| [{topic}](#{topic}) | {count} |" in docs


def test_metrics_never_import_jax():
    code = "import sys, evaluation.metrics, cli.metrics; print('jax' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert out.stdout.strip() == "False", out.stderr
