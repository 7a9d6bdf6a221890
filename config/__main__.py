"""Django's command line for Troef's settings: ``troef`` once installed, ``manage.py`` in a checkout.

``troef migrate``, ``troef demo``, ``troef export_event`` and the other commands work from any
directory, with or without the source tree (run-time files go under ``./var`` or TROEF_VAR_DIR).
"""

import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
