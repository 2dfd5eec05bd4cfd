"""Settings of an LLM System (`llm:CONFIG.json` or `llm:MODEL@URL` in a slot spec).

A config file is one JSON object; only `model` and `base_url` are required. Fields (default):

- model, base_url: the model name the endpoint serves and its base URL
  (http://127.0.0.1:8000/v1 for a local vLLM).
- api_key_env ("OPENAI_API_KEY"): the environment variable holding the key; the key itself never
  goes in a file, log, replay or message. Unset: a placeholder (local servers need none).
- per ("agent"): one call per agent a tick, or "team": one call per team a tick.
- timeout_s (30): seconds one HTTP request may take. max_retries (2): re-sends after a network
  error, 429 or 5xx, with exponential backoff from backoff_s (0.5; doubling, at most 8 s).
- decision_budget_s (60): wall-clock seconds for one decision, retries and the re-prompt
  included; then the fallback.
- concurrency (16): requests in flight at once for this System, across agents and games.
- history (0): earlier ticks (own view and reply) sent as chat turns.
- thinking (false): true asks for reasoning first, false for the JSON only, null says nothing;
  also sent as `chat_template_kwargs.enable_thinking` unless `extra_body` sets it.
- temperature (0.0), top_p (null), seed (null): sampling; null: the endpoint's default.
- max_tokens (256): reply length in tokens.
- system_prompt_file (null): a text file replacing the rules brief (relative to the config).
- extra_body ({}): more request fields passed as they are (e.g. {"top_k": 20} for vLLM).
- record_prompts (false): keep every prompt and reply in the replay (fallbacks and their
  reasons are always kept).

Errors name the file, the field and the value at fault (ValueError).
"""

import json
import os
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

PER = ("agent", "team")
PLACEHOLDER_KEY = "no-key"  # what the client sends when the key's variable is unset


@dataclass(frozen=True)
class LLMConfig:
    """One LLM System's settings; see the module docstring for every field."""

    model: str
    base_url: str
    api_key_env: str = "OPENAI_API_KEY"
    per: str = "agent"
    timeout_s: float = 30.0
    max_retries: int = 2
    backoff_s: float = 0.5
    decision_budget_s: float = 60.0
    concurrency: int = 16
    history: int = 0
    thinking: bool | None = False
    temperature: float | None = 0.0
    top_p: float | None = None
    seed: int | None = None
    max_tokens: int = 256
    system_prompt_file: str | None = None
    extra_body: dict = field(default_factory=dict)
    record_prompts: bool = False

    def api_key(self) -> str:
        """The key from `api_key_env` (a placeholder when unset); never stored in the config."""
        return os.environ.get(self.api_key_env) or PLACEHOLDER_KEY

    def system_prompt(self) -> str | None:
        """The custom system prompt's text, or None. Raises ValueError naming the file."""
        if self.system_prompt_file is None:
            return None
        path = Path(self.system_prompt_file)
        try:
            return path.read_text(encoding="utf-8")
        except OSError as error:
            raise ValueError(f"llm config: system_prompt_file {str(path)!r}: {error}") from None


_NUMBERS = {  # field -> (lowest allowed, kind)
    "timeout_s": (1e-3, float),
    "backoff_s": (0.0, float),
    "decision_budget_s": (1e-3, float),
    "max_retries": (0, int),
    "concurrency": (1, int),
    "history": (0, int),
    "max_tokens": (1, int),
}


def _check(config: LLMConfig, source: str) -> LLMConfig:
    def bad(name, wanted):
        value = getattr(config, name)
        return ValueError(f"{source}: field {name!r}: {value!r} is not {wanted}")

    for name in ("model", "base_url", "api_key_env"):
        if not isinstance(getattr(config, name), str) or not getattr(config, name).strip():
            raise bad(name, "a non-empty string")
    if not config.base_url.startswith(("http://", "https://")):
        raise bad("base_url", "an http:// or https:// URL")
    if config.per not in PER:
        raise bad("per", f"one of {PER}")
    for name, (low, kind) in _NUMBERS.items():
        value = getattr(config, name)
        is_kind = isinstance(value, int | float) if kind is float else isinstance(value, int)
        if isinstance(value, bool) or not is_kind or value < low:
            raise bad(name, f"a{'n integer' if kind is int else ' number'} >= {low:g}")
    for name in ("temperature", "top_p"):
        value = getattr(config, name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int | float)):
            raise bad(name, "a number or null")
    if config.seed is not None and (
        isinstance(config.seed, bool) or not isinstance(config.seed, int)
    ):
        raise bad("seed", "an integer or null")
    if config.thinking not in (True, False, None):
        raise bad("thinking", "true, false or null")
    if not isinstance(config.record_prompts, bool):
        raise bad("record_prompts", "true or false")
    if not isinstance(config.extra_body, dict):
        raise bad("extra_body", "a JSON object")
    if config.system_prompt_file is not None and not isinstance(config.system_prompt_file, str):
        raise bad("system_prompt_file", "a file path or null")
    return config


def from_mapping(values: dict, source: str = "llm config", base: Path | None = None) -> LLMConfig:
    """An LLMConfig from a JSON object; unknown fields and bad values raise ValueError naming
    `source`. base: folder that a relative system_prompt_file is read from."""
    if not isinstance(values, dict):
        raise ValueError(f"{source}: expected a JSON object, got {type(values).__name__}")
    if any("key" in k and k != "api_key_env" for k in values):  # the value is never echoed
        raise ValueError(f"{source}: put the key in an environment variable named by api_key_env")
    known = {f.name for f in fields(LLMConfig)}
    unknown = sorted(set(values) - known)
    if unknown:
        raise ValueError(
            f"{source}: unknown field {unknown[0]!r}; fields: {', '.join(sorted(known))}"
        )
    for name in ("model", "base_url"):
        if name not in values:
            raise ValueError(f"{source}: field {name!r} is missing")
    config = _check(LLMConfig(**values), source)
    prompt = config.system_prompt_file
    if prompt is not None and base is not None and not Path(prompt).is_absolute():
        config = replace(config, system_prompt_file=str(base / prompt))
    return config


def load_config(path) -> LLMConfig:
    """Read a config file. Raises FileNotFoundError-like ValueError and ValueError naming the
    file and field at fault."""
    path = Path(path)
    try:
        values = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"llm config {str(path)!r}: cannot be read ({error.strerror})") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"llm config {str(path)!r}: not valid JSON ({error})") from None
    return from_mapping(values, f"llm config {str(path)!r}", path.parent)


def parse_spec(arg: str) -> LLMConfig:
    """The text after `llm:` -> LLMConfig: a path ending in .json, or MODEL@URL (defaults for
    everything else). Raises ValueError for anything else."""
    arg = arg.strip()
    if arg.lower().endswith(".json"):
        return load_config(arg)
    model, at, url = arg.partition("@")
    if not at or not model or not url:
        raise ValueError(
            f"slot spec: 'llm:{arg}' is neither llm:CONFIG.json nor llm:MODEL@URL "
            "(e.g. llm:qwen3@http://127.0.0.1:8000/v1)"
        )
    return from_mapping({"model": model, "base_url": url}, f"slot spec 'llm:{arg}'")
