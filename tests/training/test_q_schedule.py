"""QMIX and PQN-VDN with IPPO's run features (training.run_schedule): the ghost pool (greedy
Q-network ghosts, Elo for every entrant), a two-stage curriculum and validation checks. A tiny
run of each, killed after one update and resumed, equals an uninterrupted one bit for bit,
logs and validation records included; QMIX's ghosts count only their own game's ticks; a Q
ghost never picks an illegal action; the selection keeps and releases the better check."""

import dataclasses
import json

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from cli.main import main as mbg
from engine import constants as C
from policies import checkpoints
from policies import networks as nets
from tests.helpers.runs import assert_same_tree, logged_rows
from training import ghosts, pqn_vdn, qlearning, qmix, runs, selfplay, validation

STAGES = {"stages": [
    {"name": "1v1", "maps": "0,1", "team_sizes": [1], "score_threshold": 5},
    {"name": "2v2", "maps": "2,3", "team_sizes": [2], "score_threshold": 5},
]}  # fmt: skip
# One pool game and one against random; save_steps small enough that the window of two fills
# in the first update, swap_steps so large that no pool game's opponent is redrawn (QMIX's
# ghost steps are then a hand count of its games' ticks) but for PQN-VDN's: 4 ghost steps, so
# a pool game that ends is given a new opponent, in the resumed run as in the uninterrupted one.
COMMON = dict(
    maps=("0-3",), embed=8, torso=16, hidden=8, updates_per_log=1, logs_per_checkpoint=1,
    opponents=(("pool", 0.5), ("random", 0.5)), save_steps=5, swap_steps=10_000, window=2,
    validate_every=2, validation_games=2, validation_panel=("random",), keep_best=1,
)  # fmt: skip
LEARNERS = {
    "qmix": (qmix, dict(num_envs=2, horizon=12, buffer_games=8, batch_games=2,
                        gradient_steps=1, target_every=2)),
    "pqn-vdn": (pqn_vdn, dict(num_envs=2, rollout=4, minibatches=1, epochs=1, swap_steps=4)),
}  # fmt: skip


def tiny_config(name, stages_file):
    module, own = LEARNERS[name]
    cls = module.QMIXConfig if module is qmix else module.PQNConfig
    config = cls(**{**COMMON, **own}, curriculum=str(stages_file))
    # the first stage ends after one update (its env-step budget)
    return module, dataclasses.replace(config, stage_budget=config.steps_per_update)


@pytest.fixture(scope="module", params=sorted(LEARNERS))
def tiny_runs(request, tmp_path_factory):
    name = request.param
    root = tmp_path_factory.mktemp(name)
    stages = root / "stages.json"
    stages.write_text(json.dumps(STAGES))
    module, config = tiny_config(name, stages)
    step = config.steps_per_update
    whole, _ = module.run(config, root / "whole", steps=3 * step, show=False)
    module.run(config, root / "split", steps=step, show=False)  # "killed" after update 1
    resumed, _ = module.run(None, root / "split", resume=True, steps=3 * step, show=False)
    return name, root, step, whole, resumed


@pytest.mark.slow  # two compilations and one of the validation games: minutes, loaded machine
def test_killed_and_resumed_q_run_equals_uninterrupted(tiny_runs):
    name, _, _, whole, resumed = tiny_runs
    assert_same_tree(whole, resumed)
    assert int(whole.curriculum.stage) == 1  # the budget moved it to the 2v2 stage
    assert int(whole.ghost.size) == 2 and whole.ghost.choice.shape == (1,)
    maps = np.asarray(whole.pool.map_ids)[: int(whole.pool.num_maps)]
    assert np.array_equal(maps, [2, 3])  # new games are drawn from the 2v2 stage's pool
    if name == "qmix":
        games = whole.buffer.games  # all six team-games: the pool game's team is 0, 2, 4
        assert int(whole.buffer.count) == 6
        assert int(whole.ghost.trainer_steps) == int(games.active.sum())
        # the ghosts' team is as large as the learner's (mirrored rosters): its ghost steps
        # are the learner's agent-ticks in the pool game's own ticks, none after its end
        assert int(whole.ghost.ghost_steps[0]) == int(games.active[::2].sum())


