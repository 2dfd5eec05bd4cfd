"""The viewer's console entry point never prints pygame's support banner."""

from tests.helpers.entry_points import run_main


def test_no_pygame_banner():
    done = run_main("replay_viewer.cli", ["--view", "bogus"])
    assert done.returncode == 2, done.stderr  # fails fast on the bad option
    assert "view 'bogus'" in done.stderr
    assert "pygame-ce" not in done.stdout + done.stderr
