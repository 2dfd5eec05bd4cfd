"""The line finder's exact reductions and cut (evaluation/search_probe.py) on hand-made masks
and keys: combat classes of joint actions, the move combinations each class stands for, the
grouping of positions by combat view, the keys of a position and the interleaved cut order."""

from types import SimpleNamespace

import numpy as np
import pytest

from engine import constants as C
from evaluation import search_frontier as F
from evaluation import search_probe as P


def _masks():
    """Slot 0: Stay and E, pairs none and enemy 0 Basic; slot 1: only Stay, pairs none, enemy 0
    Ultimate and enemy 1 Basic (RULES 3.4 categories)."""
    move = np.zeros((C.NUM_SLOTS, 9), bool)
    pair = np.zeros((C.NUM_SLOTS, 11, 2), bool)
    move[:, 0] = pair[:, 0, 0] = True
    move[0, 3] = pair[0, 6, 0] = True
    pair[1, 6, 1] = pair[1, 7, 0] = True
    return move, pair


def test_class_index_names_each_joint_action_by_its_combat_choices():
    move, pair = _masks()
    acts = F.joint_actions(move, pair, (0, 1))
    cls = P.class_index(move, pair, (0, 1))
    # slot 0's options: (Stay, none), (Stay, B0), (E, none), (E, B0); slot 1's three pairs
    # vary fastest, so the class is (slot 0's pair) * 3 + (slot 1's pair).
    assert cls.tolist() == [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]
    classes = F.joint_actions(P.stay_only(move), pair, (0, 1))
    assert len(classes) == 6 and (classes[:, :, 0] == 0).all()  # every move Stay
    np.testing.assert_array_equal(classes[cls][:, :, 1:], acts[:, :, 1:])
    assert P.move_counts(move[None], (0, 1)).tolist() == [2]  # 2 x 1 move combinations
    assert P.class_index(move, pair, ()).tolist() == [0]  # no focal slot: one (empty) class


def test_groups_number_positions_by_first_appearance():
    first, group = P.groups(np.array([7, 3, 7, 9, 3], np.uint64))
    assert first.tolist() == [0, 1, 3] and group.tolist() == [0, 1, 0, 2, 1]


def test_spread_order_interleaves_the_keys():
    # key 0 ranks positions 0, 1, 2, 3; key 1 ranks 2, 3, 1, 0. Best ranks: 0 (key 0 first),
    # 2 (key 1 first), 1 (key 0 second), 3 (key 1 second).
    keys = np.array([[3, 0], [2, 1], [1, 5], [0, 4]], float)
    assert P.spread_order(keys).tolist() == [0, 2, 1, 3]
    assert P.spread_order(np.array([1.0, 5, 5, 2])).tolist() == [1, 2, 3, 0]  # one key: ties


def test_position_keys_by_hand():
    # Focal team A: slot 0 at (2, 5) with 60 HP, slot 1 dead; enemies: slot 5 at (5, 9)
    # (distance 5) with 30 HP, trapped; slot 6 at (2, 8) (distance 3) with 50 HP.
    pos = np.zeros((1, C.NUM_SLOTS, 2), np.float32)
    pos[0, 0], pos[0, 5], pos[0, 6] = (2, 5), (5, 9), (2, 8)
    health = np.zeros((1, C.NUM_SLOTS), np.float32)
    health[0, [0, 5, 6]] = 60, 30, 50
    alive = np.zeros((1, C.NUM_SLOTS), bool)
    alive[0, [0, 5, 6]] = True
    status = np.zeros((1, C.NUM_SLOTS, 9), np.int32)
    status[0, 5, 4] = 3  # trap_stun
    state = SimpleNamespace(
        score=np.array([[18, 19]]), health=health, alive=alive, active=alive | True, pos=pos,
        status=status,
    )  # fmt: skip
    keys = P.position_keys(state, focal=0)
    assert keys.shape == (1, 5)
    assert keys[0, :4].tolist() == pytest.approx([-1000 - 80 + 6, 60, -3, 1])


def test_combat_view_reads_what_a_ticks_outcome_reads():
    # The frozen "Hold the Trap" start (tests/fixtures): its combat view ignores the previous
    # actions and a 0.001-unit nudge of every body (no range, aura or zone edge that close),
    # and sees a hit point, a stun and a body carried out of everyone's reach.
    import jax.numpy as jnp

    from evaluation import scenario_lines as L
    from evaluation import scenarios as S

    fixture = "tests/fixtures/scenarios/hold_the_trap_finder.json"
    scenario = S.load_scenario(fixture)
    state = L.start_rollout(scenario, L.scenario_lineup(scenario)).state
    heads = jnp.zeros(C.NUM_SLOTS, jnp.int32)
    acts = SimpleNamespace(move=heads, target=heads + 6, ult=heads)
    owned = jnp.arange(C.NUM_SLOTS) >= C.TEAM_SIZE

    def view(s):
        return np.asarray(P.tree_hash(P.combat_view(s, acts, owned))).tolist()

    base = view(state)
    assert view(state.replace(prev_action=state.prev_action + 1)) == base
    assert view(state.replace(pos=state.pos + 0.001)) == base
    assert view(state.replace(health=state.health.at[5].add(-1))) != base
    assert view(state.replace(status=state.status.at[0, 3].set(1))) != base
    assert view(state.replace(pos=state.pos.at[5].set(jnp.array([19.5, 0.5])))) != base
