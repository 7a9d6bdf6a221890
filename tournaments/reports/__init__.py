"""Printed documents (ReportLab PDFs): score sheets, hand records, dealing slips, guide and table
cards, standings, personal score cards and the event summary.

``data`` holds the plain data a document is drawn from, ``loaders`` reads it from an event,
``documents`` says which renderer makes each kind, and one module per family draws it.
"""
