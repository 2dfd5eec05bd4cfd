"""requirements.lock pins every package exactly, and `make play` / `make test` install from it."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = ROOT / "requirements.lock"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.+!-]+)$")


def _name(text: str) -> str:
    """PEP 503 normalised project name of a requirement string."""
    return re.sub(r"[-_.]+", "-", re.match(r"[A-Za-z0-9._-]+", text.strip()).group()).lower()


def pins() -> dict:
    out = {}
    for number, line in enumerate(LOCK.read_text().splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        match = PIN.match(line.strip())
        assert match, f"requirements.lock line {number}: {line!r} is not NAME==VERSION"
        out[_name(match[1])] = match[2]
    return out


def test_every_line_is_an_exact_pin_and_jax_is_pinned():
    locked = pins()
    assert locked["jax"] == locked["jaxlib"], "jax and jaxlib must be the same release"
    assert "marl-battlegrounds" not in locked  # the project itself is installed editable


def test_every_dependency_and_extra_of_pyproject_is_locked():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        wanted += extra
    missing = sorted({_name(r) for r in wanted} - set(pins()))
    assert not missing, f"not in requirements.lock (run `make lock`): {missing}"


def test_make_installs_from_the_lock():
    makefile = (ROOT / "Makefile").read_text()
    assert "pip install --quiet -c $(LOCK) -e '.[dev]'" in makefile
    assert "$(STAMP): pyproject.toml $(LOCK)" in makefile
