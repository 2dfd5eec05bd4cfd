"""Bad configuration and authored input raise clear errors before anything is traced."""

import numpy as np
import pytest

import engine
from engine import pool as P
from engine.types import Config
from tests.engine.kit import CONFIG, PADS, ZONES, table


@pytest.mark.parametrize(
    "field, value",
    [
        ("horizon", 0),
        ("score_threshold", 0),
        ("wave_period", 0),
        ("shield_ticks", -1),
        ("shield_speed", 0.0),
        ("shield_speed", 2.5),  # a quarter-tick sub-step would exceed the body radius
        ("move_scale", 0.0),
        ("move_scale", 1.5),
    ],
)
def test_config_rejects_out_of_range_values_naming_the_field(field, value):
    with pytest.raises(ValueError, match=rf"Config\.{field}: {value!r}"):
        Config(**{field: value})


def test_make_rejects_bad_values_naming_them():
    with pytest.raises(ValueError, match="horizon"):
        engine.make(maps=0, rosters=["M/M"], horizon=0)
    with pytest.raises(ValueError, match="p_east"):
        engine.make(maps=0, rosters=["M/M"], p_east=1.5)
    with pytest.raises(ValueError, match="'X'"):
        engine.make(maps=0, rosters=["MX/M"])
    with pytest.raises(ValueError, match="1-5 agents"):
        engine.make(maps=0, rosters=["MWHRPM/M"])


def test_default_config_is_the_canonical_game():
    c = Config()
    assert (c.score_threshold, c.horizon, c.wave_period, c.shield_ticks) == (20, 300, 5, 3)
    assert (c.shield_speed, c.move_scale, c.shared_obs, c.world_frame) == (2.0, 1.0, True, False)


def test_authored_state_with_an_unknown_class_is_rejected():
    roster = P.parse_roster("MWH/MW")
    roster[3] = 9
    pads = np.concatenate([PADS[0], PADS[1]])
    with pytest.raises(ValueError, match=r"(?s)(?=.*class)(?=.*\b3\b)(?=.*\b9\b)"):
        engine.initial_state(CONFIG, table(), pads, ZONES, roster, 0, 0)


def test_authored_mid_game_state_errors_name_field_slot_and_value():
    roster = P.parse_roster("MWH/MW")
    pads = np.concatenate([PADS[0], PADS[1]])
    state = engine.initial_state(CONFIG, table(), pads, ZONES, roster, 0, 0)
    engine.check_state(CONFIG, state)  # a fresh game is valid
    bad = state.replace(health=state.health.at[1].set(250.0))  # a Warrior has 200 at most
    with pytest.raises(ValueError, match=r"health\[1\] = 250.0"):
        engine.check_state(CONFIG, bad)
    dead_with_health = state.replace(alive=state.alive.at[6].set(False))
    with pytest.raises(ValueError, match=r"health\[6\] = 200.0: a dead agent has 0 health"):
        engine.check_state(CONFIG, dead_with_health)
    with pytest.raises(ValueError, match=r"status\[0\].*trap_stun"):
        engine.check_state(CONFIG, state.replace(status=state.status.at[0, 4].set(7)))
