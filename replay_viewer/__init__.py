"""The Replay Viewer (`replay-viewer`): replays tick by tick, in any view; never imports JAX."""

import os

# pygame-ce prints a "pygame-ce x.y (SDL ...)" banner when first imported unless this is set.
# The package runs before any of its modules imports pygame, and a re-started interpreter (the
# BattleClient re-executes itself once, the viewer is opened as a child process) inherits it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
