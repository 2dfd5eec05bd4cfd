"""`python -m battleclient ...`: the same as the `battleclient` command (battleclient.app.main)."""

import sys

from battleclient.app import main

sys.exit(main())
