"""The viewer's console entry point never prints pygame's support banner."""

import os
import subprocess
import sys

import pytest

from tests.replay_viewer.conftest import ROOT

CASES = [  # (module, arguments that fail fast with exit code 2, the expected error)
    ("replay_viewer.app", ["--view", "bogus"], "view 'bogus'"),
]


@pytest.mark.parametrize(("module", "args", "error"), CASES)
def test_no_pygame_banner(module, args, error):
    env = {k: v for k, v in os.environ.items() if k not in ("PYGAME_HIDE_SUPPORT_PROMPT",
                                                             "PYTHONHASHSEED")}  # fmt: skip
    code = f"import sys; from {module} import main; sys.argv[0] = 'x'; sys.exit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert error in done.stderr
    assert "pygame-ce" not in done.stdout + done.stderr
