"""The site speaks Dutch by default, French when asked, and every message has both translations."""

from __future__ import annotations

import ast
import gettext
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.utils import translation

LANGUAGES = ("nl", "fr")
# The site's catalog, and the printed documents' own (the documents app).
CATALOGS = {
    "site": Path(settings.LOCALE_DIR),
    "documents": Path(settings.BASE_DIR) / "documents" / "locale",
}
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sd]")


@pytest.fixture(autouse=True)
def _english() -> None:
    """These tests see the site in the language it is configured for, not the tests' English."""


@dataclass
class Message:
    context: str | None = None
    msgid: str = ""
    plural: str | None = None
    translations: dict[int, str] = field(default_factory=dict)
    flags: set[str] = field(default_factory=set)
    line: int = 0


def read_po(path: Path) -> list[Message]:
    """The entries of a .po file (obsolete ones left out): just enough of the format for checks."""
    messages: list[Message] = []
    current: Message | None = None
    target: tuple[str, int] = ("msgid", 0)
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#~"):
            if not line and current is not None:
                messages.append(current)
                current = None
            continue
        if current is None:
            current = Message(line=number)
        if line.startswith("#,"):
            current.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword.startswith('"'):
            text = ast.literal_eval(line)
        else:
            text = ast.literal_eval(rest)
            match = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
            target = ("msgstr", int(match.group(1))) if match else (keyword, 0)
            if target[0] == "msgstr":
                current.translations.setdefault(target[1], "")
        kind, index = target
        if kind == "msgctxt":
            current.context = (current.context or "") + text
        elif kind == "msgid":
            current.msgid += text
        elif kind == "msgid_plural":
            current.plural = (current.plural or "") + text
        else:
            current.translations[index] += text
    if current is not None:
        messages.append(current)
    return messages


def catalog(language: str, app: str = "site") -> Path:
    return CATALOGS[app] / language / "LC_MESSAGES" / "django.po"


@pytest.mark.django_db
def test_it_speaks_dutch_by_default() -> None:
    assert settings.LANGUAGE_CODE == "nl"
    home = Client().get("/").content.decode()
    assert '<html lang="nl">' in home
    assert "Tornooien" in home
    assert "wedstrijdleider voor Belgisch wiezen" in home
    login = Client().get("/accounts/login/").content.decode()
    assert "Gebruikersnaam" in login
    assert "Wachtwoord" in login


@pytest.mark.django_db
def test_it_speaks_french_when_asked() -> None:
    by_cookie = Client()
    by_cookie.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    home = by_cookie.get("/").content.decode()
    assert '<html lang="fr">' in home
    assert "Tournois" in home
    assert "directeur de tournoi pour le whist belge" in home
    notation = Client(headers={"accept-language": "fr-BE,fr;q=0.9"}).get("/help/notation/")
    page = notation.content.decode()
    assert "Notation des résultats" in page
    assert "misère étalée" in page


@pytest.mark.django_db
def test_it_speaks_english_when_asked() -> None:
    page = Client(headers={"accept-language": "en"}).get("/help/notation/").content.decode()
    assert '<html lang="en">' in page
    assert "Result notation" in page


@pytest.mark.django_db
def test_the_language_switcher_remembers_the_choice() -> None:
    client = Client()
    response = client.post("/i18n/setlang/", {"language": "fr", "next": "/"})
    assert response.status_code == 302
    assert "Se connecter" in client.get("/").content.decode()


@pytest.mark.parametrize("app", sorted(CATALOGS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language: str, app: str) -> None:
    messages = read_po(catalog(language, app))
    header, entries = messages[0], messages[1:]
    assert header.msgid == ""
    assert "fuzzy" not in header.flags
    assert f"Language: {language}\n" in header.translations[0]
    assert len(entries) > 100
    untranslated = [m.msgid for m in entries if not all(m.translations.values())]
    assert untranslated == []
    plurals = [m.msgid for m in entries if m.plural is not None and len(m.translations) != 2]
    assert plurals == []
    fuzzy = [m.msgid for m in entries if "fuzzy" in m.flags]
    assert fuzzy == []


@pytest.mark.parametrize("app", sorted(CATALOGS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_translation_keeps_the_placeholders(language: str, app: str) -> None:
    wrong = []
    for message in read_po(catalog(language, app))[1:]:
        for index, text in message.translations.items():
            source = message.msgid if index == 0 else message.plural or ""
            if set(PLACEHOLDER.findall(text)) != set(PLACEHOLDER.findall(source)):
                wrong.append((message.msgid, text))
    assert wrong == []


@pytest.mark.parametrize("app", sorted(CATALOGS))
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_matches_the_po_file(language: str, app: str) -> None:
    """The .mo files are committed (a fresh machine may lack gettext): they must be up to date."""
    path = catalog(language, app)
    with path.with_suffix(".mo").open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    stale = []
    for message in read_po(path)[1:]:
        key = message.msgid if message.context is None else f"{message.context}\x04{message.msgid}"
        if message.plural is None:
            if compiled.gettext(key) != message.translations[0]:
                stale.append(message.msgid)
        elif [compiled.ngettext(key, message.plural, n) for n in (1, 2)] != [
            message.translations[0],
            message.translations[1],
        ]:
            stale.append(message.msgid)
    assert stale == []


def test_every_adjudication_problem_has_a_translatable_message() -> None:
    from engine.adjudication import MESSAGES, Problem
    from tournaments.engine_text import PROBLEM_MESSAGES, problem_message

    assert set(PROBLEM_MESSAGES) == set(MESSAGES)
    for code, english in MESSAGES.items():
        names = set(re.findall(r"\{(\w+)\}", english))
        params: dict[str, str | int] = {name: f"<{name}>" for name in names}
        if "contract" in params:
            params["contract"] = "solo"
        problem = Problem(code, "impossible", None, params)
        with translation.override("en"):
            assert problem_message(problem) == problem.message
        for language in LANGUAGES:
            with translation.override(language):
                text = problem_message(problem)
            assert text != problem.message
            assert all(f"<{name}>" in text for name in names - {"contract"})


def test_contract_names_use_the_words_of_the_game() -> None:
    from engine.results import Contract
    from tournaments.engine_text import contract_name

    with translation.override("nl"):
        assert contract_name(Contract.ACCEPT) == "vragen en meegaan"
        assert contract_name("open_misere") == "open miserie"
    with translation.override("fr"):
        assert contract_name(Contract.SOLO) == "seul"
        assert contract_name(Contract.OPEN_MISERE) == "misère étalée"
    with translation.override("en"):
        assert contract_name(Contract.SOLO_SLIM) == "solo slim"
