"""Feed-forward IPPO: training.ippo's learner with the GRU replaced by a Dense layer.

The paper's feed-forward IPPO baseline (seed 000, sections 6 and 7.3): the same shared
actor-critic inputs, heads, opponents, rewards and PPO updates as recurrent IPPO, but each
agent acts on its current observation alone (policies.networks.NetworkConfig recurrent=False;
the network's hidden state passes through unchanged, so the rollout and the sequence replay of
training.ippo apply as they are). `mbg train ippo-ff` runs it; its policy files carry the
network kind "ff_actor_critic" and load by slot spec `checkpoint:PATH` like any other.
"""

from dataclasses import dataclass
from pathlib import Path

from training import ippo, run_schedule

ALGORITHM = "ippo-ff"


@dataclass(frozen=True)
class IPPOFFConfig(ippo.IPPOConfig):
    """training.ippo.IPPOConfig with recurrent=False by default."""

    recurrent: bool = False


def make_train(config: IPPOFFConfig, axis_name: str | None = None) -> ippo.Trainer:
    """training.ippo.make_train (the network kind comes from config.recurrent)."""
    return ippo.make_train(config, axis_name)


def run(config, out: str | Path, resume: bool = False, steps: int | None = None, show=True):
    """Train or resume a feed-forward IPPO run in `out` as training.ippo.run does: the same
    ghost pool, curriculum, validation checks and devices (training.run_schedule).
    Returns (final RunnerState, path of the exported policy checkpoint)."""
    return run_schedule.run_scheduled(
        make_train, IPPOFFConfig, ALGORITHM, config, out, resume, steps, show
    )
