"""The BattleClient: `battleclient [--map ID|SPLIT --slots SPEC --roster R --seed N ...]`.

The window opens at once on the lobby (or, with --slots, straight into the game) while JAX loads
and compiles on the engine thread (battleclient.controllers) behind a progress bar. An `App`
has `handle_events(events)`, `update(dt)` and `draw(surface)`, so tests drive it offscreen with
SDL_VIDEODRIVER=dummy. `--headless` plays machine slots to the end without a window; the
window is resizable (F11: full screen) and shows the 1280 x 800 layout scaled (ui.window_fit);
`--from-replay FILE --tick N` opens a game at a replay's tick (battleclient.branching). The
window loop itself (pacing, full screen, screenshots, SIGTERM) is battleclient.window_loop.
"""

import os
import subprocess
import sys
from pathlib import Path

import pygame

from battleclient import layout as L
from battleclient.cli import branch_from_args, parse_args, setup_from_args, study_preset
from battleclient.controllers import (
    Progress,
    Worker,
    import_runtime,
    prepare_rules,
    rules_key,
    warm_up,
)
from battleclient.game_setup import ClientSetup
from battleclient.map_catalog import load_choice, maps_by_split, read_catalog
from battleclient.screens import Screen
from battleclient.settings import (
    remember_recent_setup,
    save_last_setup,
)
from battleclient.startup import fixed_hash_seed, remembered_setup
from battleclient.window_loop import WindowLoop
from battleclient.wording import rules_words
from ui.focus import take_keyboard_back
from ui.panels import short_path
from ui.signals import EXIT_CODE as TERM_EXIT
from ui.signals import TermSignal, end_process
from ui.window_fit import WindowFit, hold_minimum_size, too_small


