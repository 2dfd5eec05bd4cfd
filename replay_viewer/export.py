"""Saving frames as PNG through a temporary file, never over an existing file."""

import os
from pathlib import Path

import pygame


def save_png(surface, path) -> Path:
    """Writes `surface` as PNG through a temporary file, making its folder as replays do;
    refuses to replace an existing file (FileExistsError)."""
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
