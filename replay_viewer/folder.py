"""A folder of replays as a list of games (map, Systems, result) read from headers only."""

from dataclasses import dataclass
from pathlib import Path

from evaluation.replay import SUFFIX, ReplayError, read_header


@dataclass(frozen=True)
class Entry:
    path: Path
    header: dict | None  # None when the file could not be read
    problem: str = ""

    def label(self) -> str:
        if self.header is None:
            return f"{self.path.name}: cannot open ({self.problem})"
        h = self.header
        result = h["result"]
        teams = [_systems(h["systems"][:5]), _systems(h["systems"][5:])]
        score = "-".join(str(s) for s in result["score"])
        return (
            f"{self.path.name} | map {h['map']['id']} {h['map']['name']} | {teams[0]} vs {teams[1]}"
            f" | {result['outcome_name']} {score} in {result['ticks']} ticks"
        )


def _systems(specs) -> str:
    names = [s for s in specs if s]
    if not names:
        return "-"
    return names[0] if len(set(names)) == 1 else "/".join(names)


def list_replays(folder) -> list[Entry]:
    """Every `*.mbgr` file in `folder` (sorted by name), unreadable ones included with why."""
    entries = []
    for path in sorted(Path(folder).glob(f"*{SUFFIX}")):
        try:
            entries.append(Entry(path, read_header(path)))
        except (ReplayError, OSError) as error:
            problem = error.problem if isinstance(error, ReplayError) else str(error)
            entries.append(Entry(path, None, problem))
    return entries
