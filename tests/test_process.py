"""One typed request across every process boundary, one typed answer back (render/process.py): a render's process is
told its work by a ``Request`` written as JSON, and answers with a ``Result``; one that runs out of memory says so in
its answer, or is known by how it ended (a signal, under the limit it was given), never by words in its output.

The cases run a stand-in render (``tests/scripted_worker.py``: it reads its request as a render does, then runs a
script) under ``process.run``, as the build runs the PDF worker and the pictures run theirs.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from generator.errors import BuildError, RulebookError
from generator.render import process
from generator.render.process import DISK, ERROR, MEMORY, PDF, SITE, TIMEOUT, Failure, Request, Result
from tests.test_faults import render_processes

# (what the stand-in does, as a script; what ``run`` answers: the failure's kind and words in it, or None for none)
CASES = {
    "answers with the anchors and the warnings": (
        "answer.report('score sheets', 1, 2)\nanswer.report('score sheets', 2, 2, True)\n"
        "answer.result(Result(anchors={'game-golf': 3}, warnings=('Court Whist takes 3 pages',)))",
        None),
    "what else writes to standard output does not garble the answer": (
        "print('a library talking', flush=True)\nimport os; os.write(1, b'{not json\\n')\n"
        "answer.result(Result(anchors={'game-golf': 3}))",
        None),
    "its own error, in one line": (
        "answer.result(Result(failure=Failure(ERROR, 'content/golf.md: no such file')))",
        (ERROR, "content/golf.md: no such file")),
    "an error whose words speak of memory is an error": (
        "import sys; print('MemoryError bad_alloc Cannot allocate out of memory', file=sys.stderr)\n"
        "answer.result(Result(failure=failure(RulebookError('the title says \"out of memory, bad_alloc\"'))))",
        (ERROR, "out of memory, bad_alloc")),
    "a MemoryError is out of memory": (
        "try:\n    raise MemoryError()\nexcept MemoryError as exc:\n    answer.result(Result(failure=failure(exc)))",
        (MEMORY, "MemoryError")),
    "an error raised from a MemoryError is out of memory": (
        "try:\n    try:\n        raise MemoryError()\n    except MemoryError as exc:\n"
        "        raise OSError('Error fetching print.css') from exc\n"
        "except OSError as exc:\n    answer.result(Result(failure=failure(exc)))",
        (MEMORY, "Error fetching print.css")),
    "a full disk is a full disk": (
        "import errno\nanswer.result(Result(failure=failure(OSError(errno.ENOSPC, 'No space left on device'), "
        "Path(request.out))))",
        (DISK, "the disk is full")),
    "killed by a signal under its limit, it ran out of memory": (
        "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)",
        (MEMORY, "killed by SIGSEGV")),
    "ended without an answer: its last line": (
        "import sys\nprint('loading', file=sys.stderr)\nprint('error: libpango is not installed', file=sys.stderr)\n"
        "sys.stderr.flush()\nos._exit(3)",
        (ERROR, "libpango is not installed")),
    "past its time limit, it is stopped with what it started": (
        "import os, time\nos.fork()\ntime.sleep(60)",
        (TIMEOUT, "longer than 2 s")),
}
PRELUDE = ("import os\nfrom pathlib import Path\nfrom generator.errors import RulebookError\n"
           "from generator.render.process import ERROR, Failure, Result, failure\n")


@pytest.mark.parametrize("case", CASES)
def test_a_render_is_told_its_work_by_a_request_and_answers_with_a_result(case, tmp_path):
    script, expected = CASES[case]
    (tmp_path / "script.py").write_text(PRELUDE + script, encoding="utf-8")
    told = []
    started = time.monotonic()
    result = process.run("tests.scripted_worker", Request(PDF, str(tmp_path), out=str(tmp_path)), timeout=2,
                         memory_mb=1024, progress=lambda *report, **final: told.append((*report, final)))
    assert time.monotonic() - started < 30
    assert render_processes(os.getpid()) == []  # however it ended, nothing it started runs on
    if expected is None:
        assert result.failure is None and result.anchors == {"game-golf": 3}, result
    else:
        assert result.failure is not None and result.failure.kind == expected[0], result
        assert expected[1] in result.failure.message and "\n" not in result.failure.message, result
    if case == "answers with the anchors and the warnings":
        assert result.warnings == ("Court Whist takes 3 pages",)
        assert told == [("score sheets", 1, 2, {"final": False}), ("score sheets", 2, 2, {"final": True})]


def test_a_request_and_a_result_read_back_as_written():
    request = Request(SITE, "/book", "2026.1", "/out/site", validated={"content/golf.md": "ab12"}, staging="/s",
                      pages={"game-golf": 3}, versioned=True)
    assert Request.from_json(request.to_json()) == request
    result = Result({"game-golf": 3}, ("a warning",), Failure(MEMORY, "killed by SIGSEGV"))
    assert Result.from_json(json.loads(json.dumps(result.as_json()))) == result
    # A side of a pull request drawn by its own code reads what it knows of a request, and of an answer.
    newer = json.dumps({**json.loads(request.to_json()), "asked_later": 1})
    assert Request.from_json(newer) == request
    assert Result.from_json({"anchors": None, "said_later": 1}) == Result()


@pytest.mark.parametrize("text", ["", "[]", '{"root": "/book"}', "not json"])
def test_a_file_that_is_no_request_is_one_line(tmp_path, text):
    (tmp_path / "request.json").write_text(text, encoding="utf-8")
    with pytest.raises(RulebookError, match=r"request\.json: not a render's request") as raised:
        Request.read(tmp_path / "request.json")
    assert "\n" not in str(raised.value)


def test_the_pdf_render_says_out_of_memory_only_when_it_ran_out(tmp_path, monkeypatch):
    """The build's words for each failure of its PDF render (render/pdf/worker.py): an error whose own words speak of
    memory (a title quoted, a library's message) is that error, not a shortage of memory."""
    from generator.book.library import load_library
    from generator.render.pdf import worker
    from tests.checkfix import DEMO_GAME, make_project

    project = make_project(tmp_path / "book", {"games": [DEMO_GAME]})
    monkeypatch.setattr(worker, "WORKER", "tests.scripted_worker")
    monkeypatch.delenv("RULEBOOK_PDF_CACHE", raising=False)
    monkeypatch.setenv("RULEBOOK_PDF_MEMORY_MB", "900")
    lib = load_library(project)
    said = {"error": "failure(RulebookError('Out of Memory: the game is called bad_alloc'))",
            "memory": "failure(MemoryError())", "disk": "failure(OSError(28, 'No space left on device'))"}
    for kind, made in said.items():
        out = tmp_path / kind
        out.mkdir()
        (out / "script.py").write_text(PRELUDE + f"answer.result(Result(failure={made}))", encoding="utf-8")
        with pytest.raises(RulebookError) as raised:
            worker.render_pdfs(lib, out)
        memory = "it needed more than 900 MB of memory" in str(raised.value)
        assert memory == (kind == "memory"), str(raised.value)
        assert ("the disk is full" in str(raised.value)) == (kind == "disk")
        assert isinstance(raised.value, BuildError) == (kind != "disk")
