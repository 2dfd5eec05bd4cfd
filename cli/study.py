"""`mbg study summary DIR`: the human-AI study's games per condition (seed 000, section 7.8).

    mbg study summary ~/.local/share/marl-battlegrounds/study
    mbg study summary study.csv --csv per_condition.csv

DIR is a study folder (its study.csv, else the study replays in it: the replays carry the same
record, so the table can always be rebuilt from them) or a study CSV. The table gives, per
condition (beside the AI, against it): games, wins, draws and losses of the participant's team,
the mean points margin, decision times (median and mean seconds per decision), the mean
fluency, trust and predictability (1-7) and the mean raw NASA-TLX (0-100).
"""

import argparse
from pathlib import Path


def register(subparsers) -> None:
    """Add `study` with its summary subcommand."""
    parser = subparsers.add_parser(
        "study",
        help="human-AI study: games, decision times and questionnaires per condition",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="study_command", metavar="ACTION", required=True)
    summary = sub.add_parser("summary", help="tabulate a study folder or CSV per condition")
    summary.add_argument("source", metavar="DIR_OR_CSV")
    summary.add_argument("--csv", metavar="FILE", help="also write the table as CSV")
    summary.set_defaults(func=run_summary)


def study_rows(source: Path):
    """The study rows of a CSV, a folder's study.csv, or a folder's study replays. Raises
    FileNotFoundError / ValueError naming the path."""
    import polars as pl

    from evaluation import study
    from evaluation.replay import read_replay

    if not source.exists():
        raise FileNotFoundError(f"{source}: no such file or folder")
    if source.is_file():
        return study.read_rows(source)
    if (source / study.CSV_NAME).exists():
        return study.read_rows(source / study.CSV_NAME)
    rows = []
    for path in sorted(source.glob("*.mbgr")):
        replay = read_replay(path)
        if replay.header.get("study"):
            rows.append(study.study_row(replay.header, replay.decisions, path.name))
    if not rows:
        raise ValueError(f"{source}: no {study.CSV_NAME} and no study replays (*.mbgr)")
    return pl.DataFrame(rows, schema=study.schema())


def run_summary(args) -> int:
    from rich.console import Console
    from rich.table import Table

    from evaluation import study
    from fileio import output_file
    from ui.explain import counted

    csv = None if args.csv is None else output_file(args.csv, "--csv")  # before the table
    rows = study_rows(Path(args.source))
    if not rows.height:
        raise ValueError(f"{args.source}: the study has no games yet")
    table = study.summary(rows)
    if csv is not None:
        from evaluation.tournament_store import write_new

        write_new(csv, table.write_csv().encode())
    people = counted(rows["participant"].n_unique(), "participant")
    shown = Table(title=f"Human-AI study: {counted(rows.height, 'game')}, {people}")
    shown.add_column("measure")
    for condition in table["condition"]:
        shown.add_column(condition, justify="right")
    for column in table.columns[1:]:  # one row a measure: every condition fits the terminal
        shown.add_row(column, *(_cell(v) for v in table[column]))
    Console().print(shown)
    return 0


def _cell(value) -> str:
    return "-" if value is None else f"{value:.2f}" if isinstance(value, float) else str(value)
