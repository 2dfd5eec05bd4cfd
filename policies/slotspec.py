"""Slot specs: a string that picks a System for every slot, and the registry of System kinds.

Grammar: comma-separated `SLOTS=SPEC` items, e.g. `A0=human,A1-A4=scripted:tactician,B*=random`.
SLOTS is `A0`..`A4` / `B0`..`B4` (Team A = global slots 0-4, Team B = 5-9), a range within one
team (`A1-A4` or `A1-4`), a whole team (`A*`, `B*`) or every slot (`*`). A wildcard fills only
the slots that earlier items left unassigned (`A0=human,*=random`); a slot named twice by single
slots or ranges, a single slot after a wildcard that filled it, and a wildcard left with nothing
to fill are errors. SPEC is `KIND` or `KIND:ARG`: `random`, `scripted:NAME`, `checkpoint:PATH`,
`human`, `llm:CONFIG.json` or `llm:MODEL@URL`. The last three are provided by other modules,
which call `register_kind` when imported (the registry imports them on first use, see
`PROVIDERS`); a provided kind whose module is not part of this installation is neither listed
nor accepted. A SPEC may contain commas;
only a comma followed by `SLOTS=` starts a new item.
"""

import functools
import importlib
import importlib.util
import re
from collections.abc import Callable, Sequence

import numpy as np

from engine import constants as C
from policies.system import Lineup, System

Factory = Callable[[str, tuple[int, ...]], System]  # (arg after "KIND:", slots) -> System

# Kinds whose factory lives in another part of the project: importing the module registers it.
PROVIDERS = {
    "checkpoint": "policies.checkpoints",
    "human": "battleclient.human",
    "llm": "policies.llm",
}
USAGE = {
    "random": "random",
    "scripted": "scripted:NAME",
    "checkpoint": "checkpoint:PATH[#greedy]",
    "human": "human",
    "llm": "llm:CONFIG.json|MODEL@URL",
}
_REGISTRY: dict[str, Factory] = {}

_SLOT = r"(?:\*|[ABab](?:\*|[0-4](?:-[ABab]?[0-4])?))"
_ITEM_START = re.compile(rf",(?=\s*{_SLOT}\s*=)")
# What looks like a further item inside a spec: a "," or ";" then NAME= (a mistyped slot or
# separator would otherwise read as part of the kind, e.g. "unknown kind 'random,A9=random'").
_STRAY_ITEM = re.compile(r"([,;])\s*([^,;=:]*?)\s*=")
_RANGE = re.compile(r"^([AB])([0-4])(?:-([AB])?([0-4]))?$")


def register_kind(name: str, factory: Factory, usage: str | None = None) -> None:
    """Register (or replace) the factory of System kind `name`.

    factory(arg, slots) -> System, where arg is the text after "name:" ("" if none) and slots
    the global slots (sorted tuple) that will play it. usage: how the kind is written in a spec
    (default "name:..."), shown in error messages. Raises ValueError for a malformed name.
    """
    if not re.fullmatch(r"[a-z][a-z0-9_]*", name):
        raise ValueError(f"register_kind: kind name {name!r} must be lower-case letters/digits/_")
    _REGISTRY[name] = factory
    USAGE.setdefault(name, usage or f"{name}:...")
    if usage:
        USAGE[name] = usage


