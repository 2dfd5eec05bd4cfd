"""engine/constants.py (plain NumPy) without importing the JAX engine.

`import engine.constants` runs engine/__init__.py, which imports JAX; the Replay Viewer must
start without it. The file is loaded by path under a private module name (the same name
ui/rules.py uses, so both share one module), or reused when the engine is already imported.
"""

import importlib.util
import sys
from pathlib import Path

_PRIVATE = "_mbg_engine_constants"


def _load():
    for name in ("engine.constants", _PRIVATE):
        if name in sys.modules:
            return sys.modules[name]
    spec = importlib.util.find_spec("engine")  # finding a top-level package imports nothing
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("evaluation.metrics needs engine/constants.py, which is not installed")
    path = Path(next(iter(spec.submodule_search_locations))) / "constants.py"
    module_spec = importlib.util.spec_from_file_location(_PRIVATE, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[_PRIVATE] = module
    module_spec.loader.exec_module(module)
    return module


C = _load()
