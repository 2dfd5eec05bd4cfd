"""What a run does between its jitted chunks of updates, for any learner whose runner state
carries `curriculum` (training.curriculum_runner.CurriculumState), `pool` (the engine Pool new
games are drawn from), `ghost` (training.selfplay.GhostState), `update` and `params`:

1. the curriculum: record the chunk's games against the stage's opponents, advance the stage
   or change the learning side (team_change) and hand the runner the new pool;
2. the logs: the learner's Elo, the fixed entrants' and the pool's (training.selfplay), the
   stage and its window win rate, into the chunk's scalars (terminal, TensorBoard, JSON lines);
3. validation checks every `validate_every` updates (training.validation).

All of it is a function of the runner and the chunk's scalars, so a resumed run repeats it
exactly; validation records made after the checkpoint a run resumes from are dropped first.

`ScheduleFields` are the config fields of both (every learner's config has them: IPPO's
family and the Q learners), `run_scheduled` the run of any learner whose runner carries the
fields above.
"""

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from training import curriculum_runner, ghosts, runs, selfplay, validation

PANEL = ("random", "scripted:brawler", "scripted:kiter", "scripted:tactician")


@dataclass(frozen=True)
class ScheduleFields:
    """The curriculum and validation fields of a learner's config (with GameFields' maps,
    rosters, score_threshold, p_east and GhostFields' team_change beside them).

    curriculum (training.curriculum_runner): "" (one stage of the config's maps, rosters and
    score_threshold), "builtin" (maps 0-11, 1v1 to 5v5) or a stages file; a stage advances at
    advance_win_rate over advance_games games against its opponents, or after stage_budget
    env-steps (0: none). Validation checks (training.validation): every validate_every updates
    (0: none), the point margin over validation_games side-swapped games against each
    validation_panel member (slot specs) on the validation maps; the policies of the keep_best
    best checks are kept."""

    curriculum: str = ""
    advance_win_rate: float = 0.7
    advance_games: int = 200
    stage_budget: int = 0
    validate_every: int = 0
    validation_games: int = 20
    validation_panel: tuple = PANEL
    keep_best: int = 3

    def check_schedule(self) -> None:
        """Raise ValueError naming the config class and field of a value out of range, or a
        stage that draws a held-out or scenario map."""
        name = type(self).__name__
        self.stages  # noqa: B018  (every stage refuses held-out and scenario maps)
        try:
            self.rule  # noqa: B018
        except ValueError as error:
            raise ValueError(f"{name}.advance_*/stage_budget: {error}") from None
        if self.validate_every < 0 or self.validation_games < 2 or self.validation_games % 2:
            raise ValueError(
                f"{name}.validate_every {self.validate_every} must be >= 0 and "
                f"validation_games {self.validation_games} even and >= 2"
            )
        if self.keep_best < 1 or not self.validation_panel:
            raise ValueError(
                f"{name}.keep_best {self.keep_best} must be >= 1 and validation_panel "
                f"{self.validation_panel!r} name at least one opponent"
            )

    @property
    def stages(self) -> tuple:
        return curriculum_runner.load_stages(
            self.curriculum, self.maps, self.rosters, self.score_threshold
        )

    @property
    def rule(self) -> curriculum_runner.AdvanceRule:
        return curriculum_runner.AdvanceRule(
            self.advance_win_rate, self.advance_games, self.stage_budget
        )

    @property
    def schedule(self) -> curriculum_runner.CurriculumRunner:
        """The run's stages, advance rule and team change (builds every stage's pool)."""
        return curriculum_runner.CurriculumRunner(
            self.stages, self.rule, self.team_change, self.p_east
        )


def opponent_results(values: dict, kinds) -> tuple[float, float]:
    """(wins, games) of a chunk's finished games against every opponent but the learner."""
    wins = games = 0.0
    for kind in kinds:
        if kind == "self":  # the learner on both sides: no one to beat
            continue
        finished = values.get(f"games/{kind}/finished", 0.0)
        games += finished
        wins += values.get(f"games/{kind}/win", 0.0) * finished
    return wins, games


class RunSchedule:
    """The after_chunk hook of training.runs.train_loop (module docstring)."""

    def __init__(self, out: Path, config, algorithm: str, groups, fixed_names, schedule):
        self.out, self.config, self.algorithm = Path(out), config, algorithm
        self.kinds = tuple(g.kind for g in groups)
        self.fixed_names, self.schedule = tuple(fixed_names), schedule
        self._resumed_checked = False

    def __call__(self, runner, values: dict, started: int):
        config = self.config
        env_steps = int(runner.update) * config.steps_per_update
        if not self._resumed_checked:
            validation.forget_after(self.out, started * config.steps_per_update)
            self._resumed_checked = True
        wins, games = opponent_results(values, self.kinds)
        trainer_steps = int(runner.ghost.trainer_steps)
        state, changed = self.schedule.after_chunk(
            runner.curriculum, wins, games, env_steps, trainer_steps
        )
        runner = runner._replace(curriculum=state)
        if changed:
            runner = runner._replace(pool=self.schedule.pool(state))
        values.update(selfplay.ghost_scalars(runner.ghost, self.fixed_names))
        values.update(self.schedule.scalars(state))
        every = config.validate_every
        if (
            every
            and int(runner.update) // every > (int(runner.update) - config.updates_per_log) // every
        ):
            policy = runs.export_policy(
                self.out, config, runner, self.algorithm, folder=self.out / "validation"
            )
            record = validation.run_check(
                self.out, policy, env_steps, config.validation_panel,
                config.validation_games, config.keep_best,
            )  # fmt: skip
            values["validation/margin"] = record["margin"]
        return runner


def stage_program(make_train, config, threshold: int):
    """runs.compiled_chunk's (trainer, jitted init, jitted chunk) of a curriculum stage whose
    score threshold is `threshold` (a static engine Config field): one per threshold for the
    process, shared by runs of any length (total_steps is not part of the program)."""
    stage_config = dataclasses.replace(config, total_steps=0, score_threshold=threshold)
    return runs.compiled_chunk(make_train, stage_config)


def run_scheduled(make_train, cls, algorithm, config, out, resume, steps, show,
                  policy_params=None):  # fmt: skip
    """Train (or resume, exactly) a run of a learner built by `make_train` (its runner with
    the curriculum, pool and ghost fields of the module docstring) in `out` until
    config.total_steps env-steps (`steps` overrides it), with a `RunSchedule` between chunks:
    the curriculum's stages (each score threshold its own compiled chunk), Elo logs and
    validation checks. algorithm: the learner's name, or a function of the run's config that
    gives it (MAPPO's, recurrent or not); cls: the config class a run without `config` reads
    or defaults to; policy_params(runner): the exported policy's parameters (MAPPO's actor).
    Returns (final runner, path of the exported policy checkpoint); raises as
    training.runs.run_config."""
    out = Path(out)
    config = runs.run_config(out, cls, config, resume, steps)
    algorithm = algorithm(config) if callable(algorithm) else algorithm
    schedule = config.schedule

    def stage_chunk(runner):
        threshold = schedule.stage(runner.curriculum).score_threshold
        return stage_program(make_train, config, threshold)[2](runner)

    trainer, init, _ = stage_program(make_train, config, schedule.stages[0].score_threshold)
    layout = ghosts.ghost_layout(trainer.groups, config.num_envs)
    hook = RunSchedule(out, config, algorithm, trainer.groups, layout.fixed_names, schedule)
    return runs.train_loop(
        out, config, trainer, init, stage_chunk, resume, show, algorithm,
        policy_params=policy_params, after_chunk=hook,
    )  # fmt: skip
