#!/usr/bin/env python
"""Django's command-line utility for administrative tasks (``troef`` once the package is installed)."""

from config.__main__ import main

if __name__ == "__main__":
    main()
