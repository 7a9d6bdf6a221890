"""Troef's date and time formats, one per language (``FORMAT_MODULE_PATH``).

Every page shows a date the same way in a language: templates use ``|date`` with no format (or a
named one, ``"SHORT_DATETIME_FORMAT"``), never a format of their own. Numbers keep Django's
formats for the language (a decimal comma in Dutch and French).
"""
