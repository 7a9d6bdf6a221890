"""The printed documents: score sheets, hand records, dealing slips, guide and table cards,
standings, personal score cards, the event summary, and the dealing-machine and PBN files.

``models`` holds the stored files (``ReportFile``), ``services`` requests and builds them,
``tasks`` is the Celery job, ``views`` and ``urls`` the reports pages and the ``reports`` command
writes them without a browser. ``data`` holds the plain data a document is drawn from,
``loaders`` reads it from an event, ``kinds`` says which renderer makes each kind, one module of
``renderers`` per family draws it, and ``freshness`` tells, from the audit log, a stored file
that no longer matches the event.
"""
