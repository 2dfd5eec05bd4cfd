"""Feed-forward IPPO: training.ippo's learner with the GRU replaced by a Dense layer.

The paper's feed-forward IPPO baseline (seed 000, sections 6 and 7.3): the same shared
actor-critic inputs, heads, opponents, rewards and PPO updates as recurrent IPPO, but each
agent acts on its current observation alone (policies.networks.NetworkConfig recurrent=False;
the network's hidden state passes through unchanged, so the rollout and the sequence replay of
training.ippo apply as they are). `mbg train ippo-ff` runs it; its policy files carry the
network kind "ff_actor_critic" and load by slot spec `checkpoint:PATH` like any other.
"""

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from training import ippo, runs

ALGORITHM = "ippo-ff"


@dataclass(frozen=True)
class IPPOFFConfig(ippo.IPPOConfig):
    """training.ippo.IPPOConfig with recurrent=False by default."""

    recurrent: bool = False


def make_train(config: IPPOFFConfig, axis_name: str | None = None) -> ippo.Trainer:
    """training.ippo.make_train (the network kind comes from config.recurrent)."""
    return ippo.make_train(config, axis_name)


def run(config, out: str | Path, resume: bool = False, steps: int | None = None, show=True):
    """Train or resume a feed-forward IPPO run in `out` (see training.ippo.run).
    Returns (final RunnerState, path of the exported policy checkpoint)."""
    out = Path(out)
    config = runs.run_config(out, IPPOFFConfig, config, resume, steps)
    trainer, init, chunk = ippo._compiled(dataclasses.replace(config, total_steps=0))
    return runs.train_loop(out, config, trainer, init, chunk, resume, show, ALGORITHM)
