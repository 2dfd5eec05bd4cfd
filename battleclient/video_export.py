"""The game-over card's "Export video": the game just played as a GIF in the Oracle view
(replay_viewer.playback.VideoJob: the videos folder, a name not yet taken, a few frames per
window frame so the window keeps answering). No JAX."""

from evaluation.replay import read_replay
from replay_viewer.model import ViewerModel
from replay_viewer.playback import VideoJob


class EndCardVideo:
    """At most one export at a time; `line` says how it is going, for the game-over card."""

    def __init__(self, folder=None):
        self.folder, self.job, self.line = folder, None, ""

    @property
    def running(self) -> bool:
        return self.job is not None

    def start(self, replay_path) -> None:
        """Starts exporting the replay file `replay_path`; a problem becomes `line`."""
        if self.job is not None:
            return
        try:
            model = ViewerModel(read_replay(replay_path), str(replay_path))
            self.job = VideoJob(replay_path, model, self.folder)
        except (OSError, ValueError) as error:
            self.line = f"Video not exported: {error}"
            return
        self.line = self.job.progress_text().removesuffix("; Esc stops")

    def step(self) -> None:
        """Some frames of the running export (call once a window frame)."""
        if self.job is None:
            return
        try:
            finished = self.job.step()
        except (OSError, ValueError) as error:
            self.job, self.line = None, f"Video not exported: {error}"
            return
        if finished:
            self.job, self.line = None, self.job.finished_text()
        else:
            self.line = self.job.progress_text().removesuffix("; Esc stops")

    def cancel(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.job = None
