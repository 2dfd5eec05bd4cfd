"""`python -m replay_viewer`: the viewer's command line (replay_viewer.cli)."""

import sys

from replay_viewer.cli import main

sys.exit(main())