class App(WindowLoop):
    """The window's logic: one screen at a time (a battleclient.screens.Screen: the Lobby or a
    PlayScreen) and the engine thread."""

    def __init__(self, setup: ClientSetup, *, start=False, replay_out=None, message="",
                 remember=True, warm=True, animate=True, branch=None):  # fmt: skip
        # progress_font: 16 px, as pygame's default font hints "%" at 15 px into "%" over a "0"
        sizes = (("font", 18), ("small", 15), ("big", 26), ("progress_font", 16))
        for name, size in sizes:
            setattr(self, name, pygame.font.Font(None, size))
        self.catalog = read_catalog()
        self.maps_by_split = maps_by_split(self.catalog)
        self.setup, self.replay_out, self.remember = setup, replay_out, remember
        self.worker, self.jobs, self._next = Worker(), {}, 0
        self.progress = Progress()
        self.kinds: list[str] | None = None
        self.scripted: list[str] = []
        self.maps: dict = {}
        self.last_replay = None
        self.last_frame = None
        self.animate = animate  # in-between frames of each tick's resolution (resolution.py)
        self.fit = WindowFit(L.SIZE)  # the 1280 x 800 layout shown scaled in a resized window
        self.fullscreen = False
        self.viewers: list[subprocess.Popen] = []
        self.launch = subprocess.Popen  # replaced in tests
        self.running = True
        self.screen: Screen | None = None
        self.warming = warm and not start  # a game started at once compiles what it needs
        self.warm = warm  # False (tests): no background compiles, a game compiles what it needs
        self.prepared = {rules_key(setup)} if self.warming else set()  # rules sent to compile
        self.submit(import_runtime, self.progress, not self.warming, done=self._on_imported)
        if self.warming:
            self.submit(warm_up, self.progress, setup, self.maps_by_split, done=self._on_warm)
        if start:
            self.start_game(setup, branch)
        else:
            self.to_lobby(message, error=bool(message))

    # --- engine thread ---------------------------------------------------------------------
    def submit(self, fn, *args, done=None) -> None:
        """Run fn(*args) on the engine thread; done(ok, value) is called on the UI thread."""
        self._next += 1
        tag = f"job{self._next}"
        self.jobs[tag] = done
        self.worker.submit(tag, fn, *args)

    def poll(self) -> None:
        for tag, ok, value in self.worker.poll():
            done = self.jobs.pop(tag, None)
            if done is not None:
                done(ok, value)

    def _on_imported(self, ok, value) -> None:
        if not ok:
            self.progress.error = f"The engine could not load: {value}"
            self.progress.done = True
            return
        self.kinds, self.scripted = value["kinds"], value["scripted"]
        self.screen.refresh()

    def _on_warm(self, ok, value) -> None:
        problem = value if ok else f"{type(value).__name__}: {value}"
        if problem:
            self.screen.say(f"The current setup cannot be played yet: {problem}", error=True)

    def prepare(self, setup: ClientSetup) -> None:
        """Compile the engine for the rules of `setup` in the background (the lobby calls this
        when Max ticks, Score to win or Information change), once per rules, so Start does not
        wait for the compile; the progress bar shows it."""
        key = rules_key(setup)
        if self.warm and key not in self.prepared:
            self.prepared.add(key)
            self.submit(prepare_rules, self.progress, setup, self.maps_by_split)

    def progress_text(self, rules: ClientSetup | None = None) -> str:
        """The progress line; with `rules` (the setup the lobby shows, numbers being typed
        included), a "Ready" line about other rules says instead that these still compile."""
        return self.progress_view(rules)[0]

    def progress_view(self, rules: ClientSetup | None = None) -> tuple[str, float, bool]:
        """(progress line, bar fraction 0-1, done) as the lobby shows them: rules the lobby
        shows that are not compiled read as an empty bar, not the last job's full one."""
        p = self.progress
        if p.error:
            return p.error, p.fraction, p.done
        if rules is not None and p.done and p.text.startswith("Ready"):
            words = rules_words(rules)
            if rules_compiled_now(rules):
                return f"Ready: the engine is compiled{words}", 1.0, True
            if rules_key(rules) in self.prepared:
                return f"Compiling the engine{words}: waiting for the engine thread", 0.0, False
            text = (
                f"Not compiled yet{words}: Enter, Tab or a click elsewhere compiles it "
                "(else Start waits)"
            )
            return text, 0.0, False
        if p.done:
            return p.text, p.fraction, True
        percent = f"{round(100 * p.fraction)}%"
        if p.text.endswith(")"):  # "... (up to a minute)" -> "... (up to a minute, 80%)"
            return f"{p.text[:-1]}, {percent})", p.fraction, False
        return f"{p.text} ({percent})", p.fraction, False

    def map_spec(self, choice: int | str):
        """The loaded MapSpec of a map id or map file path (a pick_map result), or None when it
        does not load (the game start says why). Loaded here, on the UI thread (NumPy only,
        milliseconds), so the preview is the same drawing before and after the engine loads
        and does not wait behind a compile on the engine thread."""
        if choice not in self.maps:
            try:
                self.maps[choice] = load_choice(choice)
            except (OSError, ValueError):  # MapError is a ValueError
                self.maps[choice] = None
        return self.maps.get(choice)

    # --- screens ---------------------------------------------------------------------------
    def start_game(self, setup: ClientSetup, branch=None) -> None:
        """Open the play screen on `setup`; `branch` (battleclient.branching.Branch) starts
        it from a replay's tick instead of tick 0."""
        from battleclient.play_screen import PlayScreen

        self.setup = setup
        if self.remember:
            try:
                save_last_setup(setup)
                remember_recent_setup(setup)
            except OSError as error:
                print(f"battleclient: could not remember the setup: {error}", file=sys.stderr)
        self.screen = PlayScreen(self, setup, self.maps_by_split, self.replay_out, branch)

    def start_study(self, preset, setup: ClientSetup | None = None) -> None:
        """A study game (battleclient/study.py): the preset's setup (or `setup`, shorter rules
        for tests), the questionnaire after."""
        from battleclient.study_screen import StudyPlay

        self.setup = setup or preset.setup()
        self.screen = StudyPlay(self, preset, self.maps_by_split, self.setup)

    def to_scenarios(self, chosen_id: int | None = None, message: str = "", error=False) -> None:
        """The Scenarios screen (battleclient.scenario_screen), on scenario `chosen_id`, with
        `message` on its message line (in the error colour when `error`)."""
        from battleclient.scenario_screen import ScenarioScreen

        self.screen = ScenarioScreen(self, chosen_id, message, error)

    def start_scenario(self, scenario, human_slots, others: str = "") -> None:
        """Play `scenario` (battleclient.scenario_play): `human_slots` by the person, the
        focal team's other slots by the System spec `others` (its controller when empty)."""
        from battleclient.scenario_play import ScenarioPlay

        self.screen = ScenarioPlay(self, scenario, human_slots, others)

    def to_lobby(self, message: str = "", error: bool = False) -> None:
        from battleclient.lobby import Lobby

        self.screen = Lobby(self, self.setup, message, error)

    def on_left_game_saved(self, ok, value) -> None:
        saved = f"Replay of the last game saved: {short_path(value) if value else value}"
        text = saved if ok else f"Replay not saved: {value}"
        if ok and value is not None:
            self.last_replay = value
        if not ok or value is not None:
            self.screen.say(text, error=not ok)

    def open_viewer(self, path) -> str:
        """Start `replay-viewer PATH` as its own process; returns a message for the screen."""
        script = Path(sys.executable).with_name("replay-viewer")
        command = [str(script)] if script.exists() else [sys.executable, "-m", "replay_viewer.app"]
        try:
            self.viewers.append(self.launch([*command, str(path)], start_new_session=True))
        except OSError as error:
            return f"Could not start the Replay Viewer: {error}"
        return f"Opening {short_path(path)} in the Replay Viewer"

    def quit(self) -> None:
        self.running = False

    # --- frame -----------------------------------------------------------------------------
    def handle_events(self, events) -> None:
        events = list(events)
        if any(e.type == pygame.QUIT for e in events):
            return self.screen.leave(self.quit)
        if any(e.type == pygame.KEYDOWN and e.key == pygame.K_F12 for e in events):
            self.save_screenshot()
        if any(e.type == pygame.KEYDOWN and e.key == pygame.K_F11 for e in events):
            self.toggle_fullscreen()
        resized = any(e.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED) for e in events)
        shown = pygame.display.get_surface()
        # also checked every frame: a resize event may be gone before this loop reads it
        if resized or (
            shown is not None and not self.fullscreen and too_small(shown.get_size(), L.SIZE)
        ):
            self.fit.resize(hold_minimum_size(L.SIZE) or L.SIZE)
        self.screen.handle_events(events)

    def update(self, dt: float) -> None:
        self.poll()
        # reap Replay Viewers the player closed, so none lingers as a zombie process
        open_ = [v for v in self.viewers if v is not None and v.poll() is None]
        if len(open_) < len(self.viewers):
            take_keyboard_back()  # without a window manager the keys would go nowhere
        self.viewers = open_
        self.screen.update(dt)

    def draw(self, surface) -> None:
        self.screen.draw(surface)
        self.last_frame = surface

    def busy(self) -> bool:
        """True while the screen animates or plays on its own; else the loop waits for input
        (or a finished engine job, which posts an event) at a low frame rate."""
        return bool(self.screen.busy())


