"""A stand-in render's process for tests/test_process.py: it reads its request as a render does, then runs the script
``script.py`` in the request's ``out`` folder, which is given ``answer`` (its ``process.Answer``) and ``request``."""

import sys
from pathlib import Path

from generator.render.process import Answer, Request

request = Request.read(Path(sys.argv[1]))
answer = Answer()
exec(compile((Path(request.out) / "script.py").read_text(encoding="utf-8"), "script.py", "exec"),  # noqa: S102
     {"answer": answer, "request": request})
