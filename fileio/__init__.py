"""Writing files safely: the one home of the project's atomic, no-clobber file writes.

Every file the project produces (replays, checkpoints, PNGs, videos, metrics tables, tournament
results, map files, the BattleClient's settings) goes through `fileio.atomic`. The package has
no dependency outside the standard library, so every layer (engine tools, policies, evaluation,
the apps, the command line, maps/) may import it without pulling in JAX or pygame.
"""

from fileio.atomic import (
    ordinary_temp_file,
    output_file,
    output_folder,
    output_options,
    publish_new_file,
    replace_file,
    unused_path,
    write_new_file,
    write_new_file_with,
)

__all__ = [
    "ordinary_temp_file",
    "output_file",
    "output_folder",
    "output_options",
    "publish_new_file",
    "replace_file",
    "unused_path",
    "write_new_file",
    "write_new_file_with",
]
