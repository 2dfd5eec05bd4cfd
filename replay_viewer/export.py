"""Saving frames as PNG through a temporary file, never over an existing file."""

import os
from pathlib import Path

from ui.png import save_png  # noqa: F401  (the viewer's callers import it from here)


def publish(tmp, path) -> Path:
    """Gives the finished temporary file `tmp` its name `path` without ever replacing a file:
    a hard link (atomic, fails if `path` exists), or where links are unsupported a rename after
    a check (as evaluation.replay.write_replay does). Raises FileExistsError; removes `tmp`."""
    tmp, path = Path(tmp), Path(path)
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise FileExistsError(f"{path}: refusing to overwrite an existing file") from None
    except OSError:
        if path.exists():
            raise FileExistsError(f"{path}: refusing to overwrite an existing file") from None
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path
