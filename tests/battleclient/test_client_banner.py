"""The console entry points never print pygame's support banner (the client used to: twice)."""

import os
import subprocess
import sys

import pytest

from tests.battleclient.conftest import ROOT

CASES = [  # (module, arguments that fail fast with exit code 2, the expected error)
    ("battleclient.app", ["--headless", "--after-ticks", "-1"], "--after-ticks -1"),
]


@pytest.mark.parametrize(("module", "args", "error"), CASES)
def test_no_pygame_banner(module, args, error):
    env = {k: v for k, v in os.environ.items() if k not in ("PYGAME_HIDE_SUPPORT_PROMPT",
                                                             "PYTHONHASHSEED")}  # fmt: skip
    env["MBG_KEEP_HASH_SEED"] = ""  # let the client re-execute itself, as it does for users
    code = f"import sys; from {module} import main; sys.argv[0] = 'x'; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert error in done.stderr
    assert "pygame-ce" not in done.stdout + done.stderr
