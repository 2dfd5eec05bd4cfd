"""Policy files: round trip, refusal to overwrite, version and shape checks, the slot-spec kind."""

import jax
import msgpack
import numpy as np
import pytest
from flax import serialization

from cli.train import record, wilson
from engine import constants as C
from engine.types import OBS_VERSION
from policies import checkpoints as ck
from policies import networks as nets
from policies.slotspec import resolve_slots

SMALL = nets.NetworkConfig(embed=8, torso=16, hidden=8)


@pytest.fixture
def policy_file(tmp_path, random_obs):
    params = nets.init_params(SMALL, jax.random.PRNGKey(0), random_obs(jax.random.PRNGKey(1), 4))
    path = ck.save_policy(tmp_path / "p.msgpack", params, SMALL, {"env_steps": 1234})
    return path, params


def _leaves(tree):
    return [np.asarray(x) for x in jax.tree.leaves(tree)]


def test_round_trip_keeps_parameters_bit_for_bit_and_metadata(policy_file):
    path, params = policy_file
    loaded = ck.load_policy(path)
    assert loaded.network == SMALL and loaded.training == {"env_steps": 1234}
    assert jax.tree.structure(loaded.params) == jax.tree.structure(
        jax.tree.map(np.asarray, serialization.to_state_dict(params))
    )
    for a, b in zip(_leaves(loaded.params), _leaves(params), strict=True):
        assert a.dtype == b.dtype and np.array_equal(a, b)


def test_save_never_overwrites_and_leaves_no_temp_file(policy_file):
    path, params = policy_file
    before = path.read_bytes()
    with pytest.raises(FileExistsError, match="refusing to overwrite"):
        ck.save_policy(path, params, SMALL, {"env_steps": 1})
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == ["p.msgpack"]


def _rewrite(path, tmp_path, **changes):
    doc = serialization.msgpack_restore(path.read_bytes())
    doc.update(changes)
    out = tmp_path / "changed.msgpack"
    out.write_bytes(serialization.msgpack_serialize(doc))
    return out


def test_load_names_every_version_mismatch(policy_file, tmp_path):
    path, _ = policy_file
    bad = _rewrite(path, tmp_path, obs_version=OBS_VERSION + 98, format_version=7)
    with pytest.raises(ck.CheckpointError) as error:
        ck.load_policy(bad)
    text = str(error.value)
    assert str(bad) in text
    assert f"obs_version is {OBS_VERSION + 98}" in text
    assert f"the engine's observations are version {OBS_VERSION}" in text
    assert "format_version is 7, this code reads 1" in text


def test_load_lists_parameters_that_do_not_fit_the_network(policy_file, tmp_path):
    path, _ = policy_file
    network = {"kind": ck.NETWORK_KIND, "embed": 8, "torso": 16, "hidden": 12}
    with pytest.raises(
        ck.CheckpointError,
        match=r"parameter params/GRUCell_0/in/kernel: shape \(16, 8\), expected \(16, 12\)",
    ):
        ck.load_policy(_rewrite(path, tmp_path, network=network))


def test_load_rejects_files_that_are_not_policies(tmp_path):
    junk = tmp_path / "junk.msgpack"
    junk.write_bytes(msgpack.packb({"format": "something else"}))
    with pytest.raises(ck.CheckpointError, match="not a policy file"):
        ck.load_policy(junk)
    with pytest.raises(FileNotFoundError, match="no such policy file"):
        ck.load_policy(tmp_path / "missing.msgpack")
    with pytest.raises(IsADirectoryError) as error:
        ck.load_policy(tmp_path)
    assert str(error.value) == (
        f"{tmp_path}: is a folder, not a policy file; name one of its .msgpack files"
    )


WHAT = "not a policy file (a msgpack checkpoint written by mbg train)"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"# A README\n", "its bytes are not one msgpack document (more follows the first value)"),
        (b"", "the file is empty"),
        (b"\x92\x01", "it ends inside a msgpack value (cut short?)"),
        (b"\xc1", "its bytes are not msgpack"),
        (msgpack.packb([1, 2]), "it holds a list, not a policy's fields"),
        (msgpack.packb({"format": "x"}), "field 'format' is 'x', not 'mbg-policy'"),
    ],
)
def test_a_file_that_is_not_a_policy_says_what_one_is(content, reason, tmp_path):
    path = tmp_path / "README.md"
    path.write_bytes(content)
    with pytest.raises(ck.CheckpointError) as caught:
        ck.load_policy(path)
    assert str(caught.value) == f"{path}: {WHAT}: {reason}"


def test_checkpoint_kind_builds_a_system_that_plays_legal_actions(policy_file, random_obs):
    path, _ = policy_file
    lineup = resolve_slots(f"A*=checkpoint:{path},B*=random")
    system = lineup.owner_of(0)
    assert system.name == f"checkpoint:{path}" and not system.host
    assert resolve_slots(f"A*=checkpoint:{path},B*=random").owner_of(0) is system  # cached
    carry = system.initial_carry()
    assert carry.shape == (C.NUM_SLOTS, SMALL.hidden)
    obs = random_obs(jax.random.PRNGKey(3), C.NUM_SLOTS)
    act = jax.jit(system.act)
    for t in range(3):
        actions, carry = act(obs, obs.mask, carry, jax.random.PRNGKey(t))
        flat = (actions.move * C.NUM_TARGETS + actions.target) * C.NUM_ULT + actions.ult
        assert np.asarray(obs.mask.flat)[np.arange(C.NUM_SLOTS), np.asarray(flat)].all()
    assert np.abs(np.asarray(carry)).sum() > 0  # the GRU state moves


def test_checkpoint_kind_errors(tmp_path):
    with pytest.raises(ValueError, match="needs a path"):
        resolve_slots("A*=checkpoint:,B*=random")
    with pytest.raises(FileNotFoundError, match="no such policy file"):
        resolve_slots(f"A*=checkpoint:{tmp_path / 'nope.msgpack'},B*=random")


def test_wilson_interval_matches_hand_computation():
    # 8 of 10: centre (0.8 + 1.96^2 / 20) / (1 + 1.96^2 / 10) = 0.7167,
    # half-width 1.96 * sqrt(0.016 + 1.96^2 / 400) / 1.38415 = 0.2266
    lo, hi = wilson(8, 10)
    assert lo == pytest.approx(0.4902, abs=1e-4) and hi == pytest.approx(0.9433, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    assert wilson(4, 4)[1] == 1.0 and wilson(0, 4)[0] == 0.0  # exact, not 0.9999999999999999


def test_record_rates_and_score():
    out = record(6, 2, 2)
    assert out["games"] == 10 and out["win_rate"] == 0.6 and out["draw_rate"] == 0.2
    assert out["score"] == pytest.approx(0.7)
    assert out["loss_ci95"] == list(wilson(2, 10))
