"""Put the repository root first on sys.path.

tests/ holds folders named like the packages (tests/engine, tests/policies) without
__init__.py; with tests/ on sys.path they would import as empty namespace packages and shadow
the real ones when this folder runs on its own.
"""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[2])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
