"""The metric table: search as you type over metric, topic, source and target; sort; scroll.

Filtering and sorting are polars expressions over the whole table; only the rows that fit the
panel are turned into Python values and drawn, so tables of thousands of rows stay fast.
"""

import polars as pl
import pygame

from ui.rules import C, unit_name
from ui.theme import COLOURS

COLUMNS = (("topic", 0.16), ("metric", 0.40), ("source", 0.15), ("target", 0.15), ("value", 0.14))
ROW_HEIGHT = 18


def _team_metric_ids(frame: pl.DataFrame) -> pl.Series:
    """Metric ids stored per team (two rows, sources 0 and 1, no target): see REPLAY_CONTRACT."""
    grouped = frame.group_by("metric").agg(
        n=pl.len(), lo=pl.col("source").min(), hi=pl.col("source").max(), tgt=pl.col("target").max()
    )
    return grouped.filter(
        (pl.col("n") == 2) & (pl.col("lo") == 0) & (pl.col("hi") == 1) & (pl.col("tgt") == -1)
    )["metric"]


def display_frame(metrics: pl.DataFrame, class_ids) -> pl.DataFrame:
    """topic, metric, source, target (names), value, plus `hay`: the lower-case search text."""
    slot_names = {s: unit_name(s, class_ids[s]) for s in range(C.NUM_SLOTS)}
    slot_names[-1] = ""
    team_names = {0: "Team A", 1: "Team B", -1: ""}
    teams = _team_metric_ids(metrics)
    frame = metrics.with_columns(pl.col("source").cast(pl.Int64), pl.col("target").cast(pl.Int64))
    is_team = pl.col("metric").is_in(teams.implode())

    def names(col: str) -> pl.Expr:
        as_slot = pl.col(col).replace_strict(slot_names, default="?", return_dtype=pl.String)
        as_team = pl.col(col).replace_strict(team_names, default="?", return_dtype=pl.String)
        return pl.when(is_team).then(as_team).otherwise(as_slot)

    frame = frame.select(
        pl.col("topic").cast(pl.String),
        pl.col("metric").cast(pl.String),
        names("source").alias("source"),
        names("target").alias("target"),
        pl.col("value").cast(pl.Float64),
    )
    hay = pl.concat_str(["topic", "metric", "source", "target"], separator=" ").str.to_lowercase()
    return frame.with_columns(hay.alias("hay"))


def _format(value) -> str:
    if value is None or value != value:
        return "n/a"
    return f"{value:.0f}" if abs(value) >= 1000 or float(value).is_integer() else f"{value:.3g}"


class MetricsTable:
    """Search, sort and scroll state over a display frame; draws only the visible rows."""

    def __init__(self, frame: pl.DataFrame):
        self.all = frame
        self.rows = frame
        self.query, self.scroll = "", 0
        self.sort: tuple[str, bool] | None = None  # (column, descending)
        self.header_rects: dict[str, pygame.Rect] = {}
        self.row_rects: list[tuple[pygame.Rect, tuple]] = []

    def set_query(self, text: str) -> None:
        """Keeps rows containing every whitespace-separated word of `text` (any case)."""
        self.query = text
        frame = self.all
        for token in text.lower().split():
            frame = frame.filter(pl.col("hay").str.contains(token, literal=True))
        self.rows = self._sorted(frame)
        self.scroll = 0

    def _sorted(self, frame: pl.DataFrame) -> pl.DataFrame:
        if self.sort is None:
            return frame
        column, descending = self.sort
        return frame.sort(column, descending=descending, nulls_last=True)

    def toggle_sort(self, column: str) -> None:
        """First click sorts (values: largest first), the second reverses, the third restores."""
        first = column == "value"
        if self.sort is None or self.sort[0] != column:
            self.sort = (column, first)
        elif self.sort[1] == first:
            self.sort = (column, not first)
        else:
            self.sort = None
        self.set_query(self.query)

    def scroll_by(self, rows: int, visible: int) -> None:
        self.scroll = max(0, min(max(0, self.rows.height - visible), self.scroll + rows))

    def visible_rows(self, count: int) -> list[tuple]:
        """The `count` rows from the scroll position: the only rows turned into Python values."""
        return self.rows.slice(self.scroll, count).select([c for c, _ in COLUMNS]).rows()

    def capacity(self, rect) -> int:
        return max(1, (pygame.Rect(rect).height - 2 * ROW_HEIGHT - 4) // ROW_HEIGHT)

    def draw(self, surface, rect, font) -> None:
        rect = pygame.Rect(rect)
        surface.fill(COLOURS["panel"], rect)
        x, widths = rect.x + 4, [int(f * (rect.width - 8)) for _, f in COLUMNS]
        self.header_rects = {}
        for (name, _), width in zip(COLUMNS, widths, strict=True):
            mark = ""
            if self.sort and self.sort[0] == name:
                mark = " v" if self.sort[1] else " ^"
            label = font.render(name + mark, True, COLOURS["accent"])
            surface.blit(label, (x, rect.y + 2))
            self.header_rects[name] = pygame.Rect(x, rect.y, width, ROW_HEIGHT)
            x += width
        pygame.draw.line(
            surface,
            COLOURS["panel_line"],
            (rect.x, rect.y + ROW_HEIGHT),
            (rect.right, rect.y + ROW_HEIGHT),
        )
        self.row_rects = []
        y = rect.y + ROW_HEIGHT + 3
        for row in self.visible_rows(self.capacity(rect)):
            x = rect.x + 4
            for value, width, (name, _) in zip(row, widths, COLUMNS, strict=True):
                text = _format(value) if name == "value" else str(value)
                label = font.render(text, True, COLOURS["text"])
                surface.blit(label, (x, y), pygame.Rect(0, 0, width - 4, ROW_HEIGHT))
                x += width
            self.row_rects.append((pygame.Rect(rect.x, y, rect.width, ROW_HEIGHT), row))
            y += ROW_HEIGHT
        shown = f"{self.rows.height} of {self.all.height} rows"
        if self.rows.height > len(self.row_rects):
            shown += f" (from {self.scroll + 1}; scroll for more)"
        label = font.render(shown, True, COLOURS["muted"])
        surface.blit(label, (rect.x + 4, rect.bottom - ROW_HEIGHT))
