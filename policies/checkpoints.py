"""One-file policy checkpoints and the `checkpoint:PATH` System kind.

A policy file is one msgpack document (flax.serialization), written atomically and never over
an existing file::

    {"format": "mbg-policy", "format_version": 1,
     "obs_version": engine.types.OBS_VERSION at training time,
     "network": {"kind": one of NETWORK_KINDS, "embed": .., "torso": .., "hidden": ..,
                 "layer_norm": .. (absent in older files: False)},
     "training": {free metadata: algorithm, env_steps, updates, config, ...},
     "params": the flax parameter tree (NumPy arrays)}

Loading checks the format, both versions and every parameter's path and shape against the
network the metadata names, and lists everything that does not match. Importing this module
registers the slot-spec kind `checkpoint:PATH` (policies.slotspec), so the BattleClient,
`mbg play`, matches and `mbg eval` all load a policy the same way.

Network kinds: the actor-critic kinds of policies.networks.KINDS (recurrent or feed-forward,
with or without a value head; read as a policy: sampled, or greedy with `#greedy`) and
"gru_q_network" (the recurrent actor-critic's layers read as agent Q-values by the Q learners,
training.qlearning: its System always takes the greedy legal action).
"""

import functools
import os
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import msgpack
import numpy as np
from flax import serialization, traverse_util

from engine import constants as C
from engine.types import OBS_VERSION, Actions, Masks, Obs
from fileio import write_new_file
from policies import networks as nets
from policies.slotspec import register_kind
from policies.system import System, as_system

FORMAT = "mbg-policy"
FORMAT_VERSION = 1
NETWORK_KIND = "gru_actor_critic"  # recurrent IPPO's; the actor-critic kinds are nets.KINDS
Q_NETWORK_KIND = "gru_q_network"  # the recurrent actor-critic's network read as Q-values
NETWORK_KINDS = (*nets.KINDS.values(), Q_NETWORK_KIND)


class CheckpointError(ValueError):
    """A policy file that cannot be used; the message names the file and every mismatch."""


class PolicyCheckpoint(NamedTuple):
    """A loaded policy: parameters (NumPy tree), its network config and the file's metadata."""

    params: Any
    network: nets.NetworkConfig
    training: dict
    path: Path
    kind: str = NETWORK_KIND  # one of NETWORK_KINDS


def write_new(path: str | os.PathLike, data: bytes) -> Path:
    """Write `data` to a new file atomically (`fileio.write_new_file`). Raises
    FileExistsError rather than overwrite anything."""
    return write_new_file(path, data, "exists; refusing to overwrite it")


def save_policy(
    path: str | os.PathLike,
    params: Any,
    network: nets.NetworkConfig,
    training: dict,
    kind: str | None = None,
) -> Path:
    """Write a policy file (see the module docstring); `kind` is one of NETWORK_KINDS, by
    default the network's own (NetworkConfig.kind). Raises FileExistsError."""
    doc = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "obs_version": OBS_VERSION,
        "network": {"kind": kind or network.kind, **network.to_dict()},
        "training": training,
        "params": jax.tree.map(np.asarray, serialization.to_state_dict(params)),
    }
    return write_new(path, serialization.msgpack_serialize(doc))


def expected_shapes(network: nets.NetworkConfig) -> dict[str, tuple]:
    """{"params/Dense_0/kernel": shape, ...} of a freshly built network, without computing."""
    obs = _dummy_obs(1)
    tree = jax.eval_shape(lambda k: nets.init_params(network, k, obs), jax.random.PRNGKey(0))
    return {"/".join(k): tuple(v.shape) for k, v in traverse_util.flatten_dict(tree).items()}


