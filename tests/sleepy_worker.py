"""A stand-in PDF render for tests/test_hostile.py: forks, then both processes sleep until they are killed."""

import os
import time

os.fork()
time.sleep(60)
