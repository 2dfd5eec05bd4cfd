"""Hotseat in a real BattleClient window under Xvfb, driven by xdotool: Team A's player ends the
turn with Space and presses Enter straight after (a double press), and Team B's hand-over card
stays up over a blank board until a later Enter (battleclient.play_input.HANDOVER_GUARD_S)."""

import time

from tests.battleclient.test_client_xvfb import _tail, blue_at, screen_point, shoot, start_client
from tests.helpers.xvfb import XVFB_MARKS, find_window, xdo
from ui.theme import TEAM_COLOURS

pytestmark = XVFB_MARKS
A0_PAD, B0_PAD = (1.5, 1.5), (18.5, 1.5)  # map 47, Team A at the west end


def red_at(image, world) -> bool:
    """Team B's colour just left of the glyph of a unit standing at `world` (map units)."""
    x, y = screen_point(world)
    return tuple(image.get_at((x - 13, y)))[:3] == TEAM_COLOURS[1]


def card_up(image) -> bool:
    """No unit of either team on the board: the hand-over card hides it."""
    return not blue_at(image, A0_PAD) and not red_at(image, B0_PAD)


def test_a_double_press_that_ends_a_turn_leaves_the_next_teams_card_up(xserver, tmp_path):
    client, shots, _ = start_client(xserver, tmp_path, "A0=human,B0=human,*=random")
    key = lambda name: xdo(xserver, "key", "--window", window, name)  # noqa: E731
    try:
        window = find_window(xserver, client.pid, timeout=120)
        board_a = _take_over_first_card(xserver, window, shots, client)
        assert not red_at(board_a, B0_PAD)  # Team A's view: B0 on its pad is out of sight
        key("space")  # Team A ends its turn ...
        key("Return")  # ... and the same hand presses Enter straight after
        time.sleep(1.0)
        _, after = shoot(xserver, window, shots, client=client)
        assert card_up(after), "Team B's board showed to Team A's player"
        key("Return")  # Team B's player, later
        _, board_b = shoot(xserver, window, shots, until=lambda im: red_at(im, B0_PAD))
        assert not blue_at(board_b, A0_PAD)
        key("Escape")
        time.sleep(0.5)
        key("q")
        assert client.wait(timeout=120) == 0, _tail(client)
    finally:
        if client.poll() is None:
            client.kill()
            client.wait()


def _take_over_first_card(display, window, shots, client, seconds: float = 240.0):
    """Enter, then a screenshot, until Team A's board shows: the game compiles first, and a
    key pressed then, or in the card's first HANDOVER_GUARD_S, is not a take-over."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        xdo(display, "key", "--window", window, "Return")
        _, image = shoot(display, window, shots, seconds=60, client=client)
        if blue_at(image, A0_PAD):
            return image
    raise AssertionError(f"Team A's board did not appear in {seconds:.0f} s")
