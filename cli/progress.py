"""Progress of a run of games on stderr (`mbg play`, `mbg eval`): rich's bar on a terminal,
plain lines in a log, where a live bar would stay blank until the end."""

import sys


class LogLines:
    """Progress for a stderr that is not a terminal (a log file, a pipe): a plain line at
    every tenth of the games, since a live bar draws nothing there until the end."""

    def __init__(self, total: int, command: str):
        self.total, self.done, self.step = total, 0, max(1, total // 10)
        self.command = command

    def advance(self) -> None:
        self.done += 1
        if self.done % self.step == 0 or self.done == self.total:
            print(f"{self.command}: {self.done}/{self.total} games", file=sys.stderr, flush=True)

    def stop(self) -> None:
        pass


class Bar:
    """A transient rich progress bar on stderr (a terminal)."""

    def __init__(self, total: int):
        from rich.console import Console
        from rich.progress import Progress

        self.progress = Progress(console=Console(stderr=True), transient=True)
        self.progress.start()
        self.task = self.progress.add_task("games", total=total)

    def advance(self) -> None:
        self.progress.advance(self.task)

    def stop(self) -> None:
        self.progress.stop()


def game_progress(total: int, quiet: bool, command: str):
    """Progress on stderr for runs of more than one game: a bar on a terminal, a line per tenth
    of the games elsewhere (lines start with `command`); None for one game or when quiet (--json)
    off a terminal. The result has advance() (one game done) and stop()."""
    if total < 2 or quiet and not sys.stderr.isatty():
        return None
    return Bar(total) if sys.stderr.isatty() else LogLines(total, command)