def _dummy_obs(n: int) -> Obs:
    from engine.types import CONTEXT_DIM, ROW_DIM

    def zeros(*shape, dtype=jnp.float32):
        return jnp.zeros((n, *shape), dtype)

    mask = Masks(
        move=zeros(C.NUM_MOVES, dtype=bool),
        pair=zeros(C.NUM_TARGETS, C.NUM_ULT, dtype=bool),
        target=zeros(C.NUM_TARGETS, dtype=bool),
        ult=zeros(C.NUM_ULT, dtype=bool),
        flat=zeros(C.NUM_FLAT, dtype=bool),
    )
    return Obs(
        units=zeros(C.NUM_SLOTS, ROW_DIM),
        visible=zeros(C.NUM_SLOTS, dtype=bool),
        relayed=zeros(C.NUM_SLOTS, dtype=bool),
        public=zeros(C.NUM_SLOTS, 3),
        obstacles=zeros(C.MAX_OBSTACLES, C.OBSTACLE_FEATURES),
        context=zeros(CONTEXT_DIM),
        prev_action=zeros(C.NUM_SLOTS, 3, dtype=jnp.int32),
        class_id=zeros(dtype=jnp.int32),
        self_index=zeros(dtype=jnp.int32),
        mask=mask,
    )


def _network_config(doc: dict, problems: list[str]) -> nets.NetworkConfig | None:
    net = doc.get("network")
    if not isinstance(net, dict):
        problems.append("field 'network' is missing")
        return None
    kind = net.get("kind")
    if kind not in NETWORK_KINDS:
        problems.append(f"network.kind is {kind!r}, this code builds {sorted(NETWORK_KINDS)}")
        return None
    fields = {k: v for k, v in net.items() if k != "kind"}
    structure = NETWORK_KIND if kind == Q_NETWORK_KIND else kind  # same layers, other reading
    try:
        sizes = {k: bool(v) if k == "layer_norm" else int(v) for k, v in fields.items()}
        return nets.NetworkConfig.from_kind(structure, **sizes)
    except (TypeError, ValueError) as error:
        problems.append(f"network: {error}")
        return None


def _check_params(params: Any, network: nets.NetworkConfig, problems: list[str]) -> None:
    if not isinstance(params, dict):
        problems.append("field 'params' is missing")
        return
    found = {"/".join(k): tuple(np.shape(v)) for k, v in traverse_util.flatten_dict(params).items()}
    wanted = expected_shapes(network)
    for name in sorted(set(wanted) - set(found)):
        problems.append(f"parameter {name}: missing (expected shape {wanted[name]})")
    for name in sorted(set(found) - set(wanted)):
        problems.append(f"parameter {name}: not part of the network")
    for name in sorted(set(found) & set(wanted)):
        if found[name] != wanted[name]:
            problems.append(f"parameter {name}: shape {found[name]}, expected {wanted[name]}")


NOT_A_POLICY = "not a policy file (a msgpack checkpoint written by mbg train)"
FOLDER_NOT_POLICY = "is a folder, not a policy file; name one of its .msgpack files"


def _unreadable(data: bytes, error: Exception) -> str:
    """Why `data` does not read as one msgpack document, in words rather than the library's
    ("unpack(b) received extra data.": a text file's first byte is a whole msgpack number)."""
    if not data:
        return "the file is empty"
    if isinstance(error, msgpack.exceptions.ExtraData):
        return "its bytes are not one msgpack document (more follows the first value)"
    if isinstance(error, ValueError) and "incomplete" in str(error):
        return "it ends inside a msgpack value (cut short?)"
    return "its bytes are not msgpack"


def _read_document(path: Path) -> dict:
    """The msgpack document of a policy file, as far as its format field. Raises
    CheckpointError "PATH: not a policy file (...): REASON"."""
    data = path.read_bytes()
    try:
        doc = serialization.msgpack_restore(data)
    except Exception as error:  # msgpack raises several unrelated types on bad bytes
        raise CheckpointError(f"{path}: {NOT_A_POLICY}: {_unreadable(data, error)}") from None
    if not isinstance(doc, dict):
        reason = f"it holds a {type(doc).__name__}, not a policy's fields"
        raise CheckpointError(f"{path}: {NOT_A_POLICY}: {reason}")
    if doc.get("format") != FORMAT:
        reason = f"field 'format' is {doc.get('format')!r}, not {FORMAT!r}"
        raise CheckpointError(f"{path}: {NOT_A_POLICY}: {reason}")
    return doc


