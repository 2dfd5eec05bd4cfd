"""A sixth class from one catalogue entry: engine, scripted bots, metrics, a replay that
re-simulates, a Replay Viewer frame and a BattleClient frame all handle it.

The Knight (tests/catalog/sixth_class_game.py) exists only in that script: it executes the
shipped engine/constants.py with one `ClassSpec` appended to `CLASSES`, in a subprocess, before
anything imports the catalogue (the observation's one-hot class columns are sized at import),
and then uses the shipped code unchanged. Slow: the subprocess compiles the engine, two
scripted bots and the BattleClient's step.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).with_name("sixth_class_game.py")
KNIGHT = 6  # the id after the shipped Neutral + five classes


@pytest.mark.slow
def test_a_knight_plays_records_resimulates_and_draws(tmp_path):
    env = dict(os.environ, JAX_PLATFORMS="cpu", SDL_VIDEODRIVER="dummy")
    env["PYTHONPATH"] = str(SCRIPT.parents[2])
    # the BattleClient's settings and replays go to the test's folder, not the user's
    env |= {"XDG_DATA_HOME": str(tmp_path / "data"), "XDG_CONFIG_HOME": str(tmp_path / "config")}
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(tmp_path)],
        capture_output=True, text=True, env=env, timeout=1500,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    facts = json.loads(run.stdout.strip().splitlines()[-1])
    assert facts["class_names"][KNIGHT] == "Knight" and facts["letters"] == "MWHRPK"
    # engine: roster letter K parsed, the Knight's max health from its entry (150 hp)
    assert facts["roster"] == [1, 2, KNIGHT, 0, 0, KNIGHT, 4, 5, 0, 0]
    assert facts["knights"] == [2, 5] and facts["knight_health_at_start"] == [150.0, 150.0]
    # scripted bots drove the Knights to act; metrics have rows with a Knight as source
    assert facts["knight_actions"] >= 1 and facts["knight_metric_rows"] > 0
    assert facts["ticks"] == 40 and facts["verify_problems"] == []  # re-simulates exactly
    # Replay Viewer: the log names the Knight with its entry's verb; the card its Ultimate
    assert any("Knight" in line for line in facts["viewer_knight_lines"])
    assert facts["viewer_card"][0].startswith("Knight A2")
    assert any(line.startswith("Shield Bash") for line in facts["viewer_card"])
    # BattleClient: a live game with Knights on both teams drew a frame
    assert facts["client_classes"].count(KNIGHT) == 2
    assert Path(facts["viewer_png"]).stat().st_size > 0
    assert Path(facts["client_png"]).stat().st_size > 0