@pytest.mark.slow
def test_q_logs_and_validation_records_agree_after_resume(tiny_runs):
    name, root, step, _, _ = tiny_runs
    rows = {run: logged_rows(root / run) for run in ("whole", "split")}
    assert rows["whole"] == rows["split"]
    assert [r["curriculum/stage"] for r in rows["whole"]] == [1.0, 1.0, 1.0]
    assert all("elo/learner" in r and "elo/random" in r for r in rows["whole"])
    assert [r["pool/size"] for r in rows["whole"]] == [2.0, 2.0, 2.0]
    assert ["validation/margin" in r for r in rows["whole"]] == [False, True, False]
    checks = {run: validation.read_checks(root / run) for run in ("whole", "split")}
    assert [c["env_steps"] for c in checks["whole"]] == [2 * step]
    strip = [{k: v for k, v in c.items() if k != "policy"} for c in checks["whole"]]
    assert strip == [{k: v for k, v in c.items() if k != "policy"} for c in checks["split"]]
    policy = checkpoints.load_policy(checks["whole"][0]["policy"])
    assert policy.kind == checkpoints.Q_NETWORK_KIND and policy.training["algorithm"] == name


def _ghost_and_own_choice(key, make_obs):
    """Two pool games of five ghosts each, one on a window snapshot and one on the latest
    parameters: (the ghosts' actions (move, target, ult) each (2, 5), the legal argmax of
    each game's own network (2, 5) likewise, their observations (2, 5, ...))."""
    config = pqn_vdn.PQNConfig(maps=("0-3",), embed=8, torso=16, hidden=8)
    network = nets.ActorCritic(config.network)
    layout = ghosts.GhostLayout(np.array([0, 1]), np.r_[5:10, 15:20], np.full(2, -1), ())
    keys = jax.random.split(key, 4)
    obs = make_obs(keys[0], 2 * C.NUM_SLOTS)
    snapshot = nets.init_params(config.network, keys[1], obs)
    latest = nets.init_params(config.network, keys[2], obs)
    ghost = ghosts.init_state(config.ghost, config.network, snapshot, layout, keys[3])
    ghost = ghost._replace(choice=jnp.array([0, selfplay.LATEST], jnp.int32))
    batched = jax.tree.map(lambda x: x.reshape((2, C.NUM_SLOTS) + x.shape[1:]), obs)
    none = jnp.zeros((2, C.NUM_SLOTS), jnp.int32)
    joint, _ = ghosts.ghost_actions(network, layout, ghost, latest, batched, jnp.ones(2, bool),
                                    nets.to_actions(none, none), keys[3],
                                    choose=qlearning.greedy_ghost)  # fmt: skip
    mine = jax.tree.map(lambda x: x[:, C.TEAM_SIZE :], batched)
    hidden = nets.initial_hidden(config.network, C.TEAM_SIZE)

    def own(params, o):
        _, heads = network.apply(params, hidden, o, jnp.ones(C.TEAM_SIZE, bool))
        return nets.to_actions(*qlearning.greedy_actions(heads, o.mask))

    want = [
        own(p, jax.tree.map(lambda x, g=g: x[g], mine)) for g, p in enumerate((snapshot, latest))
    ]
    got = [getattr(joint, f)[:, C.TEAM_SIZE :] for f in ("move", "target", "ult")]
    return got, [jnp.stack([getattr(w, f) for w in want]) for f in ("move", "target", "ult")], mine


