"""maps/generate.py writes map files with an ordinary file's mode, not mkstemp's 0600."""

import importlib.util
import os
import stat
from pathlib import Path

# Loaded by path: under pytest, "maps" is also the name of this tests folder.
_SOURCE = Path(__file__).resolve().parents[2] / "maps" / "generate.py"
_SPEC = importlib.util.spec_from_file_location("maps_generate", _SOURCE)
generate = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(generate)


def test_written_map_file_has_the_umask_mode(tmp_path):
    old = os.umask(0o022)
    try:
        target = tmp_path / "060_example.json"
        generate._write(target, '{"id": 60}\n')
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == 0o644
    assert target.read_text(encoding="utf-8") == '{"id": 60}\n'
    assert [p.name for p in tmp_path.iterdir()] == ["060_example.json"]  # no temp file left


def test_rewrite_replaces_the_old_text_and_mode(tmp_path):
    target = tmp_path / "061_example.json"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o600)
    old = os.umask(0o027)
    try:
        generate._write(target, "new\n")
    finally:
        os.umask(old)
    assert target.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
