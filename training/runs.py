"""The host side of a training run: the run directory and its config, Orbax checkpoints of the
whole runner state (exact resume), metric logs (terminal, TensorBoard, JSON lines), the progress
bar and the exported policy file. Learners provide pure functions; this module drives them.

A run directory holds config.json (the run's config), checkpoints/ (Orbax, one step per saved
update), tb/ (TensorBoard), metrics.jsonl and policy_<env-steps>.msgpack (policies.checkpoints).
"""

import contextlib
import dataclasses
import functools
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path

import jax
import numpy as np

from fileio import output_folder
from training import common


# --- Run checkpoints (Orbax) ---------------------------------------------------------------------
class RunCheckpoints:
    """Orbax checkpoints of a whole runner state (parameters, optimiser, games in flight,
    recurrent state, RNG, counters), keyed by update number; the last `keep` are kept."""

    def __init__(self, directory: Path, keep: int = 3):
        import orbax.checkpoint as ocp

        self._ocp = ocp
        options = ocp.CheckpointManagerOptions(max_to_keep=keep, create=True)
        self.manager = ocp.CheckpointManager(Path(directory).absolute(), options=options)

    def latest(self) -> int | None:
        return self.manager.latest_step()

    def save(self, step: int, runner) -> None:
        self.manager.save(int(step), args=self._ocp.args.StandardSave(_without_empty(runner)))
        self.manager.wait_until_finished()

    def restore(self, like, step: int | None = None):
        """Restore into the structure, shapes and dtypes of `like` (a fresh runner state)."""
        step = self.latest() if step is None else step
        if step is None:
            raise FileNotFoundError(f"{self.manager.directory}: no checkpoint to resume from")
        abstract = jax.tree.map(self._ocp.utils.to_shape_dtype_struct, _without_empty(like))
        got = self.manager.restore(step, args=self._ocp.args.StandardRestore(abstract))
        saved = iter(jax.tree.leaves(got))
        leaves, treedef = jax.tree.flatten(like)
        return treedef.unflatten([x if np.size(x) == 0 else next(saved) for x in leaves])

    def close(self) -> None:
        self.manager.close()


def _without_empty(tree):
    """`tree` with its zero-size arrays (e.g. the per-game opponents of a run without pool
    games) left out: Orbax refuses to save them, and they hold nothing to restore."""
    return jax.tree.map(lambda x: None if np.size(x) == 0 else x, tree)


# --- Metrics -------------------------------------------------------------------------------------
class MetricLog:
    """Scalars to TensorBoard (tensorboardX, `dir/tb`) and to `dir/metrics.jsonl`."""

    def __init__(self, directory: Path, resumed_at: int | None = None):
        """resumed_at: env-steps of the checkpoint a resumed run starts from; JSON lines of
        later chunks (logged before the run was killed) are dropped, as the run redoes them."""
        from tensorboardX import SummaryWriter

        if resumed_at is not None:
            forget_rows_after(Path(directory) / "metrics.jsonl", resumed_at)
        self.writer = SummaryWriter(str(Path(directory) / "tb"))
        self.lines = open(Path(directory) / "metrics.jsonl", "a", encoding="utf-8")  # noqa: SIM115

    def write(self, step: int, scalars: dict[str, float]) -> None:
        for name, value in scalars.items():
            if math.isfinite(value):
                self.writer.add_scalar(name, value, step)
        self.lines.write(json.dumps({"env_steps": step, **scalars}) + "\n")
        self.lines.flush()
        self.writer.flush()

    def close(self) -> None:
        self.writer.close()
        self.lines.close()


def forget_rows_after(path: Path, env_steps: int) -> None:
    """Rewrite the JSON-lines log `path` without rows after `env_steps` (atomically: a
    temporary file renamed over it); nothing happens when it has none."""
    if not path.exists():
        return
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [x for x in lines if json.loads(x)["env_steps"] <= env_steps]
    if len(kept) != len(lines):
        temp = path.with_suffix(".jsonl.tmp")
        temp.write_text("".join(kept), encoding="utf-8")
        temp.replace(path)


def summary_line(scalars: dict[str, float], keys: Sequence[str]) -> str:
    """A short terminal line of the named scalars present in `scalars`."""
    parts = [f"{_short_label(k)} {_short_value(k, scalars[k])}" for k in keys if k in scalars]
    return " | ".join(parts)


