"""The BattleClient's record of scenario playtests: attempts and solves per scenario.

One JSON file, $XDG_CONFIG_HOME/marl-battlegrounds/scenario_record.json (beside the last
setup, `battleclient.settings.config_dir`), keyed by the scenario's start hash (so an edited
scenario starts a fresh record; `evaluation.scenarios.start_hash`), each entry
{"id", "title", "attempts", "solves", "best_ticks", "last"}. It is rewritten atomically
(fileio.replace_file: temporary file, fsync, os.replace) after every finished attempt, so a
crash never leaves half a file; an unreadable record is reported, never overwritten (the
person's history is kept).
"""

import json
from pathlib import Path
from typing import TYPE_CHECKING

from fileio import replace_file

if TYPE_CHECKING:  # the Scenarios screen reads the record on the UI thread, which never imports JAX
    from evaluation.scenarios import Scenario

RECORD_FILE = "scenario_record.json"
ENTRY_FIELDS = ("id", "title", "attempts", "solves", "best_ticks", "last")


def record_path() -> Path:
    from battleclient.settings import config_dir

    return config_dir() / RECORD_FILE


def load_record(path: Path | None = None) -> dict:
    """start hash -> entry. A missing file is an empty record. Raises ValueError naming the
    file and the entry at fault when the file is not a record."""
    path = Path(path or record_path())
    if not path.exists():
        return {}
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise ValueError(f"{path}: not a scenario record: {error}") from None
    if not isinstance(doc, dict):
        raise ValueError(f"{path}: not a scenario record: a JSON object is expected")
    for key, entry in doc.items():
        if not isinstance(entry, dict) or set(entry) != set(ENTRY_FIELDS):
            raise ValueError(f"{path}: entry {key!r}: needs the fields {', '.join(ENTRY_FIELDS)}")
        for field in ("attempts", "solves"):
            if not isinstance(entry[field], int) or entry[field] < 0:
                raise ValueError(f"{path}: entry {key!r}.{field} = {entry[field]!r}: not a count")
    return doc


def record_attempt(scenario: "Scenario", solved: bool, ticks: int, when: str,
                   path: Path | None = None) -> dict:  # fmt: skip
    """Add one finished attempt (solved or not, `ticks` played, `when` a timestamp) to the
    record and write it; returns the scenario's new entry. Raises ValueError (and writes
    nothing) when the existing file is not a record."""
    path = Path(path or record_path())
    record = load_record(path)
    entry = record.get(scenario.start_hash) or {
        "id": scenario.id, "title": scenario.title, "attempts": 0, "solves": 0,
        "best_ticks": None, "last": "",
    }  # fmt: skip
    entry = dict(entry, attempts=entry["attempts"] + 1, last=when)
    if solved:
        entry["solves"] += 1
        best = entry["best_ticks"]
        entry["best_ticks"] = ticks if best is None else min(best, ticks)
    record[scenario.start_hash] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, (json.dumps(record, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    return entry


def entry_text(entry: dict | None) -> str:
    """ "3 attempts, 1 solved (best 2 ticks)" for the lobby's scenario list."""
    if not entry:
        return "not tried yet"
    text = f"{entry['attempts']} attempt{'s' * (entry['attempts'] != 1)}, {entry['solves']} solved"
    if entry["best_ticks"] is not None:
        text += f" (best {entry['best_ticks']} tick{'s' * (entry['best_ticks'] != 1)})"
    return text
