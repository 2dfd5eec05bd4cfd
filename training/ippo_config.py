"""The config of recurrent IPPO (training.ippo): games, batch, PPO, reward shaping, network,
run, self-play (training.selfplay), curriculum (training.curriculum_runner) and validation
(training.validation) settings, every field settable from a JSON/TOML file."""

from dataclasses import dataclass

import numpy as np

from policies import networks as nets
from training import common, curriculum_runner, selfplay


@dataclass(frozen=True)
class IPPOConfig(common.GameFields, selfplay.GhostFields):
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
    # reward = sum of w_<term> * term (common.SHAPING_TERMS; signs included)
    w_outcome: float = 1.0
    w_score: float = 0.05
    w_dealt: float = 0.05
    w_taken: float = -0.02
    w_healed: float = 0.05
    w_kills: float = 0.05
    w_deaths: float = -0.05
    # network (policies.networks.NetworkConfig)
    embed: int = 32
    torso: int = 64
    hidden: int = 64
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
    # curriculum (training.curriculum_runner): "" (maps, rosters, score_threshold above),
    # "builtin" (maps 0-11, 1v1 to 5v5) or a stages file; a stage advances at advance_win_rate
    # over advance_games games against its opponents, or after stage_budget env-steps (0: none)
    curriculum: str = ""
    advance_win_rate: float = 0.7
    advance_games: int = 200
    stage_budget: int = 0
    # validation checks (training.validation): every validate_every updates (0: none), the
    # point margin over validation_games side-swapped games against each panel member on
    # the validation maps; the keep_best best checks' policies are kept
    validate_every: int = 0
    validation_games: int = 20
    validation_panel: tuple = ("random", "scripted:brawler", "scripted:kiter", "scripted:tactician")
    keep_best: int = 3

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
        self.stages  # noqa: B018  (every stage refuses held-out and scenario maps)
        curriculum_runner.AdvanceRule(self.advance_win_rate, self.advance_games, self.stage_budget)
        if self.validate_every < 0 or self.validation_games < 2 or self.validation_games % 2:
            raise ValueError(
                f"IPPOConfig.validate_every {self.validate_every} must be >= 0 and "
                f"validation_games {self.validation_games} even and >= 2"
            )
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
    def stages(self) -> tuple:
        return curriculum_runner.load_stages(
            self.curriculum, self.maps, self.rosters, self.score_threshold
        )

    @property
    def schedule(self) -> curriculum_runner.CurriculumRunner:
        """The run's stages, advance rule and team change (builds every stage's pool)."""
        rule = curriculum_runner.AdvanceRule(
            self.advance_win_rate, self.advance_games, self.stage_budget
        )
        return curriculum_runner.CurriculumRunner(self.stages, rule, self.team_change, self.p_east)

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

    @property
    def weights(self) -> np.ndarray:
        return np.array([getattr(self, f"w_{k}") for k in common.SHAPING_TERMS], np.float32)