@functools.cache
def _module_present(module: str) -> bool:
    """Whether `module` is part of this installation (found without importing it)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a parent package is missing
        return False


def available(kind: str) -> bool:
    """Whether a kind can be used here: registered, or provided by a module that is present."""
    return kind in _REGISTRY or (kind in PROVIDERS and _module_present(PROVIDERS[kind]))


def _unavailable(kind: str) -> str:
    return f"the {kind} kind is not available in this version"


def valid_kinds() -> list[str]:
    """How each usable kind is written, e.g. ["random", "scripted:NAME (brawler, ...)", ...];
    kinds whose providing module is absent are left out."""
    from policies.scripted import BOTS

    shown = []
    for name in sorted(k for k in set(USAGE) | set(_REGISTRY) if available(k)):
        text = USAGE.get(name, name)
        if name == "scripted":
            text += f" ({', '.join(BOTS)})"
        shown.append(text)
    return shown


slot_name = C.slot_label  # "A0".."B4"


def _slots_of(token: str, where: str) -> list[int]:
    token = token.strip().upper()
    if token == "*":
        return list(range(C.NUM_SLOTS))
    if len(token) == 2 and token[1] == "*" and token[0] in "AB":
        base = C.TEAM_NAMES.index(token[0]) * C.TEAM_SIZE
        return list(range(base, base + C.TEAM_SIZE))
    match = _RANGE.match(token)
    if not match or (match.group(3) and match.group(3) != match.group(1)):
        raise ValueError(
            f"{where}: bad slots {token!r} (use A0-A4, B0-B4, a range such as A1-A4, A*, B* or *)"
        )
    base = C.TEAM_NAMES.index(match.group(1)) * C.TEAM_SIZE
    first = int(match.group(2))
    last = int(match.group(4)) if match.group(4) is not None else first
    if last < first:
        raise ValueError(f"{where}: empty range {token!r}")
    return list(range(base + first, base + last + 1))


def _check_kind(spec: str, where: str) -> None:
    """Raise ValueError starting with `where` for a kind that is unknown or not installed."""
    kind = spec.split(":", 1)[0].strip()
    if kind in PROVIDERS and not available(kind):
        raise ValueError(f"{where}: {_unavailable(kind)}")
    if not available(kind):
        raise ValueError(f"{where}: unknown kind {kind!r}; valid kinds: {', '.join(valid_kinds())}")


def _check_stray_item(spec: str, where: str) -> None:
    """Raise ValueError starting with `where` when `spec` holds what was meant as another item:
    a bad slot name after a comma, or items separated by ";". A checkpoint's path may hold
    both, so it is let be."""
    stray = None if spec.startswith("checkpoint:") else _STRAY_ITEM.search(spec)
    if stray is None:
        return
    separator, name = stray.groups()
    if separator == ";":
        raise ValueError(f"{where}: separate items with ',' (not ';')")
    raise ValueError(
        f"{where}: {name!r} is not a slot; slots are A0-A4 and B0-B4, ranges such "
        "as A1-A4, and the wildcards A*, B* and *"
    )


def check_kind_spec(spec: str, where: str) -> None:
    """Check one kind spec ("scripted:kiter", "checkpoint:PATH", ...) as written, without
    building its System. Raises ValueError starting with `where` (the option at fault, e.g.
    "--team-a foo") for an empty spec, what reads as a further item, or an unknown kind."""
    if not spec.strip():
        raise ValueError(f"{where}: is empty; give a System spec such as scripted:tactician")
    _check_stray_item(spec.strip(), where)
    _check_kind(spec, where)


def _is_wildcard(slots_text: str) -> bool:
    return slots_text.strip().endswith("*")


def parse_slots(text: str, where: str | None = None) -> tuple[str, ...]:
    """Parse a slot spec -> 10 spec strings, one per global slot ("" = not assigned).

    Items apply left to right. An explicit item (`A0`, `A1-A4`) takes its slots; a wildcard
    (`A*`, `B*`, `*`) fills only the slots of its team (or all) that are still unassigned, so
    "A0=human,*=random" gives A0 to the human and the nine others to random. Raises ValueError
    naming the item for bad slots, an empty spec, an unknown kind, a slot assigned twice (two
    explicit items, or an explicit item after a wildcard that already filled the slot), or a
    wildcard that finds no unassigned slot (it would have no effect). Messages start with
    `where` (the option that gave the spec, e.g. "--slots A9=random"; default "slot spec
    'A9=random'").
    """
    if not text or not text.strip():
        empty = f"{where}: is empty" if where else "slot spec is empty"
        raise ValueError(f"{empty}; expected e.g. 'A*=scripted:tactician,B*=random'")
    where = where or f"slot spec {text!r}"
    specs = [""] * C.NUM_SLOTS
    for item in _ITEM_START.split(text):
        slots_text, sep, spec = item.partition("=")
        spec = spec.strip()
        if not sep or not spec:
            raise ValueError(f"{where}: item {item.strip()!r} is not SLOTS=SPEC")
        _check_stray_item(spec, where)
        _check_kind(spec, where)
        slots = _slots_of(slots_text, where)
        if _is_wildcard(slots_text):
            slots = [s for s in slots if not specs[s]]  # only what earlier items left open
            if not slots:
                raise ValueError(
                    f"{where}: {slots_text.strip()}={spec} fills no slot; every slot "
                    "it names is already assigned"
                )
        for slot in slots:
            if specs[slot]:
                raise ValueError(
                    f"{where}: slot {slot_name(slot)} is assigned twice "
                    "(name single slots and ranges before the wildcards A*, B*, *)"
                )
            specs[slot] = spec
    return tuple(specs)


def team_spec(team_a: str, team_b: str) -> str:
    """`--team-a X --team-b Y` -> "A*=X,B*=Y"."""
    return f"A*={team_a},B*={team_b}"


def _factory(kind: str) -> Factory:
    if kind not in _REGISTRY and kind in PROVIDERS:
        module = PROVIDERS[kind]
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name is None or not module.startswith(error.name):
                raise
            raise ValueError(f"slot spec: {_unavailable(kind)}") from None
    if kind not in _REGISTRY:
        raise ValueError(
            f"slot spec: kind {kind!r} has no registered factory; valid kinds: "
            f"{', '.join(valid_kinds())}"
        )
    return _REGISTRY[kind]


def resolve_slots(specs: Sequence[str] | str, roster: Sequence[int] | None = None) -> Lineup:
    """Build the Systems of a slot spec (a string, or 10 strings from `parse_slots`).

    Slots with the same spec string share one System (its factory is called once with all of
    them). With a roster ((10,) class ids, 0 = empty), every active slot needs a System and specs
    on empty slots are dropped. Raises ValueError naming the slot or kind at fault.
    """
    if isinstance(specs, str):
        specs = parse_slots(specs)
    specs = list(specs)
    if len(specs) != C.NUM_SLOTS:
        raise ValueError(f"slot spec: expected 10 slot entries, got {len(specs)}")
    if roster is not None:
        active = np.asarray(roster) > 0
        missing = [slot_name(s) for s in range(C.NUM_SLOTS) if active[s] and not specs[s]]
        if missing:
            raise ValueError(f"slot spec: active slots {', '.join(missing)} have no System")
        specs = [spec if active[s] else "" for s, spec in enumerate(specs)]
    systems, owners = [], []
    for spec in dict.fromkeys(s for s in specs if s):
        slots = tuple(s for s in range(C.NUM_SLOTS) if specs[s] == spec)
        kind, _, arg = spec.partition(":")
        system = _factory(kind.strip())(arg.strip(), slots)
        if not isinstance(system, System):
            raise TypeError(f"slot spec: factory of kind {kind!r} returned {system!r}")
        systems.append(system)
        owners.append(np.isin(np.arange(C.NUM_SLOTS), slots))
    table = np.stack(owners) if owners else np.zeros((0, C.NUM_SLOTS), bool)
    return Lineup(systems=tuple(systems), owners=table, specs=tuple(specs))


def check_system(spec: str, where: str) -> None:
    """Build the System of one kind spec ("scripted:kiter", "checkpoint:PATH", ...) once and drop
    it, so an unknown bot name or a policy file that is missing or does not load fails before
    any game is played or any file written. Raises ValueError starting with `where` (the option
    or entrant at fault, e.g. "--vs scripted:zz")."""
    if not spec.strip():  # else named as the slot spec "A*=" made of it
        raise ValueError(f"{where.rstrip()}: empty; give a System such as scripted:tactician")
    try:
        resolve_slots(f"A*={spec}")
    except (ValueError, OSError) as error:
        raise ValueError(f"{where}: {error}") from None


def is_human(spec: str) -> bool:
    """True for a slot spec of kind `human` (a person at the BattleClient, RULES 2.1's slot)."""
    return spec.partition(":")[0].strip() == "human"


def check_headless_system(spec: str, where: str, command: str) -> None:
    """`check_system` for a command that plays without a window (`mbg eval`, `mbg scenarios
    run`): a human slot there would stand still for the whole game, so it is refused too.
    Raises ValueError starting with `where` (e.g. "--vs human")."""
    if is_human(spec):
        raise ValueError(
            f"{where}: human slots need a window and {command} has none; play them in the "
            "BattleClient (battleclient)"
        )
    check_system(spec, where)


def _random_factory(arg: str, slots: tuple[int, ...]) -> System:
    from policies.random_system import random_system

    if arg:
        raise ValueError(f"slot spec: 'random' takes no argument, got 'random:{arg}'")
    return random_system()


def _scripted_factory(arg: str, slots: tuple[int, ...]) -> System:
    from policies.scripted import scripted_system

    return scripted_system(arg, tuple(slots))


register_kind("random", _random_factory, "random")
register_kind("scripted", _scripted_factory, "scripted:NAME")
