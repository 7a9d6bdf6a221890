from __future__ import annotations

import unicodedata
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from tournaments import rulesets
from tournaments.models import Entry, Event, SitOutScore
from tournaments.services.events import FROZEN_ONCE_STARTED, EventSettings


def one_line(value: str) -> None:
    """No control characters in a name or a reason: a typing accident, never meant."""
    if any(unicodedata.category(c) == "Cc" for c in value):
        raise ValidationError(_("Remove the control character from this text."), code="control")


class LineField(forms.CharField):
    """One line of text: a name, a club, a reason."""

    default_validators = [one_line]


# The ruleset choice's value for a version of a club's scoring table: the prefix and its id.
CLUB_TABLE = "club-table:"


class EventForm(forms.ModelForm):
    ruleset_name = forms.ChoiceField(label=_("Ruleset"))
    tie_break = LineField(
        label=_("Tie-break order"),
        required=False,
        help_text=_(
            "Criteria tried in turn, separated by commas: total, boards_won, tops, raw_total, butler, head_to_head."
        ),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "venue",
            "slug",
            "language",
            "game",
            "ruleset_name",
            "ruleset_toml",
            "comparison",
            "rounds",
            "boards_per_round",
            "seating_mode",
            "board_mode",
            "use_all_pass_rule",
            "ronde_pas_games",
            "tie_break",
        ]
        widgets = {
            # A date input reads ISO dates only, whatever the language's date format.
            "date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ruleset_toml": forms.Textarea(
                attrs={"rows": 8, "spellcheck": "false", "class": "code"}
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices: list[Any] = [
            *rulesets.builtin_choices(),
            (rulesets.CUSTOM, _("Custom ruleset (document below)")),
        ]
        club_tables = self._club_table_choices()
        ruleset_field = self.fields["ruleset_name"]
        assert isinstance(ruleset_field, forms.ChoiceField)
        if club_tables:
            choices.append((_("Club scoring tables"), club_tables))
            ruleset_field.help_text = _(
                "A club's scoring table is copied into the event (the document below): a later "
                "version of the table does not change the event. Choose the table again to take "
                "its latest version while the event is being prepared."
            )
        ruleset_field.choices = choices
        if self.instance.pk and self.instance.scoring_table_version_id is not None:
            self.initial["ruleset_name"] = CLUB_TABLE + str(self.instance.scoring_table_version_id)
        # Only Wiezen events that play Ronde Pas use it: left out, the default.
        self.fields["ronde_pas_games"].required = False
        self.fields["slug"].required = False
        self.fields["slug"].help_text = _(
            "Used in addresses such as /events/<slug>/standings/. Left empty, it is made from the name and date."
        )
        if self.instance.pk:
            self.fields["slug"].disabled = True
            self.initial["tie_break"] = ", ".join(self.instance.tie_break or [])
            if self.instance.status != Event.Status.DRAFT:
                for name in FROZEN_ONCE_STARTED:
                    self.fields[name].disabled = True
                    self.fields[name].help_text = _("Fixed since play started.")

    def _club_table_choices(self) -> list[tuple[str, str]]:
        """The latest version of every club's table, and the event's own when it is older."""
        from tournaments.models import ScoringTableVersion
        from tournaments.services.scoring_tables import latest_versions, version_label

        versions = latest_versions()
        linked = self.instance.scoring_table_version_id if self.instance.pk else None
        if linked is not None and all(v.pk != linked for v in versions):
            own = ScoringTableVersion.objects.select_related("table__club").filter(pk=linked)
            versions = [*own, *versions]
        return [(CLUB_TABLE + str(v.pk), version_label(v)) for v in versions]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        chosen = str(data.get("ruleset_name") or "")
        data["scoring_table_version_id"] = None
        if chosen.startswith(CLUB_TABLE):
            # The service copies the version's document into the event.
            data["ruleset_name"] = rulesets.CUSTOM
            data["scoring_table_version_id"] = int(chosen.removeprefix(CLUB_TABLE))
        return data

    def clean_ronde_pas_games(self) -> str:
        return str(self.cleaned_data.get("ronde_pas_games") or Event.RondePasGames.BY_BOARD)

    def clean_tie_break(self) -> list[str]:
        from tournaments.game import check_tie_break_order

        names = [n.strip() for n in self.cleaned_data["tie_break"].split(",") if n.strip()]
        if "total" not in names:
            # The ranking figure always comes first unless the TD places it elsewhere.
            names.insert(0, "total")
        try:
            return list(check_tie_break_order(names))
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from exc

    def to_settings(self) -> EventSettings:
        data = self.cleaned_data
        return EventSettings(
            name=data["name"],
            date=data["date"],
            game=data["game"],
            ruleset_name=data["ruleset_name"],
            rounds=data["rounds"],
            boards_per_round=data["boards_per_round"],
            slug=data.get("slug") or "",
            venue=data["venue"],
            language=data["language"],
            ruleset_toml=data["ruleset_toml"],
            comparison=data["comparison"],
            seating_mode=data["seating_mode"],
            board_mode=data["board_mode"],
            use_all_pass_rule=data["use_all_pass_rule"],
            ronde_pas_games=data["ronde_pas_games"],
            tie_break=data["tie_break"],
            scoring_table_version_id=data.get("scoring_table_version_id"),
        )


class PlayerForm(forms.Form):
    first_name = LineField(label=_("First name"), max_length=80, required=False)
    last_name = LineField(label=_("Last name"), max_length=80)
    club = LineField(label=_("Club"), max_length=120, required=False)
    federation_number = LineField(label=_("Federation number"), max_length=20, required=False)


class LatePlayerForm(PlayerForm):
    reason = LineField(label=_("Reason"), max_length=300, required=False)


class CsvImportForm(forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "First line: column names (first_name, last_name, club, federation_number; Dutch or French names work too)."
        ),
    )

    def clean_file(self) -> str:
        upload = self.cleaned_data["file"]
        if upload.size > 2_000_000:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        raw = upload.read()
        for encoding in ("utf-8-sig", "cp1252"):
            try:
                text: str = raw.decode(encoding)
            except UnicodeDecodeError:
                continue
            return text
        raise forms.ValidationError(_("The file is not text (UTF-8 or Windows-1252)."))


class ReasonForm(forms.Form):
    reason = LineField(label=_("Reason"), max_length=300, required=False)


class FineForm(forms.Form):
    """A fine for one of the event's players; the amount is read and checked by the view and service."""

    entry = forms.TypedChoiceField(
        label=_("Player"),
        coerce=int,
        error_messages={
            "required": _("Choose the player to fine."),
            "invalid_choice": _("Choose one of this event's players."),
        },
    )
    amount = LineField(
        label=_("Amount"),
        max_length=20,
        error_messages={"required": _("Give the amount of the fine.")},
    )
    reason = LineField(
        label=_("Reason"), max_length=300, error_messages={"required": _("Give the reason.")}
    )

    def __init__(self, event: Event, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entries = event.entries.select_related("player")
        self.entries = {entry.number: entry for entry in entries}
        entry_field = self.fields["entry"]
        assert isinstance(entry_field, forms.TypedChoiceField)
        # An empty first choice: a fine goes to the player the TD picked, never to player 1 by default.
        entry_field.choices = [("", "—")] + [
            (number, f"{number}. {entry.player.full_name}")
            if entry.status == Entry.Status.ACTIVE
            else (number, f"{number}. {entry.player.full_name} ({entry.get_status_display()})")
            for number, entry in self.entries.items()
        ]
        self.fields["amount"].help_text = (
            _("Percentage points off the player's total, e.g. 2.5.")
            if event.comparison == Event.Comparison.MATCHPOINTS
            else _("Points off the player's total, a whole number.")
        )


class MovementForm(forms.Form):
    seed = forms.IntegerField(
        label=_("Variant"),
        min_value=0,
        max_value=1_000_000,
        initial=0,
        help_text=_("Another number gives another movement of the same quality."),
    )


# --- absentees, substitutes and rulings (the round's seats page) --------------------------------

SEAT_LETTERS = [(s, s) for s in ("N", "E", "S", "W", "X")]
# The three standard artificial scores, named as everywhere else (the scores for byes).
AWARD_CHOICES = SitOutScore.Award.choices


class AbsentForm(forms.Form):
    """A player who did not turn up: their seat in the round becomes vacant."""

    entry = forms.TypedChoiceField(
        label=_("Player"),
        coerce=int,
        error_messages={"required": _("Choose the player who is absent.")},
    )
    later_rounds = forms.BooleanField(
        label=_("Also leave their seats in the later rounds vacant"), required=False
    )
    reason = LineField(label=_("Reason"), max_length=300, required=False)

    def __init__(self, choices: list[tuple[Any, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["entry"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "—"), *choices]


class SubstituteForm(forms.Form):
    """Who fills a vacant seat, and for which rounds."""

    KINDS = [
        ("new", _("a new player")),
        ("reserve", _("a reserve from the club list")),
        ("td", _("I play (the TD)")),
    ]
    SCOPES = [
        ("round", _("this round only")),
        ("rest", _("this round and every later round")),
        ("from", _("from round … on (give the round)")),
    ]

    table = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=9999)
    seat = forms.ChoiceField(widget=forms.HiddenInput, choices=SEAT_LETTERS)
    kind = forms.ChoiceField(
        label=_("Substitute"), choices=KINDS, initial="new", widget=forms.RadioSelect
    )
    first_name = LineField(label=_("First name"), max_length=80, required=False)
    last_name = LineField(label=_("Last name"), max_length=80, required=False)
    club = LineField(label=_("Club"), max_length=120, required=False)
    reserve = forms.TypedChoiceField(label=_("Reserve"), coerce=int, required=False)
    scope = forms.ChoiceField(
        label=_("Plays"), choices=SCOPES, initial="round", widget=forms.RadioSelect
    )
    from_round = forms.IntegerField(
        label=_("From round"), min_value=1, max_value=60, required=False
    )
    reason = LineField(label=_("Reason"), max_length=300, required=False)

    def __init__(self, reserves: list[tuple[Any, str]], *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["reserve"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [("", "—"), *reserves]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        if kind == "new" and not (data.get("last_name") or data.get("first_name")):
            self.add_error("last_name", _("Give the substitute's name."))
        if kind == "reserve" and not data.get("reserve"):
            self.add_error("reserve", _("Choose the reserve."))
        if data.get("scope") == "from" and not data.get("from_round"):
            self.add_error("from_round", _("Give the round the substitute starts in."))
        return data


class TableRulingForm(forms.Form):
    """One ruling for a table with a vacant seat: artificial scores, or the table sits out."""

    table = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=9999)
    N = forms.ChoiceField(label="N", choices=AWARD_CHOICES, initial="average_plus", required=False)
    E = forms.ChoiceField(label="E", choices=AWARD_CHOICES, initial="average_plus", required=False)
    S = forms.ChoiceField(label="S", choices=AWARD_CHOICES, initial="average_plus", required=False)
    W = forms.ChoiceField(label="W", choices=AWARD_CHOICES, initial="average_plus", required=False)
    reason = LineField(label=_("Reason"), max_length=300, required=False)


class ReplanForm(forms.Form):
    """The TD's confirmation of a re-plan whose cost the page shows."""

    seed = forms.IntegerField(widget=forms.HiddenInput, min_value=0, max_value=1_000_000)
    reason = LineField(label=_("Reason"), max_length=300, required=False)


class ScoringTableForm(forms.Form):
    """A club's scoring table: its name and club, and the TOML text of its next version.

    The text is checked by the service (the engine's message names the broken key); a file
    chosen here is read into the text and nothing is saved until the TD saves.
    """

    club = LineField(
        label=_("Club"),
        max_length=120,
        widget=forms.TextInput(attrs={"list": "club-names"}),
        help_text=_("A club not known yet is added."),
    )
    name = LineField(label=_("Name of the table"), max_length=120)
    toml = forms.CharField(
        label=_("Ruleset document (TOML)"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 24, "spellcheck": "false", "class": "code"}),
        help_text=_("Written as docs/rulesets.md describes; the payouts below follow the text."),
    )
    file = forms.FileField(
        label=_("Import a .toml file"),
        required=False,
        help_text=_("Replaces the text above; nothing is saved until you save."),
    )

    def __init__(self, *args: Any, editing: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if editing:
            # A table stays with its club; another club makes its own.
            self.fields["club"].disabled = True

    def clean_file(self) -> str | None:
        upload = self.cleaned_data.get("file")
        if not upload:
            return None
        if upload.size > 200_000:
            raise forms.ValidationError(_("The file is larger than 200 kB."))
        try:
            text: str = upload.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from None
        return text
