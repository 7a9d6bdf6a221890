"""``python -m tests.reliability.slow_worker`` is ``python -m celery`` with slow, marked documents.

Each document job leaves a mark (a file named after the worker process's id, in the directory
TROEF_TEST_MARKS) and then takes a few seconds more than usual (TROEF_TEST_RENDER_SECONDS), so that
a test knows which worker holds the job and can kill it in the middle.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any


def slow_documents(**_: Any) -> None:
    from documents import kinds

    make = kinds.renderer_for

    def renderer_for(*args: Any, **kwargs: Any) -> Any:
        renderer = make(*args, **kwargs)
        render = renderer.render

        def slow_render() -> Any:
            (Path(os.environ["TROEF_TEST_MARKS"]) / str(os.getpid())).touch()
            time.sleep(float(os.environ.get("TROEF_TEST_RENDER_SECONDS", "3")))
            return render()

        renderer.render = slow_render  # type: ignore[method-assign]
        return renderer

    kinds.renderer_for = renderer_for


if __name__ == "__main__":
    from celery.__main__ import main
    from celery.signals import worker_process_init

    # In each pool process, once Django is set up there.
    worker_process_init.connect(slow_documents, weak=False)
    sys.exit(main())
