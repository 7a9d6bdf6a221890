"""Troef's rules library: cards, deals, rulesets, scoring, auction, play and movements.

Pure Python, standard library only. The Django project talks to it through adapter modules;
``python -m engine`` is its command line (see docs/engine-cli.md).
"""

__version__ = "0.1.0"
