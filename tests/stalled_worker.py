"""A stand-in PDF render for tests/test_faults.py: the real worker (``pdf.worker.main``: the library loaded, the
sheets forked off as they are for real), but each render waits for ever instead of laying out a page."""

import sys
import time

from generator.render.pdf import worker as pdf_worker


def _stalled(task: str):
    time.sleep(600)


pdf_worker._task = _stalled
pdf_worker.main(sys.argv[1:])
