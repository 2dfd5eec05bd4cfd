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
