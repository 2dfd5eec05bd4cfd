"""Where the metric table comes from: the replay, or computed here when that stays JAX-free.

A replay may carry its metrics (`Replay.metrics`). Otherwise the viewer computes the priority
level with `evaluation.metrics.compute_metrics`, but only if that module and everything it
imports from this project are free of jax/flax/optax (checked by reading their imports with
`ast`, without importing anything), because the viewer must never start JAX.
"""

import ast
import importlib.util
import sys
from pathlib import Path

import polars as pl

HEAVY = ("jax", "jaxlib", "flax", "optax", "orbax")
PROJECT = (
    "engine",
    "policies",
    "training",
    "evaluation",
    "ui",
    "battleclient",
    "replay_viewer",
    "cli",
)


def _source_path(module: str) -> Path | None:
    """The .py file of a project module, found without importing it (or its packages)."""
    parts = module.split(".")
    spec = importlib.util.find_spec(parts[0])
    if spec is None or not spec.submodule_search_locations:
        return None
    base = Path(next(iter(spec.submodule_search_locations)))
    for candidate in (
        base.joinpath(*parts[1:]).with_suffix(".py"),
        base.joinpath(*parts[1:], "__init__.py"),
    ):
        if candidate.is_file():
            return candidate
    return None


def _import_time_nodes(tree: ast.AST):
    """Every node that runs when the module is imported: function bodies are skipped, because
    an import inside a function (engine/__init__.py's lazy names) runs only when it is called."""
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))


def _imports(path: Path, module: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in _import_time_nodes(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    package.split(".")[: len(package.split(".")) - node.level + 1]
                    + ([base] if base else [])
                )
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def jax_free(module: str) -> bool:
    """True if importing `module` would not import jax/flax/optax (project imports followed;
    imports inside functions are not, since importing the module does not run them)."""
    seen, todo = set(), [module]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name.split(".")[0] in HEAVY:
            return False
        if name.split(".")[0] not in PROJECT:
            continue
        parts = name.split(".")
        for k in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__
            prefix = ".".join(parts[:k])
            path = _source_path(prefix)
            if path is not None and prefix not in seen | {name}:
                todo.append(prefix)
        path = _source_path(name)
        if path is not None:
            todo.extend(_imports(path, name) - seen)
    return True


def replay_metrics(replay, level: str = "priority") -> tuple[pl.DataFrame | None, str]:
    """(table or None, a line saying where it came from or why there is none)."""
    if replay.metrics is not None:
        return (
            replay.metrics,
            f"{replay.metrics.height} metrics recorded ({replay.header['metrics_level']})",
        )
    if "evaluation.metrics" not in sys.modules and not jax_free("evaluation.metrics"):
        return None, "no metrics recorded (computing them here would need JAX)"
    try:
        from evaluation.metrics import compute_metrics
    except ImportError:
        return None, "no metrics recorded"
    try:
        frame = compute_metrics(replay, level)
    except ValueError as error:
        return None, f"no metrics recorded; computing them failed: {error}"
    return frame, f"{frame.height} {level} metrics computed from the events"
