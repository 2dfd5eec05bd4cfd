"""PNG files of pygame surfaces, written as replays are: never half a file, never over one."""

import os
from pathlib import Path

import pygame


def save_png(surface, path) -> Path:
    """Writes `surface` (a pygame Surface) as a PNG at `path`, making its folder.

    The picture goes to a temporary file beside `path` first and is then hard-linked to its
    name (os.link is atomic and fails when the name exists), so a reader never sees a partial
    PNG. Raises FileExistsError naming `path` when a file is there already; OSError when the
    folder cannot be written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.png")
    pygame.image.save(surface, str(tmp))
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise FileExistsError(f"{path}: refusing to overwrite an existing file") from None
    finally:
        tmp.unlink(missing_ok=True)
    return path
