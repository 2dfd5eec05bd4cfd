"""A folder of replays as a list of games (map, Systems, result) read from headers only.

Listing reads each file's small preamble (header and its checksum) and compares the file's
length with the body size the preamble announces, so a truncated file is marked without
decoding its body; damage inside the body shows only when the file is opened."""

import os
from dataclasses import dataclass
from pathlib import Path

import msgpack

from evaluation.replay import SUFFIX, ReplayError, read_header
from replay_viewer.panels import team_systems
from ui.explain import counted


@dataclass(frozen=True)
class Entry:
    path: Path
    header: dict | None  # None when the file could not be read
    problem: str = ""

    def label(self) -> str:
        if self.header is None:
            return f"{self.path.name}  (unreadable: {self.problem})"
        h = self.header
        result = h["result"]
        teams = [team_systems(h["systems"][:5]), team_systems(h["systems"][5:])]
        score = "-".join(str(s) for s in result["score"])
        return (
            f"{self.path.name} | map {h['map']['id']} {h['map']['name']} | {teams[0]} vs {teams[1]}"
            f" | {result['outcome_name']} {score} in {counted(result['ticks'], 'tick')}"
        )


def _bin_prefix(size: int) -> int:
    """Bytes msgpack puts before a binary of `size` bytes (bin 8, bin 16 or bin 32 header)."""
    return 2 if size < 2**8 else 3 if size < 2**16 else 5


def length_problem(path) -> str:
    """ "" or why the file is shorter than its preamble says (a cheap check: no decoding).

    The file is the preamble (a msgpack map with `body_size`) followed by the body as one
    msgpack binary (evaluation/replay.py), so its length must be at least preamble + binary
    prefix + body_size bytes."""
    with open(path, "rb") as handle:
        unpacker = msgpack.Unpacker(handle, raw=False)
        preamble = unpacker.unpack()
        start = unpacker.tell()
        size = os.fstat(handle.fileno()).st_size
    body = preamble.get("body_size") if isinstance(preamble, dict) else None
    if not isinstance(body, int) or body < 0:
        return "no body size in the header (corrupted)"
    expected = start + _bin_prefix(body) + body
    if size < expected:
        return f"truncated: {size:,} of {expected:,} bytes"
    return ""


def read_entry(path) -> Entry:
    """The folder-list entry of one file: its header, or None and a short reason."""
    path = Path(path)
    try:
        header = read_header(path)
        problem = length_problem(path)
    except ReplayError as error:  # the field says which part: "header.roster: missing"
        field = "" if error.field == "file" else f"{error.field}: "
        return Entry(path, None, f"{field}{error.problem}")
    except OSError as error:
        return Entry(path, None, str(error))
    return Entry(path, None, problem) if problem else Entry(path, header)


def list_replays(folder) -> list[Entry]:
    """Every `*.mbgr` file in `folder` (sorted by name), unreadable ones included with why."""
    return [read_entry(path) for path in sorted(Path(folder).glob(f"*{SUFFIX}"))]
