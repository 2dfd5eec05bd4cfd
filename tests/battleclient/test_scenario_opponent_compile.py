"""The scenario opponent's second decision reuses its first compile (issue: ~12 s recompile).

The scripted bots carry path-finding Memory between ticks; the fresh Memory of the first tick
must have the very types (shape, dtype, weak type) of the Memory `decide` hands back, or the
jitted act is traced and compiled again on the game's second tick."""

import jax
import pytest

from battleclient.scenario_session import ScenarioSession
from evaluation import scenarios as S
from evaluation.match import decide_systems, jitted_act
from policies import scripted


def _types(tree):
    return jax.tree.map(lambda x: (x.shape, str(x.dtype), bool(x.aval.weak_type)), tree)


def test_fresh_memory_is_strong_float32():
    memory = scripted.fresh_memory(3)
    assert _types(memory) == scripted.Memory(
        field=((3, 10, 20), "float32", False),
        goal=((3, 2), "float32", False),
        stamp=((3,), "float32", False),
        links=((3, 8, 10, 20), "bool", False),
    )


@pytest.mark.slow  # compiles the tactician's act once (~20-40 s on a loaded machine)
def test_the_scenario_opponents_second_decision_does_not_retrace():
    session = ScenarioSession(S.load_scenario(6), [0])  # B0 Priest, B1 Mage: scripted:tactician
    controller = session.controller
    act = jitted_act(controller)
    session.decide(ask_hosts=False)  # the build job's first decision (the start tick)
    compiled = act._cache_size()
    assert compiled >= 1
    _, _, carries, _ = session.pending
    index = session.lineup.systems.index(controller)
    assert _types(carries[index]) == _types(session.rollout.carries[index])
    game = session.rollout._replace(carries=tuple(carries))  # the next tick's carries
    decide_systems(session.lineup, game, [not s.host for s in session.lineup.systems])
    assert act._cache_size() == compiled  # the second tick found the first tick's trace
