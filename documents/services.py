"""Printed documents as stored files: requested by a TD, built by a Celery job, listed, regenerated.

``request_report`` records the request (and who made it) and queues the job once the transaction
commits; ``build_report`` is the job's work: it renders, stores the file and keeps ``progress``
and ``status`` up to date so that the reports page can show a progress bar. With the file it stores
the newest audit entry of the event the document was drawn after, by which the reports page tells
a file that no longer matches the event (``documents.freshness``).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.files.base import ContentFile
from django.db import OperationalError, connection, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from documents import freshness, kinds
from documents.models import ReportFile
from tournaments.errors import UserError
from tournaments.models import AuditAction, Event, Round
from tournaments.services import audit, devices, jobs
from tournaments.services.audit import Actor

logger = logging.getLogger(__name__)

PROGRESS_STEP = 5
"""Progress is written to the database when it has moved on by this many percent."""

HEARTBEAT_SECONDS = 10
"""A running job writes a sign of life at least this often, progress or not."""

STALLED_AFTER = dt.timedelta(seconds=settings.TROEF_STALLED_SECONDS)
"""A job queued or running without a sign of life for this long has lost its worker (or its
message, in a broker outage): shown as stalled and queued again by the catch-up."""


def _queue(report_id: int) -> None:
    # A broker that is down leaves the job queued: the catch-up sends it again (restart_stalled).
    transaction.on_commit(lambda: jobs.publish(jobs.BUILD_REPORT, report_id), robust=True)


# Documents with table cards: a card for one round prints each table's device link and PIN.
DEVICE_LINK_KINDS = frozenset({ReportFile.Kind.TABLE_CARDS, ReportFile.Kind.ROUND_PACK})


@transaction.atomic
def request_report(
    actor: Actor,
    event: Event,
    kind: str,
    round_number: int | None = None,
    page_size: str = ReportFile.PageSize.A4,
    language: str | None = None,
) -> ReportFile:
    """Ask for a document; it is made in the background. ``UserError`` if the request is wrong."""
    round_number = kinds.check(event, kind, round_number, page_size)
    language = language or event.language
    if language not in kinds.LANGUAGES:
        raise UserError(
            _("Choose Dutch, French or English."), code="bad_language", field="language"
        )
    if kind in DEVICE_LINK_KINDS and round_number is not None:
        # The table cards print each table's device link and PIN: they are made here, since the
        # document itself is drawn in a read-only transaction.
        round_ = event.round_set.filter(number=round_number).exclude(status=Round.Status.CLOSED)
        for open_round in round_:
            devices.ensure_device_keys(actor, open_round)
    report = ReportFile.objects.create(
        event=event,
        kind=kind,
        round_number=round_number,
        page_size=page_size,
        language=language,
        created_by=audit.user_of(actor),
        heartbeat_at=timezone.now(),
    )
    audit.record(
        actor,
        AuditAction.REPORT_REQUEST,
        f"requested {_describe(report)}",
        event=event,
        obj=report,
        data={"kind": kind, "round": round_number, "page_size": page_size, "language": language},
        **_message(
            report,
            gettext_noop("requested %(document)s (%(paper)s, %(language)s)"),
            gettext_noop("requested %(document)s, round %(round)s (%(paper)s, %(language)s)"),
        ),
    )
    _queue(report.pk)
    return report


@transaction.atomic
def regenerate(actor: Actor, report: ReportFile) -> ReportFile:
    """Make a document again from the event as it is now (after corrections, a re-planning...).

    Allowed whatever the document's state, so that a job lost with a stopped worker can be
    started again; if one is still on its way, the first of the two to run makes the file and
    the other finds it done.
    """
    report = ReportFile.objects.select_for_update().get(pk=report.pk)
    report.status = ReportFile.Status.QUEUED
    report.progress = 0
    report.error = ""
    report.finished_at = None
    report.heartbeat_at = timezone.now()
    report.save(update_fields=["status", "progress", "error", "finished_at", "heartbeat_at"])
    audit.record(
        actor,
        AuditAction.REPORT_REGENERATE,
        f"regenerated {_describe(report)}",
        event=report.event,
        obj=report,
        **_message(
            report,
            gettext_noop("made %(document)s again (%(paper)s, %(language)s)"),
            gettext_noop("made %(document)s again, round %(round)s (%(paper)s, %(language)s)"),
        ),
    )
    _queue(report.pk)
    return report


def is_stalled(report: ReportFile, now: dt.datetime | None = None) -> bool:
    """Whether a job that is not finished has shown no sign of life for ``STALLED_AFTER``."""
    if report.status not in (ReportFile.Status.QUEUED, ReportFile.Status.RUNNING):
        return False
    seen = report.heartbeat_at or report.created_at
    return (now or timezone.now()) - seen > STALLED_AFTER


def restart_stalled(actor: Actor = None) -> list[int]:
    """Queue again every stalled job (the catch-up's part for reports); their ids.

    Each goes through ``regenerate``, so the log says it was made again, by the system. Safe
    against a worker that comes back after all: the first of the two to finish stores the file.
    """
    cutoff = timezone.now() - STALLED_AFTER
    waiting = ReportFile.objects.filter(
        status__in=(ReportFile.Status.QUEUED, ReportFile.Status.RUNNING)
    )
    stalled = waiting.filter(heartbeat_at__lt=cutoff) | waiting.filter(
        heartbeat_at__isnull=True, created_at__lt=cutoff
    )
    restarted = []
    for report in stalled.select_related("event"):
        logger.warning("report %s (%s) stalled: queued again", report.pk, report.kind)
        regenerate(actor, report)
        restarted.append(report.pk)
    return restarted


def scope_of(report: ReportFile) -> tuple[str, int | None, str, str]:
    """What makes two files the same document: its kind, round, paper and language."""
    return (report.kind, report.round_number, report.page_size, report.language)


def listed_files(event: Event) -> list[ReportFile]:
    """The reports list: each document once, as its newest file (whatever that file's state).

    A newer request of the same document supersedes the older files, which leave the list but
    stay stored: the newer one may still be on its way or fail, and an older file is the record
    of what was printed (the audit log names it, and its own page still serves it). Deleting
    them would take that record away for a little disk space.
    """
    newest: dict[tuple[str, int | None, str, str], ReportFile] = {}
    for report in ReportFile.objects.filter(event=event).select_related("created_by"):
        newest.setdefault(scope_of(report), report)  # newest first: the model's ordering
    return list(newest.values())


def build_report(
    report_id: int, progress: Callable[[int], None] | None = None
) -> ReportFile | None:
    """Render a requested document and store it; ``None`` if the request has been deleted.

    Safe to run twice: a finished document is left alone. ``progress`` is told the percentage as
    the work goes on (the stored ``progress`` follows it too). A document that cannot be made is
    stored as failed, with the reason in ``error``; a database that is busy (``OperationalError``)
    is left to the task's retries.
    """
    report = _claim(report_id)
    if report is None or report.status == ReportFile.Status.DONE:
        return report
    reported = [0]
    beat = [time.monotonic()]

    def advance(done: int, total: int) -> None:
        # Loading the data is the first tenth of the work; the last percent is storing the file.
        percent = min(99, 10 + (89 * done) // max(total, 1))
        if progress is not None:
            progress(percent)
        # The progress written is the job's heartbeat too (is_stalled).
        if (
            percent - reported[0] >= PROGRESS_STEP
            or time.monotonic() - beat[0] >= HEARTBEAT_SECONDS
        ):
            reported[0] = percent
            beat[0] = time.monotonic()
            ReportFile.objects.filter(pk=report_id).update(
                progress=percent, heartbeat_at=timezone.now()
            )

    try:
        # In the document's language, so that the reason for a failure is too.
        with translation.override(report.language):
            with _snapshot():
                # The data and the audit mark come from one view of the database: a change
                # committed while the document is being made shows it as out of date at once.
                event = Event.objects.get(pk=report.event_id)
                renderer = kinds.renderer_for(
                    event,
                    report.kind,
                    round_number=report.round_number,
                    paper=report.page_size,
                    language=report.language,
                    progress=advance,
                )
                mark = freshness.take(event, report.kind, report.round_number)
            advance(0, 1)
            rendered = renderer.render()
    except OperationalError:
        raise
    except UserError as error:
        return _fail(report, error.message)
    except Exception as error:  # a defect: logged in full, and the TD sees that it failed
        logger.exception("report %s (%s) failed", report.pk, report.kind)
        with translation.override(report.language):
            message = _("The document could not be made: %(problem)s") % {"problem": error}
        return _fail(report, message)
    for field, value in mark.items():
        setattr(report, field, value)
    return _store(report, rendered.filename, rendered.content_type, rendered.content, progress)


@contextmanager
def _snapshot() -> Iterator[None]:
    """One consistent view of the database for the reads inside (read-only).

    SQLite's transactions read one snapshot already; PostgreSQL's default (read committed) gives
    each query its own, so the loaders and the audit mark might see different moments.
    """
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        yield


def _claim(report_id: int) -> ReportFile | None:
    with transaction.atomic():
        # The row lock makes "is it done? then claim it" one step: a job delivered again after
        # the document was stored finds it done and leaves it alone.
        report = (
            ReportFile.objects.select_for_update()
            .select_related("event")
            .filter(pk=report_id)
            .first()
        )
        if report is None or report.status == ReportFile.Status.DONE:
            return report
        report.status = ReportFile.Status.RUNNING
        report.progress = 0
        report.error = ""
        report.heartbeat_at = timezone.now()
        report.save(update_fields=["status", "progress", "error", "heartbeat_at"])
        return report


def _store(
    report: ReportFile,
    filename: str,
    content_type: str,
    content: bytes,
    progress: Callable[[int], None] | None,
) -> ReportFile:
    old = report.file.name if report.file else ""
    report.file.save(filename, ContentFile(content), save=False)
    report.filename = filename
    report.content_type = content_type
    report.status = ReportFile.Status.DONE
    report.progress = 100
    report.finished_at = timezone.now()
    report.save(
        update_fields=[
            "file",
            "filename",
            "content_type",
            "status",
            "progress",
            "finished_at",
            "audit_mark",
            "audit_count",
            "printed_results",
        ]
    )
    if old and old != report.file.name:
        report.file.storage.delete(old)  # the regenerated file replaces the old one
    if progress is not None:
        progress(100)
    return report


def _fail(report: ReportFile, message: str) -> ReportFile:
    report.status = ReportFile.Status.FAILED
    report.error = message
    report.finished_at = timezone.now()
    report.save(update_fields=["status", "error", "finished_at"])
    return report


def _message(report: ReportFile, whole: str, one_round: str) -> dict[str, Any]:
    """The log message of a document, for the whole event or for one round."""
    params: dict[str, Any] = {
        "document": report.kind,
        "paper": report.page_size,
        "language": report.language,
    }
    if report.round_number is None:
        return {"message": whole, "params": params}
    return {"message": one_round, "params": {**params, "round": report.round_number}}


def _describe(report: ReportFile) -> str:
    text = report.kind.replace("_", " ")
    if report.round_number is not None:
        text += f", round {report.round_number}"
    return f"{text} ({report.page_size}, {report.language})"