def main(argv=None) -> int:
    """Console entry point; returns the exit code (2 for bad arguments)."""
    if argv is None:
        fixed_hash_seed()
    args = parse_args(argv)
    try:
        setup, branch = branch_from_args(args)
        if setup is None:
            last, note = remembered_setup(args)
            setup = setup_from_args(args, last)
            args.preset = study_preset(args)
        else:
            note = f"Playing on from tick {args.tick} of {args.from_replay}"
    except (OSError, ValueError) as error:  # ReplayError is a ValueError
        print(f"battleclient: {error}", file=sys.stderr)
        return 2
    try:
        return _run(args, setup, note, branch)
    except OSError as error:  # a replay or screenshot that cannot be written: one line
        print(f"battleclient: {error}", file=sys.stderr)
        return 2


def rules_compiled_now(setup: ClientSetup) -> bool:
    """battleclient.session.rules_compiled, asked only once the engine thread has imported it
    (the UI thread never imports JAX itself); False before."""
    session = sys.modules.get("battleclient.session")
    return session is not None and session.rules_compiled(setup)


def _run(args, setup, note: str, branch=None) -> int:
    if args.headless:
        from battleclient.headless import run_headless

        slots_option = "--slots" if args.slots is not None else None
        return run_headless(setup, args.replay_out, slots_option=slots_option)
    if args.screenshot:
        os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    # Ours before SDL's: SDL_Init takes SIGTERM only while it has the default action, and a
    # SIGTERM between the window opening and the loop would otherwise become a QUIT that
    # waits up to a minute for the engine thread's compile (ui.signals).
    with TermSignal() as term:
        return _window(args, setup, note, branch, term)


def _window(args, setup, note: str, branch, term) -> int:
    pygame.display.init()
    pygame.font.init()
    display = pygame.display.set_mode(L.SIZE, pygame.RESIZABLE)
    hold_minimum_size(L.SIZE)  # smaller, the layout no longer reads (ui.window_fit)
    pygame.display.set_caption("MARL-BattleGrounds BattleClient")
    start = bool(args.slots and not args.lobby) or bool(args.screenshot) or branch is not None
    preset = getattr(args, "preset", None)
    app = App(setup, start=start and preset is None, replay_out=args.replay_out, message=note,
              remember=not args.screenshot and branch is None and preset is None,
              animate=args.animate, branch=branch)  # fmt: skip
    if preset is not None:
        app.start_study(preset)
    app.draw(display)
    pygame.display.flip()
    code = app.run(display, args.screenshot, args.after_ticks, term)
    if code == TERM_EXIT:
        end_process(code)  # an engine-thread compile may still run: see ui.signals
    return code


if __name__ == "__main__":
    sys.exit(main())
