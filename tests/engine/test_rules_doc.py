"""RULES.md states the rules and observation versions the engine runs (its line 8 and the
constants are the two places a reader looks; they must agree)."""

import re
from pathlib import Path

from engine.constants import RULES_VERSION
from engine.types import OBS_VERSION

RULES_MD = Path(__file__).resolve().parents[2] / "RULES.md"


def test_rules_md_names_the_engines_rules_and_observation_versions():
    found = re.search(r"^Rules version: (\S+) \(observation layout `OBS_VERSION = (\d+)`\)",
                      RULES_MD.read_text(), re.MULTILINE)  # fmt: skip
    assert found is not None, f"{RULES_MD}: no 'Rules version: N (observation layout ...)' line"
    assert (found[1], int(found[2])) == (RULES_VERSION, OBS_VERSION)