def _short_value(key: str, value: float) -> str:
    """Ratings and stage numbers in whole units ("elo 1239", "stage 2"), the rest in 3 digits."""
    return f"{value:.0f}" if key.startswith(("elo/", "curriculum/stage")) else f"{value:.3g}"


def _short_label(key: str) -> str:
    """ "loss/entropy" -> "entropy"; "games/scripted:brawler/win" -> "brawler win" (each
    opponent's win rate must stay distinguishable); "elo/learner" -> "elo"."""
    if key == "elo/learner":
        return "elo"
    parts = key.split("/")
    if parts[0] == "games" and len(parts) == 3:
        return f"{parts[1].split(':')[-1]} {parts[2]}"
    return parts[-1]


def progress_bar(total: int, done: int):
    """A rich progress bar over env-steps showing the env-steps/s rate."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    progress = Progress(
        TextColumn("[bold]train"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("env-steps"),
        TextColumn("{task.fields[rate]:>7.0f} steps/s"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    task = progress.add_task("train", total=total, completed=done, rate=0.0)
    return progress, task


# --- The loop ------------------------------------------------------------------------------------
def check_run_dir(out: Path, resume: bool) -> Path:
    """The run's config.json path, once `out` suits the start: a resume needs a run there, a
    fresh start needs none. Raises FileNotFoundError / FileExistsError naming the path."""
    path = output_folder(out, "--out") / "config.json"
    if resume and not path.exists():
        raise FileNotFoundError(f"{path}: no run to resume (start without --resume)")
    if not resume and path.exists():
        raise FileExistsError(f"{path}: a run exists here; pass --resume or choose another --out")
    return path


def run_config(out: Path, cls, config, resume: bool, steps: int | None):
    """The config of a run directory: written on a fresh start, read back (and checked
    against `config`, total_steps aside) on resume; `steps` overrides total_steps.
    Raises FileExistsError / FileNotFoundError / ValueError naming the path."""
    path = check_run_dir(out, resume)
    if resume:
        saved = common.config_from_dict(cls, json.loads(path.read_text()), str(path))
        if config is not None and dataclasses.replace(config, total_steps=0) != (
            dataclasses.replace(saved, total_steps=0)
        ):
            raise ValueError(f"{path}: --config differs from the run's saved config")
        config = config or saved
    config = config or cls()
    if steps is not None:
        config = dataclasses.replace(config, total_steps=steps)
    if not resume:
        out.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(common.config_to_dict(config), indent=2))
    return config


def chunk_scalars(metrics, groups, steps_per_update: int, seconds: float) -> dict[str, float]:
    """Host-side summary of one chunk's metrics (dict of loss terms, shaping terms, learner
    agent-steps and per-group results, stacked over the chunk's updates)."""
    metrics = jax.device_get(metrics)
    out = {f"loss/{k}": float(np.mean(v)) for k, v in metrics["loss"].items()}
    agent_steps = max(float(np.sum(metrics["agent_steps"])), 1.0)
    terms = np.sum(metrics["terms"], axis=0) / agent_steps
    for name, value in zip(common.SHAPING_TERMS, terms, strict=True):
        out[f"reward/{name}"] = float(value)
    out["reward/total"] = float(terms.sum())
    results = np.sum(metrics["results"], axis=0)  # (groups, 3)
    for g, (win, draw, loss) in zip(groups, results, strict=True):
        games = win + draw + loss
        out[f"games/{g.kind}/finished"] = float(games)
        if games:
            out[f"games/{g.kind}/win"] = float(win / games)
            out[f"games/{g.kind}/draw"] = float(draw / games)
    steps = steps_per_update * len(metrics["agent_steps"])
    out["perf/env_steps_per_s"] = steps / max(seconds, 1e-9)
    return out


def export_policy(
    out: Path, config, runner, algorithm: str, params=None, folder: Path | None = None
) -> Path:
    """Write the run's current policy as a one-file checkpoint `policy_<env-steps>.msgpack` in
    `folder` (default `out`), kept if it already exists: the same update gives the same
    parameters. params: the policy's parameters when they are not all of runner.params
    (MAPPO's actor)."""
    from policies import checkpoints

    steps = int(runner.update) * config.steps_per_update
    path = Path(folder or out) / f"policy_{steps}.msgpack"
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists():
        training = {
            "algorithm": algorithm,
            "env_steps": steps,
            "updates": int(runner.update),
            "config": common.config_to_dict(config),
        }
        params = runner.params if params is None else params
        kind = getattr(config, "network_kind", None)  # the Q learners' reading of the network
        checkpoints.save_policy(path, jax.device_get(params), config.network, training, kind)
    return path


