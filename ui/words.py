"""Counted nouns in the apps' text: "1 tick", "2 ticks", "0 ticks"."""


def count(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and `noun`, the plural (default noun + "s") for every count but exactly 1."""
    n = int(n)
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
