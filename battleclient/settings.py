"""Where the BattleClient keeps its files: the last setup, replays and the JAX compile cache.

- last setup: $XDG_CONFIG_HOME/marl-battlegrounds/last_setup.json (default ~/.config/...),
  rewritten atomically (temporary file + os.replace) after every game start, and the last five
  in recent_setups.json beside it (the lobby's presets);
- replays: $XDG_DATA_HOME/marl-battlegrounds/replays (default ~/.local/share/...);
- compiled engine code: $MBG_JAX_CACHE, else $XDG_CACHE_HOME/marl-battlegrounds/jax
  (default ~/.cache/...); MBG_JAX_CACHE=off disables it.
"""

import datetime
import json
import os
from pathlib import Path

from battleclient.game_setup import ClientSetup, setup_from_dict
from fileio import replace_file, unused_path
from ui.paths import data_dir

APP_DIR = "marl-battlegrounds"
SETUP_FILE = "last_setup.json"
RECENT_FILE = "recent_setups.json"
RECENT_COUNT = 5  # the lobby's "last five setups"


def _xdg(variable: str, default: str) -> Path:
    value = os.environ.get(variable)
    return Path(value) if value else Path.home() / default


def config_dir() -> Path:
    return _xdg("XDG_CONFIG_HOME", ".config") / APP_DIR


def replay_dir() -> Path:
    return data_dir() / "replays"  # beside the screenshots both apps save (ui.paths)


def jax_cache_dir() -> Path | None:
    value = os.environ.get("MBG_JAX_CACHE")
    if value and value.lower() in ("off", "0", "none", "no"):
        return None
    return Path(value) if value else _xdg("XDG_CACHE_HOME", ".cache") / APP_DIR / "jax"


def load_last_setup(path: Path | None = None) -> tuple[ClientSetup | None, str]:
    """(the stored setup or None, a message). A missing file is silent; an unreadable or invalid
    one gives None and a message naming the file and the problem."""
    path = path or config_dir() / SETUP_FILE
    if not path.is_file():
        return None, ""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:  # not JSON (or unreadable): the file says nothing
        return None, f"Last setup not used: {path}: {error}"
    try:
        return setup_from_dict(doc, source=str(path)), ""
    except ValueError as error:  # names the file and the field itself
        return None, f"Last setup not used: {error}"


def save_last_setup(setup: ClientSetup, path: Path | None = None) -> Path:
    """Writes the setup as JSON atomically (a reader never sees half a file)."""
    path = path or config_dir() / SETUP_FILE
    return replace_file(path, (json.dumps(setup.to_dict(), indent=2) + "\n").encode("utf-8"))


def load_recent_setups(path: Path | None = None) -> list[ClientSetup]:
    """The last RECENT_COUNT setups started, newest first (the lobby's presets); a missing,
    unreadable or invalid file, or an invalid entry in it, is skipped silently (the list is a
    convenience, rebuilt by the next game start)."""
    path = path or config_dir() / RECENT_FILE
    try:
        docs = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    out = []
    for doc in docs if isinstance(docs, list) else []:
        try:
            out.append(setup_from_dict(doc, source=str(path)))
        except ValueError:
            continue
    return out[:RECENT_COUNT]


def remember_recent_setup(setup: ClientSetup, path: Path | None = None) -> Path:
    """Puts `setup` first in the recent setups (once; the oldest beyond RECENT_COUNT drop),
    written atomically."""
    path = path or config_dir() / RECENT_FILE
    kept = [setup, *(s for s in load_recent_setups(path) if s != setup)][:RECENT_COUNT]
    return _replace_json(path, [s.to_dict() for s in kept])


def _replace_json(path: Path, doc) -> Path:
    """Writes `doc` as JSON at `path` with fileio.replace_file (a settings file: replacing it
    is meant; a reader sees the old file or the new one, never half of one)."""
    return replace_file(path, (json.dumps(doc, indent=2) + "\n").encode("utf-8"))


def timestamp(now=None) -> str:
    return (now or datetime.datetime.now()).strftime("%Y%m%d-%H%M%S")


def new_replay_path(folder: Path, map_id: int, seed: int, now=None) -> Path:
    """A new replay file name in `folder`: 20250101-120000_map047_seed7.mbgr (-2, -3, ... when
    taken)."""
    return unused_path(folder, f"{timestamp(now)}_map{map_id:03d}_seed{seed}.mbgr")
