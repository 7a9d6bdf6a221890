from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

SEAT_CHOICES = [("N", "N"), ("E", "E"), ("S", "S"), ("W", "W")]


class Event(models.Model):
    class Game(models.TextChoices):
        KLEURENWIEZEN = "kleurenwiezen", _("Colour Whist (Kleurenwiezen)")
        WIEZEN = "wiezen", _("Wiezen")
        ISRAELI = "israeli", _("Israeli Whist")

    class Comparison(models.TextChoices):
        RAW = "raw", _("raw totals")
        MATCHPOINTS = "matchpoints", _("matchpoints (percentages)")
        DATUM = "datum", _("datum (Butler)")

    class SeatingMode(models.TextChoices):
        BYES = "byes", _("rotating byes")
        TABLES_OF_FIVE = "five", _("tables of five with a rotating sitter")

    class BoardMode(models.TextChoices):
        SAME = "same", _("every table plays the same boards in a round")
        TRAVELLING = "travelling", _("board sets travel between tables")

    class RondePasGames(models.TextChoices):
        BY_BOARD = "by_board", _("the same game at every table: board 1 the first, 2 the second...")
        BY_TABLE = (
            "by_table",
            _("in turn at each table: its first all-passed board the first game..."),
        )

    class DealSource(models.TextChoices):
        GENERATED = "generated", _("dealt by Troef from a secret key")
        IMPORTED = "imported", _("imported from a deal file")

    class Status(models.TextChoices):
        DRAFT = "draft", _("being prepared")
        RUNNING = "running", _("in play")
        FINISHED = "finished", _("finished")

    slug = models.SlugField(_("short name for addresses"), max_length=60, unique=True)
    name = models.CharField(_("name"), max_length=150)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=150, blank=True)
    language = models.CharField(
        _("language of documents"), max_length=2, choices=settings.LANGUAGES, default="nl"
    )
    game = models.CharField(_("game"), max_length=20, choices=Game.choices)
    ruleset_name = models.CharField(_("ruleset"), max_length=60)
    ruleset_toml = models.TextField(
        _("ruleset document"),
        blank=True,
        help_text=_("A custom ruleset, or the frozen copy of the ruleset once play has started."),
    )
    ruleset_frozen_at = models.DateTimeField(null=True, blank=True, editable=False)
    comparison = models.CharField(
        _("comparison"), max_length=20, choices=Comparison.choices, default=Comparison.MATCHPOINTS
    )
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), validators=[MinValueValidator(1), MaxValueValidator(60)]
    )
    boards_per_round = models.PositiveSmallIntegerField(
        _("boards per round"), validators=[MinValueValidator(1), MaxValueValidator(36)]
    )
    seating_mode = models.CharField(
        _("players not a multiple of four"),
        max_length=10,
        choices=SeatingMode.choices,
        default=SeatingMode.BYES,
    )
    board_mode = models.CharField(
        _("boards"), max_length=12, choices=BoardMode.choices, default=BoardMode.SAME
    )
    use_all_pass_rule = models.BooleanField(
        _("apply the ruleset's all-pass rule"),
        default=False,
        help_text=_("Duplicate boards are independent, so this is usually off."),
    )
    # Wiezen rulesets that play Ronde Pas: which of its games an all-passed board plays.
    ronde_pas_games = models.CharField(
        _("Ronde Pas games"),
        max_length=10,
        choices=RondePasGames.choices,
        default=RondePasGames.BY_BOARD,
        help_text=_(
            "Only for a Wiezen ruleset that plays Ronde Pas after an all-pass. The same game at "
            "every table keeps the board comparable; in turn at each table is the rule at a "
            "home table."
        ),
    )
    tie_break = models.JSONField(_("tie-break order"), default=list, blank=True)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.DRAFT
    )
    deal_key = models.CharField(max_length=128, blank=True, editable=False)
    deal_commitment = models.CharField(_("deal commitment (SHA-256)"), max_length=64, blank=True)
    deal_key_revealed_at = models.DateTimeField(null=True, blank=True)
    # Deals come from Troef's own generator (a key, revealed after the event) or from a file (a
    # dealing machine's .dlm, or PBN from another program): then there is no key, and the file's
    # name and SHA-256 say which file it was.
    deal_source = models.CharField(
        _("deals"), max_length=10, choices=DealSource.choices, default=DealSource.GENERATED
    )
    deal_file_name = models.CharField(_("deal file"), max_length=200, blank=True)
    deal_file_sha256 = models.CharField(_("deal file SHA-256"), max_length=64, blank=True)
    # The club table version the event's ruleset was copied from: the event keeps its own copy
    # (``ruleset_toml``), so a later version of the club's table never changes its scores.
    scoring_table_version = models.ForeignKey(
        "tournaments.ScoringTableVersion",
        verbose_name=_("club scoring table"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="events",
    )
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("tournament directors"),
        related_name="directed_events",
    )
    # Assistants key and correct results and record rulings; they cannot change the event, its
    # players or its movement (tournaments.roles).
    assistants = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("assistants"),
        related_name="assisted_events",
        blank=True,
    )
    # The club or federation the event is held by, when it was created under one.
    organisation = models.ForeignKey(
        "tournaments.Organisation",
        verbose_name=_("organised by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="events",
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("event")
        verbose_name_plural = _("events")
        constraints = [
            models.CheckConstraint(condition=models.Q(rounds__gte=1), name="event_rounds_positive"),
            models.CheckConstraint(
                condition=models.Q(boards_per_round__gte=1), name="event_boards_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(status="draft") | ~models.Q(ruleset_frozen_at=None),
                name="event_ruleset_frozen_once_started",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def is_directed_by(self, user: object) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        if getattr(user, "is_superuser", False):
            return True
        pk = getattr(user, "pk", None)
        return pk is not None and self.directors.filter(pk=pk).exists()

    @property
    def board_count(self) -> int:
        return self.rounds * self.boards_per_round


class Entry(models.Model):
    """A player taking part in an event, under a player number used by the movement."""

    class Status(models.TextChoices):
        ACTIVE = "active", _("playing")
        WITHDRAWN = "withdrawn", _("withdrawn")

    class Role(models.TextChoices):
        PLAYER = "player", _("player")
        # A substitute fills a vacant seat for some rounds and is not ranked.
        SUBSTITUTE = "substitute", _("substitute")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.PROTECT, related_name="entries"
    )
    number = models.PositiveSmallIntegerField(_("player number"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    role = models.CharField(_("role"), max_length=12, choices=Role.choices, default=Role.PLAYER)
    first_round = models.PositiveSmallIntegerField(_("first round played"), default=1)
    withdrawn_after_round = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="entry_player_once"),
            models.UniqueConstraint(fields=["event", "number"], name="entry_number_once"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="entry_number_positive"),
            models.CheckConstraint(
                condition=models.Q(status="active", withdrawn_after_round=None)
                | models.Q(status="withdrawn"),
                name="entry_withdrawal_consistent",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.number}. {self.player}"


class Round(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("planned")
        OPEN = "open", _("in play")
        CLOSED = "closed", _("closed")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PLANNED)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="round_number_once"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.event} – {_('round')} {self.number}"


class Table(models.Model):
    class Ruling(models.TextChoices):
        """The TD's ruling for a table with a vacant seat (a no-show) that nobody fills."""

        NONE = "", _("none")
        # The players present get artificial scores on every board; the absentee gets nothing.
        ARTIFICIAL = "artificial", _("artificial scores for the players present")
        # The players present have a bye in the round; the table expects no results.
        SIT_OUT = "sit_out", _("the table sits out")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    ruling = models.CharField(
        _("ruling"), max_length=12, choices=Ruling.choices, default="", blank=True
    )
    # The table device's way in: the secret in the link (and QR code) on the table card, and the
    # short PIN printed beside it. Empty until the round's table cards are made.
    device_key = models.CharField(max_length=32, blank=True, default="")
    device_pin = models.CharField(max_length=8, blank=True, default="")

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_once"),
            models.UniqueConstraint(
                fields=["device_key"],
                condition=~models.Q(device_key=""),
                name="table_device_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{_('table')} {self.number}"


class Seating(models.Model):
    """Where an entry sits in a round: a seat at a table, the fifth chair (X) or a bye.

    The movement plans seats for the registered players; ``replaces`` keeps whose seat it was in
    that plan when someone else sits there (a substitute, ``entry`` set) or nobody does (a vacant
    seat, ``entry`` empty). The plan itself, and so every other seat, stays as it was.
    """

    class Seat(models.TextChoices):
        N = "N", "N"
        E = "E", "E"
        S = "S", "S"
        W = "W", "W"
        FIFTH = "X", _("fifth player (sits out each deal in turn)")
        BYE = "BYE", _("bye")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="seatings")
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.CASCADE, related_name="seatings"
    )
    # Who sat where is what a table's results are scored for: an entry with seats cannot be
    # deleted (the services free its seats first); deleting the event or the round still can.
    entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="seatings"
    )
    seat = models.CharField(max_length=3, choices=Seat.choices)
    replaces = models.ForeignKey(
        Entry,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="replaced_seatings",
        help_text=_(
            "The player this seat was planned for, when someone else or nobody sits there."
        ),
    )

    class Meta:
        ordering = ["round", "table__number", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="seating_once_per_round"),
            models.UniqueConstraint(
                fields=["table", "seat"],
                condition=~models.Q(table=None),
                name="seating_seat_once_per_table",
            ),
            models.CheckConstraint(
                condition=(models.Q(seat="BYE") & models.Q(table=None))
                | (~models.Q(seat="BYE") & ~models.Q(table=None)),
                name="seating_bye_has_no_table",
            ),
            # An empty chair still says whose it was; a bye always has its player.
            models.CheckConstraint(
                condition=~models.Q(entry=None)
                | (~models.Q(replaces=None) & ~models.Q(seat="BYE")),
                name="seating_vacant_seat_has_its_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entry or _('vacant')} {self.seat}"

    @property
    def planned(self) -> Entry:
        """The player the movement planned for this seat."""
        planned = self.replaces or self.entry
        assert planned is not None
        return planned


class Board(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="boards")
    number = models.PositiveSmallIntegerField(_("board"))
    dealer = models.CharField(_("dealer"), max_length=1, choices=SEAT_CHOICES)
    deal = models.CharField(_("deal (PBN)"), max_length=80)
    # Deal numbers reach 5.4e28: more than a 64-bit integer holds, and SQLite keeps decimals as
    # floating point, so they are kept as their digits.
    deal_index = models.CharField(
        _("deal number"), max_length=29, validators=[RegexValidator(r"^[0-9]+$")]
    )
    trump_card = models.CharField(_("turned-up card"), max_length=3, blank=True)

    class Meta:
        ordering = ["event", "number"]
        constraints = [
            models.UniqueConstraint(fields=["event", "number"], name="board_number_once"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="board_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{_('board')} {self.number}"


class TableBoard(models.Model):
    """A board that a table plays in a round, in playing order."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="table_boards")
    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="table_boards")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "board"], name="tableboard_once"),
            models.UniqueConstraint(fields=["table", "position"], name="tableboard_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.board} ({self.position})"