def test_a_q_ghost_never_picks_an_illegal_action(random_obs):
    # over random legal masks: every ghost action legal and its own network's legal argmax
    pick = jax.jit(_ghost_and_own_choice, static_argnums=1)
    agents = np.arange(C.TEAM_SIZE)
    for seed in range(4):
        got, want, mine = jax.device_get(pick(jax.random.PRNGKey(seed), random_obs))
        for value, expected in zip(got, want, strict=True):
            np.testing.assert_array_equal(value, expected)
        move, target, ult = got
        for game in range(2):
            assert mine.mask.move[game][agents, move[game]].all()
            assert mine.mask.pair[game][agents, target[game], ult[game]].all()


def _export(out, config, obs, update):
    params = jax.jit(nets.init_params, static_argnums=0)(
        config.network, jax.random.PRNGKey(update), obs
    )
    runner = qmix.RunnerState(params, None, None, None, None, None, jnp.int32(update))
    return runs.export_policy(out, config, runner, "qmix", folder=out / "validation")


def test_selection_keeps_and_releases_the_better_q_check(tmp_path, monkeypatch, capsys, random_obs):
    # Three checks of exported Q policies with hand-set margins 0.5, 2.0 and 1.0: keep_best 1
    # keeps the best (update 2) and the latest; --select writes the best, a greedy Q policy.
    config = qmix.QMIXConfig(maps=("0-3",), num_envs=2, horizon=12, buffer_games=4,
                             batch_games=2, embed=8, torso=16, hidden=8)  # fmt: skip
    (tmp_path / "config.json").write_text(json.dumps({"num_envs": 2}))
    margins = {1: 0.5, 2: 2.0, 3: 1.0}
    step = config.steps_per_update

    def hand_margin(policy, panel, games, seed=0):
        return {"margin": margins[int(policy.stem.split("_")[1]) // step], "by_opponent": {}}

    monkeypatch.setattr(validation, "panel_margin", hand_margin)
    paths = {}
    for update in (1, 2, 3):
        paths[update] = _export(tmp_path, config, random_obs(jax.random.PRNGKey(0), 5), update)
        validation.run_check(tmp_path, paths[update], update * step, ("random",), 2, keep=1)
    assert [p.exists() for p in paths.values()] == [False, True, True]
    best = tmp_path / "best.msgpack"
    assert mbg(["train", "qmix", "--out", str(tmp_path), "--select", str(best)]) == 0
    assert f"({2 * step} env-steps, validation margin +2.00" in capsys.readouterr().out
    assert best.read_bytes() == paths[2].read_bytes()
    policy = checkpoints.load_policy(best)
    assert policy.kind == checkpoints.Q_NETWORK_KIND and policy.training["env_steps"] == 2 * step
    record = json.loads(best.with_name("best.selection.json").read_text())
    assert [c["margin"] for c in record["checks"]] == [0.5, 2.0, 1.0]


def test_q_configs_check_their_curriculum_and_validation_fields(tmp_path, capsys):
    held_out = tmp_path / "held_out.json"  # a stage on validation map 42
    stage = {"name": "x", "maps": "42", "team_sizes": [1], "score_threshold": 5}
    held_out.write_text(json.dumps({"stages": [stage]}))
    for bad, message in (
        (
            {"validation_games": 3},
            "QMIXConfig.validate_every 0 must be >= 0 and validation_games 3",
        ),
        ({"keep_best": 0}, "QMIXConfig.keep_best 0 must be >= 1"),
        ({"curriculum": str(held_out)}, "[42] are validation/test maps"),
        ({"advance_games": 0}, "QMIXConfig.advance_*/stage_budget: advance rule"),
    ):
        config = tmp_path / "bad.json"
        config.write_text(json.dumps(bad))
        args = ["train", "qmix", "--config", str(config), "--steps", "10", "--out", str(tmp_path)]
        assert mbg(args) == 2  # `mbg` turns the ValueError into one line and exit code 2
        assert message in capsys.readouterr().err
