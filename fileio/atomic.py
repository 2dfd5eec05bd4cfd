"""Atomic file writes that never replace an existing file (and one that does, on purpose).

The guarantees, for every function here that makes a file:

- **Whole or nothing**: the bytes go to a temporary file in the destination's folder (the same
  file system, so the final step is atomic), are flushed and fsynced, and only then get the
  destination's name. A reader, or a run killed at any moment, sees no file or the whole file;
  a killed write leaves at most a hidden `.NAME.*.tmp` file beside it.
- **No clobber** (`write_new_file`, `write_new_file_with`, `publish_new_file`): the name is
  given by a hard link, which fails if the name exists, so of two writers racing for one name
  exactly one wins and the other gets FileExistsError. On a file system without hard links
  (some network and FAT mounts) the name is given by a rename after a check, which is atomic
  for readers but leaves a race between two writers.
- **Ordinary mode**: the file gets the mode of any new file, 0666 & ~umask, not the 0600 of
  `tempfile.mkstemp` (maps, replays and tables are read by other users and tools).
- The destination's folder is created if missing.

Sources: POSIX link(2) (fails with EEXIST), rename(2) (atomic replacement), fsync(2); Python's
`os.link`, `os.replace` and `tempfile.mkstemp` documentation.
"""

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

REFUSAL = "refusing to overwrite an existing file"
EXISTS = "already exists; choose another name"  # said before any work (output_file)


def _umask() -> int:
    """The process umask, read without changing it where Linux shows it (os.umask can only be
    read by setting it, which would briefly change it for every thread)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    umask = os.umask(0o022)
    os.umask(umask)
    return umask


def ordinary_temp_file(folder, prefix: str, suffix: str = "") -> tuple[int, str]:
    """A temporary file for an atomic write: like tempfile.mkstemp(dir=folder, prefix=prefix,
    suffix=suffix), whose files are mode 0600, but with the mode of any new file,
    0666 & ~umask. Returns (open descriptor, path); raises OSError if `folder` is not writable."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=prefix, suffix=suffix)
    try:
        os.fchmod(fd, 0o666 & ~_umask())
    except BaseException:
        os.close(fd)
        os.unlink(tmp)
        raise
    return fd, tmp


def publish_new_file(tmp, path, refusal: str = REFUSAL) -> Path:
    """Give the finished temporary file `tmp` the name `path` without ever replacing a file
    (hard link, or a checked rename where links are unsupported; see the module docstring).
    `tmp` is removed in every case. Raises FileExistsError("<path>: <refusal>")."""
    tmp, path = Path(tmp), Path(path)
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise FileExistsError(f"{path}: {refusal}") from None
    except OSError:  # no hard links on this file system: check, then rename
        if path.exists():
            raise FileExistsError(f"{path}: {refusal}") from None
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def _temp_beside(path: Path, suffix: str) -> tuple[int, str]:
    path.parent.mkdir(parents=True, exist_ok=True)
    return ordinary_temp_file(path.parent, f".{path.name}.", suffix)


def _write_synced(fd: int, data: bytes) -> None:
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_new_file(path, data: bytes, refusal: str = REFUSAL) -> Path:
    """Write `data` to `path`, a file that must not exist yet, with the guarantees of the module
    docstring. Returns `path`; raises FileExistsError("<path>: <refusal>") when it exists."""
    path = Path(path)
    if path.exists():
        raise FileExistsError(f"{path}: {refusal}")
    fd, tmp = _temp_beside(path, ".tmp")
    try:
        _write_synced(fd, data)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return publish_new_file(tmp, path, refusal)


