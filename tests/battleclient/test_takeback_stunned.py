"""Take back across ticks the client played by itself (no human agent could act, e.g. under
RULES 2.3's stun): how many ticks one take back undoes."""

from battleclient.play_screen import ticks_to_take_back


def test_a_take_back_steps_past_the_ticks_played_by_itself():
    assert ticks_to_take_back([True, False, False]) == 3  # to the tick with human orders
    assert ticks_to_take_back([False, True]) == 1
    assert ticks_to_take_back([False, False]) == 0  # nothing with human orders to go back to
    assert ticks_to_take_back([]) == 0
