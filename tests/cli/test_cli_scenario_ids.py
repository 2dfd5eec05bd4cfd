"""`mbg scenarios validate/verify/solve ID` find a position saved by the apps by the id the
Scenarios screen shows it with (009 after the eight shipped ones), not only scenarios/."""

import json
import shutil

import pytest

from cli.main import main
from evaluation import scenarios as S


@pytest.fixture
def saved(tmp_path, monkeypatch):
    """A copy of scenario 1 as the apps save one: 009_*.json in $XDG_DATA_HOME's scenarios."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = tmp_path / "marl-battlegrounds" / "scenarios"
    shutil.copytree(S.SCENARIOS_DIR / "arenas", folder / "arenas")
    doc = json.loads((S.SCENARIOS_DIR / "001_hold_the_trap.json").read_text())
    path = folder / "009_my_position.json"
    path.write_text(json.dumps(dict(doc, id=9, title="My position")))
    return path


def test_a_saved_position_is_found_by_its_id(saved, capsys):
    assert main(["scenarios", "validate", "9"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"ok   {saved}: scenario 9 (")


def test_an_unknown_id_names_both_folders(saved, capsys):
    assert main(["scenarios", "validate", "77"]) == 1
    out = capsys.readouterr().out
    assert f"scenario 77: 0 files in {S.SCENARIOS_DIR} or {saved.parent} have that id" in out


def test_run_all_is_the_shipped_benchmark_alone(saved):
    names = [s.source.name for s in S.load_scenarios(None)]
    assert names == [p.name for p in S.scenario_files()] and saved.name not in names


def test_file_or_id_has_help_text(capsys):
    for action in ("validate", "verify", "solve"):
        with pytest.raises(SystemExit):
            main(["scenarios", action, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        assert "FILE_OR_ID a scenario id (the number its file name starts with" in out, action
