"""Frozen partners and opponent kinds (training.common): which slots learn, what is refused."""

import numpy as np
import pytest

from training import common, ippo


def test_frozen_partners_take_their_slots_from_the_learner():
    groups = common.opponent_groups((("self", 0.5), ("pool", 0.5)), 4)
    table = common.learner_slots(groups, 4, "A3-A4=scripted:tactician")
    # self-play games: A0-A2 and all of Team B learn; pool games: A0-A2 only
    assert table[:2].tolist() == [[True] * 3 + [False] * 2 + [True] * 5] * 2
    assert table[2:].tolist() == [[True] * 3 + [False] * 7] * 2
    lineup = common.partner_lineup("A3-A4=scripted:tactician")
    assert np.flatnonzero(lineup.owners.any(0)).tolist() == [3, 4]
    config = ippo.IPPOConfig(num_envs=4, minibatches=2, partners="A4=random",
                             opponents=(("pool", 1.0),))  # fmt: skip
    assert config.num_learners == 16


@pytest.mark.parametrize("spec", ["B0=random", "A*=random"])
def test_partners_must_leave_the_learner_a_slot_of_team_a(spec):
    with pytest.raises(ValueError, match="name some of Team A's slots"):
        common.partner_lineup(spec)


def test_the_pool_runs_on_two_devices_and_kinds_are_checked():
    # two devices share the pool (tests/training/parallel_check.py runs it)
    assert ippo.IPPOConfig(opponents=(("pool", 1.0),), devices=2).local_learners == 160
    with pytest.raises(ValueError, match="unknown kind 'ghost'"):
        ippo.IPPOConfig(opponents=(("ghost", 1.0),))
    with pytest.raises(ValueError, match="play_against_latest_model_ratio"):
        ippo.IPPOConfig(play_against_latest_model_ratio=-0.1)
