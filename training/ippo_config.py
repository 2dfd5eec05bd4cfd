"""The config of recurrent IPPO (training.ippo): games, batch, PPO, reward shaping, network,
run, self-play (training.selfplay), curriculum (training.curriculum_runner) and validation
(training.validation) settings, every field settable from a JSON/TOML file."""

from dataclasses import dataclass

from policies import networks as nets
from training import common, run_schedule, selfplay


@dataclass(frozen=True)
class IPPOConfig(
    common.GameFields,
    common.RewardFields,
    common.NetworkSizeFields,
    selfplay.GhostFields,
    run_schedule.ScheduleFields,
):
    """Everything a run needs; a JSON/TOML file may set any field (`common.load_config`)."""

    # games: common.GameFields (maps, rosters, p_east, score_threshold, horizon, opponents)
    # frozen partners: a slot spec on some of Team A's slots, played by that fixed System in
    # every game (ad hoc teamwork), e.g. "A3-A4=scripted:tactician"; "" for none
    partners: str = ""
    # batch: env-steps per update = num_envs * rollout (one env-step = one tick of one game)
    num_envs: int = 64
    rollout: int = 32
    total_steps: int = 2_000_000
    # PPO
    lr: float = 5e-4
    gamma: float = 0.995
    gae_lambda: float = 0.95
    clip_eps: float = 0.2
    vf_coef: float = 0.5
    ent_coef: float = 0.01
    max_grad_norm: float = 0.5
    epochs: int = 4
    minibatches: int = 4
    # A minibatch's gradient is summed over chunks of at most this many agent sequences: the
    # same gradient (up to float rounding), but each chunk's activations stay in the CPU's
    # caches, which made the PPO epochs about 20% faster on this machine (chunks of 15-30).
    grad_chunk: int = 16
    # reward weights: common.RewardFields (w_outcome ... w_deaths); network widths:
    # common.NetworkSizeFields (embed, torso, hidden)
    recurrent: bool = True  # False: feed-forward (training.ippo_ff)
    # run
    seed: int = 0
    # Host devices (CPU cores) the games and the PPO epochs are split over, each device
    # collecting num_envs / devices games, gradients summed across them (training.parallel);
    # `mbg train` asks XLA for that many. 1 keeps everything on one device.
    devices: int = 1
    updates_per_log: int = 5  # updates per jitted chunk (one progress/log line)
    logs_per_checkpoint: int = 4  # chunks between Orbax checkpoints
    # self-play with ghost opponents (the "pool" opponent kind): selfplay.GhostFields
    # (save_steps, team_change, swap_steps, play_against_latest_model_ratio, window, elo_k)
    # curriculum and validation checks: run_schedule.ScheduleFields (curriculum,
    # advance_win_rate, advance_games, stage_budget, validate_every, validation_games,
    # validation_panel, keep_best)

    def __post_init__(self):
        positive = ("num_envs", "rollout", "epochs", "minibatches", "updates_per_log", "devices")
        for name in positive + ("logs_per_checkpoint", "embed", "torso", "hidden", "grad_chunk"):
            if getattr(self, name) < 1:
                raise ValueError(f"IPPOConfig.{name}: {getattr(self, name)!r} must be >= 1")
        if self.total_steps < 0:
            raise ValueError(f"IPPOConfig.total_steps: {self.total_steps!r} must be >= 0")
        common.check_training_maps(list(self.maps))
        if self.num_envs % self.devices:
            raise ValueError(
                f"IPPOConfig.devices: {self.devices} must divide num_envs ({self.num_envs})"
            )
        self.ghost  # noqa: B018  (GhostConfig checks its fields)
        self.check_schedule()
        local = self.local_learners
        if local % self.minibatches:
            where = f" of each of the {self.devices} devices" if self.devices > 1 else ""
            raise ValueError(
                f"IPPOConfig.minibatches: {self.minibatches} must divide the "
                f"{local} learner agent sequences of a rollout{where}"
            )

    @property
    def network(self) -> nets.NetworkConfig:
        sizes = {"embed": self.embed, "torso": self.torso, "hidden": self.hidden}
        return nets.NetworkConfig(**sizes, recurrent=self.recurrent)

    @property
    def steps_per_update(self) -> int:
        return self.num_envs * self.rollout

    @property
    def local_learners(self) -> int:
        """Learner agent sequences collected by one device (all of them when devices is 1)."""
        games = self.num_envs // self.devices
        groups = common.opponent_groups(self.opponents, games)
        return int(common.learner_slots(groups, games, self.partners).sum())

    @property
    def num_learners(self) -> int:
        return self.local_learners * self.devices
