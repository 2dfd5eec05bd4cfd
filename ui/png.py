"""PNG files of pygame surfaces, written as replays are: never half a file, never over one."""

from pathlib import Path

import pygame

from fileio import write_new_file_with


def save_png(surface, path) -> Path:
    """Writes `surface` (a pygame Surface) as PNG to `path`, making its folder, with the
    guarantees of `fileio.atomic` (whole or nothing, never over a file). Raises
    FileExistsError if `path` exists, pygame.error if the image cannot be encoded."""
    return write_new_file_with(path, lambda tmp: pygame.image.save(surface, tmp))
