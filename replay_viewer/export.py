"""Saving frames as PNG through a temporary file, never over an existing file."""

import os
from pathlib import Path

import pygame


def save_png(surface, path) -> Path:
    """Writes `surface` as PNG through a temporary file; refuses to replace an existing file."""
    path = Path(path)
    tmp = path.with_name(f".{path.stem}.{os.getpid()}.tmp.png")
    pygame.image.save(surface, str(tmp))
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise FileExistsError(f"{path}: refusing to overwrite an existing file") from None
    finally:
        tmp.unlink(missing_ok=True)
    return path
