"""The console entry point never prints pygame's support banner (the client used to: twice)."""

from tests.helpers.entry_points import run_main


def test_no_pygame_banner_even_after_the_client_reexecutes_itself():
    done = run_main("battleclient.app", ["--headless", "--after-ticks", "-1"], reexec=True)
    assert done.returncode == 2, done.stderr  # fails fast on the bad option
    assert "--after-ticks -1" in done.stderr
    assert "pygame-ce" not in done.stdout + done.stderr