def chunk_count(total_steps: int, per_chunk: int) -> int:
    """Chunks `train_loop` runs for `total_steps` env-steps: whole chunks, rounded up."""
    return math.ceil(total_steps / per_chunk)


def rounding_note(steps: int, per_update: int, updates_per_chunk: int) -> str | None:
    """What is trained when `steps` env-steps is not a whole number of chunks, else None.

    `train_loop` runs whole jitted chunks of `updates_per_chunk` updates
    (IPPOConfig.updates_per_log) of `per_update` env-steps (num_envs x rollout) each, so it
    rounds the total up; e.g. (64, 2048, 1) -> "64 steps is less than one update of 2048
    env-steps; training 2048".
    """
    per_chunk = per_update * updates_per_chunk
    trained = chunk_count(steps, per_chunk) * per_chunk
    if trained == steps:
        return None
    if steps < per_update:
        note = f"{steps} steps is less than one update of {per_update} env-steps"
    elif updates_per_chunk == 1:
        note = f"{steps} steps is not a whole number of updates of {per_update} env-steps"
    else:
        note = f"{steps} steps is not a whole number of chunks of {per_chunk} env-steps"
    why = f" ({trained // per_update} updates, whole chunks of updates_per_log = "
    why = f"{why}{updates_per_chunk})" if updates_per_chunk > 1 else ""
    return f"{note}; training {trained}{why}"


def train_loop(
    out: Path, config, trainer, init, chunk, resume: bool, show: bool, algorithm: str,
    policy_params=None,
    after_chunk=None,
):  # fmt: skip
    """Drive a learner until config.total_steps env-steps (rounded up to whole chunks of
    config.updates_per_log updates): checkpoint every config.logs_per_checkpoint chunks and at
    the end, log every chunk, then export the policy. init(rng) and chunk(runner) are jitted;
    the runner has `.update` and `.params`; policy_params(runner) picks the exported policy's
    parameters (default all of runner.params). after_chunk(runner, values, resumed_at) ->
    runner, when given, runs after each chunk before its log line (it may add to the scalars
    `values`; resumed_at is the update the session started from). Returns (runner, exported
    policy path)."""
    checkpoints = RunCheckpoints(out / "checkpoints")
    runner = init(jax.random.PRNGKey(config.seed))
    if resume:
        runner = checkpoints.restore(runner)
    per_chunk = config.steps_per_update * config.updates_per_log
    chunks = chunk_count(config.total_steps, per_chunk)
    done = int(runner.update) * config.steps_per_update
    log = MetricLog(out, done if resume else None)
    progress, task = progress_bar(chunks * per_chunk, done)
    keys = ("reward/total", "reward/outcome", "loss/entropy", "loss/value")
    keys += tuple(f"games/{g.kind}/win" for g in trainer.groups if g.kind != "self")
    keys += ("elo/learner", "curriculum/stage")
    started = int(runner.update)
    try:
        with progress if show else contextlib.nullcontext():
            for i in range(int(runner.update) // config.updates_per_log, chunks):
                start = time.perf_counter()
                runner, metrics = chunk(runner)
                jax.block_until_ready(runner.params)
                seconds = time.perf_counter() - start
                done = int(runner.update) * config.steps_per_update
                values = chunk_scalars(metrics, trainer.groups, config.steps_per_update, seconds)
                if after_chunk is not None:
                    runner = after_chunk(runner, values, started)
                log.write(done, values)
                progress.update(task, completed=done, rate=values["perf/env_steps_per_s"])
                if show:
                    line = f"{done:>10} | {summary_line(values, keys)}"
                    progress.console.print(line, soft_wrap=True)  # one line in a log too
                if (i + 1) % config.logs_per_checkpoint == 0 or i + 1 == chunks:
                    checkpoints.save(int(runner.update), runner)
    finally:
        log.close()
        checkpoints.close()
    params = None if policy_params is None else policy_params(runner)
    return runner, export_policy(out, config, runner, algorithm, params)


@functools.cache
def compiled_chunk(make_train, config):
    """(trainer, jitted init, jitted chunk of config.updates_per_log updates) of a learner's
    `make_train(config)`, once per (make_train, config) for the process."""
    trainer = make_train(config)

    def chunk(runner):
        return jax.lax.scan(lambda r, _: trainer.update(r), runner, None, config.updates_per_log)

    return trainer, jax.jit(trainer.init), jax.jit(chunk)
