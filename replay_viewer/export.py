"""Saving frames as PNG, atomically and never over an existing file (`ui.png`, `fileio`)."""

from ui.png import save_png  # noqa: F401  (the viewer's callers import it from here)