def write_new_file_with(path, write: Callable[[str], None], refusal: str = REFUSAL) -> Path:
    """Like `write_new_file`, for writers that want a file name: `write(temp_path)` fills a
    temporary file whose suffix is `path`'s (pygame.image.save and polars pick the format from
    it), which is then fsynced and published. Raises FileExistsError, and whatever `write`
    raises (the temporary file is removed)."""
    path = Path(path)
    if path.exists():
        raise FileExistsError(f"{path}: {refusal}")
    fd, tmp = _temp_beside(path, path.suffix or ".tmp")
    os.close(fd)
    try:
        write(tmp)
        with open(tmp, "rb+") as handle:
            os.fsync(handle.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return publish_new_file(tmp, path, refusal)


def replace_file(path, data: bytes) -> Path:
    """Write `data` atomically to `path`, replacing any file there (os.replace): for files that
    are rebuilt as a whole on purpose (a tournament's manifest, settings, a map file written
    with --force). Whole-or-nothing and ordinary mode as in the module docstring."""
    path = Path(path)
    fd, tmp = _temp_beside(path, ".tmp")
    try:
        _write_synced(fd, data)
        os.replace(tmp, path)
    finally:
        Path(tmp).unlink(missing_ok=True)
    return path


def _given(path, option: str) -> Path:
    """`path` as a Path, refused when empty (Path("") is ".", so `--out=` would quietly mean
    the current folder) or when it starts with "~" (only a shell expands it, and not in
    `--out=~/runs`: the run would make a folder named "~" here). Raises ValueError naming
    the option."""
    if not str(path).strip():
        raise ValueError(f"{option}: is empty; give a path")
    path = Path(path)
    if path.parts[0].startswith("~"):
        raise ValueError(
            f"{option} {path}: a '~' is not expanded here; write the folder out"
            f" ({os.path.expanduser(path.parts[0])}) or put a space after the option"
        )
    return path


def _limits(path: Path) -> tuple[int, int]:
    """(longest file name, longest path), in bytes, on the file system under `path`
    (pathconf(3) _PC_NAME_MAX and _PC_PATH_MAX of its nearest existing folder; Linux's 255
    and 4096 where unknown)."""
    place = next((p for p in (path, *path.parents) if os.path.isdir(p)), Path("."))
    try:
        return os.pathconf(place, "PC_NAME_MAX"), os.pathconf(place, "PC_PATH_MAX")
    except (OSError, ValueError):
        return 255, 4096


def _short_names(path: Path, option: str) -> None:
    """Refuse a `path` too long for the file system: stat and open fail with a bare "[Errno
    36] File name too long", and only once a missing folder above it is made, after the work.
    Raises ValueError naming the option and the name, cut to 24 characters."""
    name_max, path_max = _limits(path)
    for part in (*path.parts, str(path)):
        size, limit = len(os.fsencode(part)), name_max if part in path.parts else path_max
        if size > limit:
            shown = part if len(part) <= 24 else part[:21] + "..."
            what = "name" if part in path.parts else "path"
            raise ValueError(
                f"{option} {shown!r}: a {what} of {size} bytes; the file system allows {limit}"
            )


def _can_make_a_file(place: Path) -> str | None:
    """None when a file can be made in the folder `place`, else why not ("read-only file
    system", "no such file or directory" in /proc): a hidden file is made there and removed.
    access(2) alone is not enough: it reads permission bits, which grant root every folder,
    /proc and read-only mounts included, where the write then fails after the work."""
    try:
        fd, tmp = tempfile.mkstemp(dir=place, prefix=".mbg-write-check-", suffix=".tmp")
    except OSError as error:
        return (error.strerror or str(error)).lower()
    os.close(fd)
    os.unlink(tmp)
    return None


def _writable_below(path: Path, option: str, shown: Path) -> None:
    """Refuse a `path` below something that exists as other than a folder (mkdir and open
    would fail there with a bare "[Errno 17] File exists" or "[Errno 20] Not a directory"),
    or whose nearest existing folder this process cannot write in (access(2) W_OK | X_OK, then
    a file made there and removed, `_can_make_a_file`; the write would fail with "[Errno 13]
    Permission denied" or "[Errno 30] Read-only file system" once the games are played).
    Raises FileExistsError or PermissionError naming the option, `shown` and the folder at
    fault."""
    for place in path.parents:
        if place.exists() and not place.is_dir():
            raise FileExistsError(f"{option} {shown}: {place} is a file, not a folder")
    place = next(p for p in (*path.parents, Path(".")) if p.is_dir())
    if not os.access(place, os.W_OK | os.X_OK):
        raise PermissionError(f"{option} {shown}: cannot write in {place} (permission denied)")
    why = _can_make_a_file(place)
    if why:
        raise PermissionError(
            f"{option} {shown}: cannot write in {place} (making a file there: {why})"
        )


def output_folder(path, option: str = "--out") -> Path:
    """`path` as a folder a command will write into, checked before any work: refused when it
    is empty, starts with "~", has a name too long for the file system, or when it, or a
    folder above it, exists as something other than a folder, or the nearest existing folder
    is not writable (left to mkdir or open, each shows as a bare "[Errno N] ..." naming no
    option, part way through). Creates nothing (the file made to test the folder is removed
    at once). Raises ValueError, FileExistsError or PermissionError naming the option and
    paths."""
    path = _given(path, option)
    _short_names(path, option)
    if path.exists() and not path.is_dir():
        raise FileExistsError(f"{option} {path}: exists and is not a folder")
    _writable_below(path / "_", option, path)
    return path


def output_file(path, option: str, force: bool = False, refusal: str = EXISTS) -> Path:
    """`path` as a new file a command will write (`write_new_file`), checked before any work,
    so that a bad name fails before the games rather than after them: refused when it is
    empty, starts with "~", is too long, is a folder, is below a file or in a folder this
    process cannot write in, or (unless `force`: a command that replaces on purpose) is an
    existing file. Creates nothing (the file made to test the folder is removed at once).
    Raises ValueError, IsADirectoryError, FileExistsError or PermissionError naming the
    option and the path: "--csv out.csv: already exists; choose another name"."""
    path = _given(path, option)
    _short_names(path, option)
    if path.is_dir():
        raise IsADirectoryError(f"{option} {path}: is a folder; give a file name")
    if path.exists() and not force:
        raise FileExistsError(f"{option} {path}: {refusal}")
    _writable_below(path, option, path)
    return path


def output_options(args, names, refusal: str = EXISTS) -> dict[str, Path]:
    """`output_file` for each option of `names` (attribute names of parsed arguments, e.g.
    "replay_out" for --replay-out) that was given: {name: its checked Path}. Raises as
    `output_file` does, for the first option at fault."""
    given = {name: getattr(args, name, None) for name in names}
    return {
        name: output_file(path, "--" + name.replace("_", "-"), refusal=refusal)
        for name, path in given.items()
        if path is not None
    }


def unused_path(folder, name: str) -> Path:
    """folder/name, or folder/<stem>-2<suffix>, -3, ...: the first that does not exist yet
    (for names chosen automatically: screenshots, videos, replays; the write itself must still
    be a no-clobber write, since another program may take the name in between)."""
    folder, name = Path(folder), Path(name)
    path, n = folder / name, 1
    while path.exists():
        n += 1
        path = folder / f"{name.stem}-{n}{name.suffix}"
    return path
