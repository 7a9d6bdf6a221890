"""``python manage.py reports``: a round's PDFs and the standings, from the command line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pypdf import PdfReader

from documents.management.commands.reports import Command
from tournaments.models import Event


@pytest.fixture
def demo(module_demo: Event, db: None) -> Event:
    """The demo event (loaded once for the module)."""
    return Event.objects.get(pk=module_demo.pk)


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("reports", *args, stdout=out)
    return out.getvalue()


def test_it_writes_a_rounds_documents(demo: Event, tmp_path: Path) -> None:
    out = tmp_path / "prints"
    printed = run("--event", "demo", "--round", "2", "--out", str(out))
    names = sorted(p.name for p in out.iterdir())
    assert names == [
        "demo-round-2-dealing-slips.pdf",
        "demo-round-2-hand-records.pdf",
        "demo-round-2-score-sheets.pdf",
        "demo-round-2-table-cards.pdf",
    ]
    assert all(str(out / name) in printed for name in names)
    sheets = PdfReader(out / "demo-round-2-score-sheets.pdf")
    assert len(sheets.pages) == 2 * 8  # eight tables, each a front and a back
    text = "".join(page.extract_text() for page in sheets.pages)
    for name in ("Zoë", "Agnès", "Émilie", "Geneviève"):
        assert name in text


def test_it_writes_the_standings_and_score_cards_on_letter_paper_in_french(
    demo: Event, tmp_path: Path
) -> None:
    run(
        "--event",
        "demo",
        "--standings",
        "--score-cards",
        "--out",
        str(tmp_path),
        "--paper",
        "letter",
        "--language",
        "fr",
    )
    standings = PdfReader(tmp_path / "demo-standings.pdf")
    page = standings.pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    assert "Classement" in page.extract_text()
    cards = PdfReader(tmp_path / "demo-score-cards.pdf")
    assert len(cards.pages) == 32


def test_it_names_an_unknown_event(db: None, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="no event 'nope'"):
        run("--event", "nope", "--round", "1", "--out", str(tmp_path))


def test_it_names_a_round_out_of_range(demo: Event, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="Round 9 is out of range: demo has rounds 1 to 6"):
        run("--event", "demo", "--round", "9", "--out", str(tmp_path))
    assert not list(tmp_path.iterdir())


def test_it_says_when_it_cannot_write_the_directory(demo: Event, tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(CommandError, match="Cannot create the directory"):
        run("--event", "demo", "--round", "1", "--out", str(blocker / "prints"))


def test_it_asks_what_to_write(demo: Event, tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="Nothing to write"):
        run("--event", "demo", "--out", str(tmp_path))


def test_it_exits_with_a_failure_status_on_an_error(
    db: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        Command().run_from_argv(
            ["manage.py", "reports", "--event", "nope", "--round", "1", "--out", str(tmp_path)]
        )
    assert exit_.value.code == 1
    assert "no event 'nope'" in capsys.readouterr().err