def load_policy(path: str | os.PathLike) -> PolicyCheckpoint:
    """Read and check a policy file. Raises FileNotFoundError, or CheckpointError naming the
    file: one that is not a policy file at all (not msgpack, no 'format' field of
    'mbg-policy'), or every mismatch (format version, observation version, network,
    parameters)."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(f"{path}: {FOLDER_NOT_POLICY}")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such policy file")
    doc = _read_document(path)
    problems = []
    if doc.get("format_version") != FORMAT_VERSION:
        problems.append(
            f"format_version is {doc.get('format_version')!r}, this code reads {FORMAT_VERSION}"
        )
    if doc.get("obs_version") != OBS_VERSION:
        problems.append(
            f"obs_version is {doc.get('obs_version')!r}, the engine's observations are "
            f"version {OBS_VERSION}"
        )
    network = _network_config(doc, problems)
    if network is not None:
        _check_params(doc.get("params"), network, problems)
    if problems:
        raise CheckpointError(f"{path}: cannot load this policy: " + "; ".join(problems))
    training = doc.get("training") if isinstance(doc.get("training"), dict) else {}
    return PolicyCheckpoint(doc["params"], network, training, path, doc["network"]["kind"])


def policy_system(policy: PolicyCheckpoint, name: str = "", greedy: bool = False) -> System:
    """A JAX System playing `policy` for all ten slots; carry = GRU state (10, H).

    Actions are sampled from the masked policy (key used), or the most likely legal ones with
    greedy=True or for a Q network (policy.kind Q_NETWORK_KIND: its heads are Q-value
    advantages, training.qlearning); either way only legal actions come out.
    """
    greedy = greedy or policy.kind == Q_NETWORK_KIND
    network = nets.ActorCritic(policy.network)
    params = jax.tree.map(jnp.asarray, policy.params)

    def act(obs: Obs, masks: Masks, carry, key) -> tuple[Actions, Any]:
        obs = obs.replace(mask=masks)
        reset = jnp.zeros(C.NUM_SLOTS, bool)  # a fresh carry starts each game
        hidden, heads = network.apply(params, carry, obs, reset)
        if greedy:
            move = nets.greedy_masked(heads.move, masks.move)
            pair = nets.greedy_masked(heads.pair, masks.pair.reshape(C.NUM_SLOTS, -1))
        else:
            move, pair = nets.sample_actions(key, heads, obs)
        return nets.to_actions(move, pair), hidden

    def initial_carry():
        return nets.initial_hidden(policy.network, C.NUM_SLOTS)

    return as_system(act, initial_carry=initial_carry, name=name or f"checkpoint:{policy.path}")


@functools.cache
def _cached_system(path: str, stamp: tuple, name: str, greedy: bool) -> System:
    del stamp  # part of the cache key only: a rewritten file is loaded again
    return policy_system(load_policy(path), name=name, greedy=greedy)


GREEDY_SUFFIX = "#greedy"


def checkpoint_system(arg: str) -> System:
    """The System of the spec argument `PATH` or `PATH#greedy` (one cached System per file
    version, so equal lineups reuse compiled matches). Raises ValueError / FileNotFoundError."""
    greedy = arg.endswith(GREEDY_SUFFIX)
    path_text = arg[: -len(GREEDY_SUFFIX)] if greedy else arg
    if not path_text:
        raise ValueError("slot spec: 'checkpoint' needs a path, e.g. checkpoint:policy.msgpack")
    path = Path(path_text).expanduser()
    if path.is_dir():
        raise IsADirectoryError(f"{path}: {FOLDER_NOT_POLICY} (slot spec checkpoint:{arg})")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such policy file (slot spec checkpoint:{arg})")
    stat = path.stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    return _cached_system(str(path.resolve()), stamp, f"checkpoint:{arg}", greedy)


def _checkpoint_factory(arg: str, slots: tuple[int, ...]) -> System:
    del slots  # the System answers for all ten slots; the lineup picks its own
    return checkpoint_system(arg)


register_kind("checkpoint", _checkpoint_factory, "checkpoint:PATH[#greedy]")
