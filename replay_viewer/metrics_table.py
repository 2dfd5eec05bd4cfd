"""The metric table: search as you type over metric, topic, source and target; sort; scroll.

Filtering and sorting are polars expressions over the whole table; only the rows that fit the
panel are turned into Python values and drawn, so tables of thousands of rows stay fast.
Metric ids are shown whole (the topic is their first part, so it has no column of its own): a
cell too wide for its column takes a smaller font, then wraps after "_" onto more lines. Coded
values are shown in words (metric_values.value_text).
"""

import re

import polars as pl
import pygame

from fileio import write_new_file_with
from replay_viewer.metric_values import value_text
from ui.rules import C, unit_name
from ui.theme import COLOURS

COLUMNS = (("metric", 0.52), ("source", 0.17), ("target", 0.17), ("value", 0.14))
ROW_HEIGHT = 18


def _team_metric_ids(frame: pl.DataFrame) -> pl.Series:
    """Metric ids stored per team (two rows, sources 0 and 1, no target; the columns of
    evaluation/replay_schema.py METRIC_COLUMNS)."""
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


def fit_cell(text: str, fonts, width: int) -> tuple[pygame.font.Font, list[str]]:
    """(font, lines) showing all of `text` within `width` pixels: the first of `fonts` (largest
    first) that fits it on one line, else the last font with the text broken after "_" or "."
    (a piece wider than `width` on its own is still kept whole, never cut)."""
    for font in fonts:
        if font.size(text)[0] <= width:
            return font, [text]
    font, lines, line = fonts[-1], [], ""
    for piece in re.findall(r"[^_.]+[_.]?|[_.]", text):
        if line and font.size(line + piece)[0] > width:
            lines.append(line)
            line = ""
        line += piece
    return font, lines + [line]


class MetricsTable:
    """Search, sort and scroll state over a display frame; draws only the visible rows."""

    def __init__(self, frame: pl.DataFrame):
        self.all = frame
        self.rows = frame
        self.query, self.scroll = "", 0
        self.hide_zero = False  # leave out rows whose value is exactly 0
        self.sort: tuple[str, bool] | None = None  # (column, descending)
        self.header_rects: dict[str, pygame.Rect] = {}
        self.row_rects: list[tuple[pygame.Rect, tuple]] = []
        self.cells: list[list] = []  # per drawn row, (font, lines) per column

    def set_query(self, text: str) -> None:
        """Keeps rows containing every whitespace-separated word of `text` (any case)."""
        self.query = text
        frame = self.all
        if self.hide_zero:  # n/a (NaN or missing) is not zero: such rows stay
            frame = frame.filter((pl.col("value") != 0) | pl.col("value").is_null())
        for token in text.lower().split():
            frame = frame.filter(pl.col("hay").str.contains(token, literal=True))
        self.rows = self._sorted(frame)
        self.scroll = 0

    def _sorted(self, frame: pl.DataFrame) -> pl.DataFrame:
        if self.sort is None:
            return frame
        column, descending = self.sort
        key = pl.col(column)
        if frame.schema[column].is_float():  # NaN ("n/a") sorts as missing: last either way
            key = key.fill_nan(None)
        return frame.sort(key, descending=descending, nulls_last=True)

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

    def toggle_hide_zero(self) -> None:
        self.hide_zero = not self.hide_zero
        self.set_query(self.query)

    def write_csv(self, path) -> None:
        """The rows shown (filter, hidden zeros and sort applied) as CSV: metric, source,
        target, value (numbers as recorded; NaN empty). Written to a temporary file beside
        `path` and linked into place, so `path` appears whole and an existing file is never
        replaced (FileExistsError; `fileio.atomic`)."""
        shown = self.rows.select("metric", "source", "target", "value")
        shown = shown.with_columns(pl.col("value").fill_nan(None))
        write_new_file_with(path, shown.write_csv)

    def scroll_by(self, rows: int, visible: int) -> None:
        self.scroll = max(0, min(max(0, self.rows.height - visible), self.scroll + rows))

    def visible_rows(self, count: int) -> list[tuple]:
        """The `count` rows from the scroll position: the only rows turned into Python values."""
        return self.rows.slice(self.scroll, count).select([c for c, _ in COLUMNS]).rows()

    def _cells(self, row: tuple, widths, fonts) -> list:
        """(font, lines) per column of one row, each fitted to its column."""
        metric = row[0]
        texts = [
            value_text(metric, v) if c == "value" else str(v)
            for (c, _), v in zip(COLUMNS, row, strict=True)
        ]
        return [fit_cell(t, fonts, w - 4) for t, w in zip(texts, widths, strict=True)]

    def capacity(self, rect) -> int:
        return max(1, (pygame.Rect(rect).height - 2 * ROW_HEIGHT - 4) // ROW_HEIGHT)

    def draw(self, surface, rect, font, small_fonts=()) -> None:
        """Header, then rows from the scroll position while they fit; `small_fonts` (largest
        first) are tried for cells too wide in `font`. Fills header_rects, row_rects, cells."""
        rect = pygame.Rect(rect)
        fonts = (font, *small_fonts)
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
        self.row_rects, self.cells = [], []
        y, bottom = rect.y + ROW_HEIGHT + 3, rect.bottom - ROW_HEIGHT
        for row in self.visible_rows(self.capacity(rect)):
            cells = self._cells(row, widths, fonts)
            height = max(len(lines) * f.get_linesize() for f, lines in cells)
            height = max(ROW_HEIGHT, height + 4)
            if self.row_rects and y + height > bottom:
                break
            x = rect.x + 4
            for (cell_font, lines), width in zip(cells, widths, strict=True):
                for k, line in enumerate(lines):
                    label = cell_font.render(line, True, COLOURS["text"])
                    surface.blit(label, (x, y + k * cell_font.get_linesize()))
                x += width
            self.row_rects.append((pygame.Rect(rect.x, y, rect.width, height), row))
            self.cells.append(cells)
            y += height
        shown = f"{self.rows.height} of {self.all.height} rows"
        if self.rows.height > len(self.row_rects):
            shown += f" (from {self.scroll + 1}; scroll for more)"
        label = font.render(shown, True, COLOURS["muted"])
        surface.blit(label, (rect.x + 4, rect.bottom - ROW_HEIGHT))
