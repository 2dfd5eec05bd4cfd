"""Run an app's console entry point in a fresh interpreter, as a user's shell would."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run_main(module: str, args: list[str], reexec: bool = False) -> subprocess.CompletedProcess:
    """`module.main()` with `args` in a subprocess (120 s limit), text output captured.

    The environment drops PYGAME_HIDE_SUPPORT_PROMPT and PYTHONHASHSEED so the app sets what it
    needs itself; reexec lets the BattleClient re-execute itself as it does for users.
    """
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("PYGAME_HIDE_SUPPORT_PROMPT", "PYTHONHASHSEED")
    }
    if reexec:
        env["MBG_KEEP_HASH_SEED"] = ""
    code = f"import sys; from {module} import main; sys.argv[0] = 'x'; sys.exit(main())"
    command = [sys.executable, "-c", code, *args]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
