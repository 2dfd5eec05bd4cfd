"""Text shortened to a width, by any measure with pygame's `font.size(text) -> (w, h)`: a
pygame font in the apps' panels, CHARS (one unit a character) in a terminal table."""


class _Chars:
    """A measure of text in characters, for `mbg` tables: CHARS.size("abc") == (3, 1)."""

    def size(self, text: str) -> tuple[int, int]:
        return len(text), 1


CHARS = _Chars()

ELLIPSIS = "..."  # three dots: the default pygame font has no single-glyph ellipsis


def elide_middle(text: str, font, width: int, tail_share: float = 0.5) -> str:
    """`text`, or its start and end joined by "..." so it is at most `width` pixels wide.

    Keeps as many characters as fit, `tail_share` of them from the end: by default one more
    from the end than from the start (a file name is told apart by its end); a smaller share
    keeps more of a line whose start says most. Returns "..." alone when even one character
    each side is too wide."""
    if font.size(text)[0] <= width:
        return text
    best = ELLIPSIS
    low, high = 1, len(text) - 1
    while low <= high:  # binary search on the number of characters kept
        keep = (low + high) // 2
        head = int(keep * (1.0 - tail_share))
        tail = keep - head
        trial = f"{text[:head]}{ELLIPSIS}{text[len(text) - tail :]}"
        if font.size(trial)[0] <= width:
            best, low = trial, keep + 1
        else:
            high = keep - 1
    return best


def elide_path(word: str, font, width: int) -> str:
    """`word` fitted to `width` pixels of `font`: a path ("/"-separated) keeps its first folder
    and as many of its last parts as fit, "..." standing for the folders between
    ("~/.../screenshots/game_t0012.png"); a file name too wide alone, or a word with no folder
    to leave out, is shortened in its middle (elide_middle)."""
    if font.size(word)[0] <= width:
        return word
    parts = word.split("/")
    lead = 2 if parts[0] == "" else 1  # "/home" of an absolute path, else "~" or "runs"
    head = "/".join(parts[:lead]) + "/" + ELLIPSIS + "/"
    if len(parts) - lead < 2:  # no folder between the head and the file name
        return elide_middle(word, font, width)
    for keep in range(len(parts) - lead - 1, 0, -1):
        trial = head + "/".join(parts[-keep:])
        if font.size(trial)[0] <= width:
            return trial
    name = elide_middle(parts[-1], font, width - font.size(head)[0])
    return head + name if name != ELLIPSIS else elide_middle(word, font, width)
