"""Jupyter notebooks end to end: `.ipynb` code cells linted as one program, findings by cell, fixes written back
into the cells they edit, per-cell diffs, discovery, pre-commit, verify, and the machine-readable formats."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import run_cli

from seedlint.diagnostics import Edit
from seedlint.notebook import Notebook

REPO = Path(__file__).resolve().parent.parent
STREAM = {"name": "stdout", "output_type": "stream", "text": ["ok\n"]}
RESULT = {
    "data": {"text/plain": ["tensor(0.5000)"]},
    "execution_count": 4,
    "metadata": {},
    "output_type": "execute_result",
}
SL104_MESSAGE = "`nn.Linear` draws from the torch CPU generator before `torch.manual_seed` seeds it"


# ------------------------------------------------------------------------------------------- notebooks as Jupyter
def md(source: str) -> tuple[str, str]:
    return "markdown", source


def py(source: str) -> tuple[str, str]:
    return "code", source


def notebook(*cells: tuple[str, str], language: str = "python", as_lines: bool = True) -> dict:
    """An nbformat 4 document as Jupyter saves it: ids, execution counts, outputs, metadata."""
    document_cells = []
    for number, (kind, source) in enumerate(cells, start=1):
        cell = {
            "cell_type": kind,
            "id": f"{number:04x}c0de-cell",
            "metadata": {},
            "source": source.splitlines(True) if as_lines else source,
        }
        if kind == "code":
            cell["execution_count"] = number
            cell["outputs"] = [dict(STREAM)]
            cell["metadata"] = {"tags": [f"step-{number}"], "scrolled": True}
        document_cells.append(cell)
    kernel = "python3" if language == "python" else "ir"
    return {
        "cells": document_cells,
        "metadata": {
            "kernelspec": {"display_name": language.title(), "language": language, "name": kernel},
            "language_info": {"name": language, "version": "3.12.1"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def dumps(document: dict, indent: int = 1, newline: str = "\n") -> str:
    """The text Jupyter writes (nbformat: sorted keys, indent 1, no ASCII escaping, final newline)."""
    return (json.dumps(document, indent=indent, sort_keys=True, ensure_ascii=False) + "\n").replace(
        "\n", newline
    )


def save(path: Path, document: dict, indent: int = 1, newline: str = "\n") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(dumps(document, indent, newline).encode("utf-8"))
    return path


def with_sources(document: dict, sources: dict[int, str], as_lines: bool = True) -> dict:
    """A copy of the document with new sources for some cells (1-based numbers)."""
    copy = json.loads(json.dumps(document))
    for number, source in sources.items():
        copy["cells"][number - 1]["source"] = source.splitlines(True) if as_lines else source
    return copy


def json_items(*args: str, cwd: Path) -> tuple[int, list[dict]]:
    result = run_cli("check", "--isolated", "--output-format", "json", *args, cwd=cwd)
    assert b"Traceback" not in result.stderr, result.stderr.decode()
    return result.returncode, json.loads(result.stdout)


def found(items: list[dict]) -> list[tuple]:
    return [
        (
            Path(i["filename"]).name,
            i.get("cell"),
            i["code"],
            i["location"]["row"],
            i["location"]["column"],
        )
        for i in items
    ]


# A draw in cell 2 before the seed in cell 3 (a single line); markdown cell 1 is counted. As Jupyter saves them,
# the cells' last lines have no newline.
TRAIN_CELLS = (
    md("# Entraînement\nA markdown cell: it counts in the cell numbers."),
    py("import torch\nimport torch.nn as nn\n\n# modèle linéaire\nmodel = nn.Linear(4, 2)"),
    py("torch.manual_seed(0)"),
    py("x = torch.randn(3, 4)\nprint(model(x).sum().item())"),
)
DRAW = (2, 5, 9)  # cell, row, column of `nn.Linear(4, 2)`
TRAIN_FIXED = {  # the seed moved above the draw, its cell left empty
    2: "import torch\nimport torch.nn as nn\n\n# modèle linéaire\ntorch.manual_seed(0)\nmodel = nn.Linear(4, 2)",
    3: "",
}
SEEDED_CELLS = (
    TRAIN_CELLS[0],
    py("import torch\nimport torch.nn as nn\n\ntorch.manual_seed(0)\n"),
    py("model = nn.Linear(4, 2)\n"),
    TRAIN_CELLS[3],
)


def train_notebook() -> dict:
    document = notebook(*TRAIN_CELLS)
    document["cells"][3]["outputs"].append(dict(RESULT))  # an untouched cell with a richer output
    return document


# ------------------------------------------------------------------------------------------- pre-commit
# (The two slow tests come first: a parallel run starts them first.)
def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_pre_commit_runs_the_hook_on_a_staged_notebook(tmp_path):
    # A committed snapshot of the working tree's files (not its virtual environment): try-repo installs it.
    source = tmp_path / "hook-source"
    listed = (
        subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=REPO,
            check=True,
            capture_output=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for name in filter(None, listed):
        if (REPO / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / name, source / name)
    _git(source, "init", "-q")
    _git(source, "add", "-A")
    _git(
        source,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-qm",
        "snapshot",
    )

    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    save(project / "nb.ipynb", train_notebook())
    _git(project, "add", "nb.ipynb")
    home = tmp_path / "home"
    env = {
        "PRE_COMMIT_HOME": str(home),
        "PATH": str(Path(sys.executable).parent) + ":/usr/bin:/bin",
        "HOME": str(home),
        "NO_COLOR": "1",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }

    def pre_commit() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(source), "seedlint"],
            cwd=project,
            capture_output=True,
            env=env,
            text=True,
            timeout=300,
            check=False,
        )

    failing = pre_commit()
    output = failing.stdout + failing.stderr
    assert failing.returncode == 1, output
    assert "nb.ipynb:cell 2:5:9" in output and "SL104" in output

    save(project / "nb.ipynb", notebook(*SEEDED_CELLS))
    _git(project, "add", "nb.ipynb")
    passing = pre_commit()
    assert passing.returncode == 0, passing.stdout + passing.stderr
    assert re.search(r"seedlint check\.+Passed", passing.stdout), passing.stdout


# ------------------------------------------------------------------------------------------- verify
VERIFY_CELLS = (
    md("# Runs"),
    py("%matplotlib inline\nimport torch\nimport torch.nn as nn\n"),
    py("!echo preparing\nmodel = nn.Linear(4, 2)\n"),
    py("torch.manual_seed(0)\nprint(model(torch.randn(3, 4)).sum().item())\n"),
)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="verify runs torch")
def test_verify_confirms_a_notebooks_divergence_and_its_fix_by_cell(tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook(*VERIFY_CELLS))
    before = path.read_bytes()
    result = run_cli("verify", "--output-format", "json", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    (item,) = json.loads(result.stdout)
    assert (item["code"], item["cell"], item["location"]) == ("SL104", 3, {"row": 2, "column": 9})
    assert (item["status"], item["fix_status"]) == ("confirmed", "fixed")
    assert item["evidence"]["where"].endswith("nb.ipynb:cell 3:2")
    assert item["evidence"]["first"] != item["evidence"]["second"]
    assert path.read_bytes() == before  # verify runs a fixed copy, it does not fix the notebook


# A lecture notebook whose cells were run out of order: it stops at the same cell, fixed or not.
FAILING_CELLS = (
    py("import random\nimport torch\nrandom.seed(42)\n"),
    py(
        "model = torch.nn.Linear(3, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        "model(torch.ones(3)).sum().backward()\nopt.step()\n"
    ),
    py("names = ['emma']\nprint(names[5])\n"),
)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="verify runs torch")
def test_a_notebook_that_fails_on_its_own_before_and_after_the_fix_is_fixed_with_a_note(tmp_path):
    save(tmp_path / "nb.ipynb", notebook(*FAILING_CELLS))
    result = run_cli("verify", "--output-format", "json", "nb.ipynb", cwd=tmp_path)
    (item,) = json.loads(result.stdout)
    assert (item["code"], item["status"], item["fix_status"]) == ("SL105", "confirmed", "fixed")
    failure = item["program_failure"]
    assert failure["type"] == "IndexError" and failure["where"].endswith("nb.ipynb:cell 3:2")
    full = run_cli("verify", "nb.ipynb", cwd=tmp_path).stdout.decode()
    assert "the program itself stops at nb.ipynb:cell 3:2 (IndexError: " in full
    assert "confirmed -> fixed" in full


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="verify runs torch")
def test_a_notebook_s_traceback_names_cells_and_shows_their_lines(tmp_path):
    cells = (py("import torch\ntorch.manual_seed(0)\nx = torch.randn(2)\n"), FAILING_CELLS[2])
    save(tmp_path / "nb.ipynb", notebook(*cells))
    result = run_cli(
        "verify", "--output-format", "json", "--no-fix-check", "nb.ipynb", cwd=tmp_path
    )
    (item,) = json.loads(result.stdout)
    assert (item["code"], item["status"]) == (None, "error")
    assert 'nb.ipynb", cell 2, line 2, in <module>' in item["detail"]
    assert "print(names[5])" in item["detail"]  # the cell's line, not the JSON's


# ------------------------------------------------------------------------------------------- findings by cell
def test_a_draw_before_a_later_cells_seed_is_reported_at_its_cell_in_every_text_format(tmp_path):
    save(tmp_path / "nb.ipynb", train_notebook())
    save(
        tmp_path / "seeded.ipynb", notebook(*SEEDED_CELLS)
    )  # the seed's cell runs first: nothing to say
    cell, row, column = DRAW

    full = run_cli("check", "--isolated", "nb.ipynb", "seeded.ipynb", cwd=tmp_path)
    out = full.stdout.decode()
    assert full.returncode == 1, full.stderr
    assert f"SL104 {SL104_MESSAGE}" in out
    assert f" --> nb.ipynb:cell {cell}:{row}:{column}\n" in out
    assert f"{row} | model = nn.Linear(4, 2)\n" in out  # the gutter counts the cell's own rows
    assert "seeded.ipynb" not in out
    assert "Found 1 error." in out

    concise = run_cli(
        "check",
        "--isolated",
        "--output-format",
        "concise",
        "nb.ipynb",
        "seeded.ipynb",
        cwd=tmp_path,
    )
    lines = [line for line in concise.stdout.decode().splitlines() if ": SL" in line]
    assert lines == [
        (
            f"nb.ipynb:cell {cell}:{row}:{column}: SL104 {SL104_MESSAGE}, so the values it gets change "
            "from run to run"
        )
    ]
    again = run_cli(
        "check",
        "--isolated",
        "--output-format",
        "concise",
        "nb.ipynb",
        "seeded.ipynb",
        cwd=tmp_path,
    )
    assert (
        again.stdout == concise.stdout
    )  # a second run (the cache knows the file) places them the same


def test_json_items_carry_the_cell_and_cell_relative_rows_and_py_items_keep_ruffs_keys(tmp_path):
    save(tmp_path / "nb.ipynb", train_notebook())
    (tmp_path / "train.py").write_text(
        "import torch\nimport torch.nn as nn\n\nmodel = nn.Linear(4, 2)\ntorch.manual_seed(0)\n"
    )
    returncode, items = json_items("--unsafe-fixes", "nb.ipynb", "train.py", cwd=tmp_path)
    assert returncode == 1
    assert found(items) == [("nb.ipynb", 2, "SL104", 5, 9), ("train.py", None, "SL104", 4, 9)]
    notebook_item, script_item = items
    assert notebook_item["end_location"] == {"row": 5, "column": 24}
    assert notebook_item["noqa_row"] == 5
    assert set(script_item) == {
        "code",
        "name",
        "message",
        "filename",
        "location",
        "end_location",
        "fix",
        "noqa_row",
        "url",
    }
    assert set(notebook_item) == set(script_item) | {"cell"}
    # SL104's fix moves the seed across cells: each edit says which cell its rows count in.
    insert, delete = notebook_item["fix"]["edits"]
    assert insert == {
        "content": "torch.manual_seed(0)\n",
        "location": {"row": 5, "column": 1},
        "end_location": {"row": 5, "column": 1},
        "cell": 2,
    }
    assert (delete["content"], delete["cell"], delete["location"]) == (
        "",
        3,
        {"row": 1, "column": 1},
    )
    # The seed cell is one line without a final newline: the deletion ends at the end of its text, not past it.
    assert delete["end_location"] == {"row": 1, "column": 21}
    assert (
        notebook_item["fix"]["message"]
        == "Move the seeding statement on line 1 of cell 3 above the first random draw"
    )
    assert all("cell" not in edit for edit in script_item["fix"]["edits"])


# ------------------------------------------------------------------------------------------- magics
MAGIC_CELLS = (
    md("Magics are IPython's, not Python's."),
    py(
        "%matplotlib inline\n!pip install torch\n%load_ext autoreload\nimport torch\nimport torch.nn as nn\n"
        "torch?\n?torch.randn\ntorch.randn??\n%run helper.py\nfiles = !ls\n*first, last = !ls\n(out, err) = %sx ls\n"
        "for name in files:\n"
        "    %time print(name)\n    !echo {name}\n"
    ),
    py(
        "%%bash\nfor x in 1 2; do echo $x; done\nmodel = nn.Linear(4, 2)\nif [ -f x ]; then cat x; fi\n"
    ),
    py("%%writefile helper.py\ndef broken(:\n"),
    py("%%html\n<b>not python (</b>\n"),
    py("%%time\nmodel = nn.Linear(4, 2)\n"),
    py("torch.manual_seed(0)\nmodel(torch.ones(4))\n"),
)


def test_magics_are_neither_findings_nor_syntax_errors_and_real_findings_beside_them_are_reported(
    tmp_path,
):
    save(tmp_path / "magics.ipynb", notebook(*MAGIC_CELLS))
    returncode, items = json_items("--select", "ALL", "magics.ipynb", cwd=tmp_path)
    # `%%bash` holds a draw written like Python: that cell is not Python, so nothing there is reported.
    assert found(items) == [("magics.ipynb", 6, "SL104", 2, 9)]
    assert returncode == 1


def test_a_cell_magic_that_is_not_the_first_line_is_a_syntax_error_of_its_cell(tmp_path):
    cells = list(MAGIC_CELLS)
    cells[5] = py("x = 1\n%%time\nmodel = nn.Linear(4, 2)\n")
    save(tmp_path / "late.ipynb", notebook(*cells))
    _, items = json_items("--select", "ALL", "late.ipynb", cwd=tmp_path)
    assert found(items) == [("late.ipynb", 6, "SL000", 2, 1)]


def test_a_fix_beside_magics_keeps_every_magic_line_as_written(tmp_path):
    path = save(tmp_path / "magics.ipynb", notebook(*MAGIC_CELLS))
    result = run_cli("check", "--isolated", "--fix", "--unsafe-fixes", "magics.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    expected = with_sources(
        notebook(*MAGIC_CELLS),
        {6: "%%time\ntorch.manual_seed(0)\nmodel = nn.Linear(4, 2)\n", 7: "model(torch.ones(4))\n"},
    )
    assert path.read_text(encoding="utf-8") == dumps(expected)


def test_fixes_that_would_edit_a_magic_line_or_span_two_cells_are_not_kept():
    program = Notebook.parse(
        dumps(notebook(py("import torch\n%time x = 1\ny = 2\n"), py("z = 3\n")))
    ).program()
    text = program.text
    magic = text.index("pass  # seedlint-magic:%time")
    plain = text.index("y = 2")
    second = text.index("z = 3")
    assert program.keeps([Edit(plain, plain + 1, "w")])
    assert program.keeps(
        [Edit(magic, magic, "w = 0\n")]
    )  # a line inserted above the magic leaves it alone
    assert not program.keeps([Edit(magic, magic + 4, "")])
    assert not program.keeps(
        [Edit(text.index("\n", magic), text.index("\n", magic), " # more")]
    )  # its end
    assert not program.keeps([Edit(plain, second + 1, "")])
    assert program.keeps([Edit(second, second + 1, "q")])


# ------------------------------------------------------------------------------------------- --fix
@pytest.mark.parametrize(
    "layout",
    [
        {},
        {"as_lines": False, "indent": 2},
        {"newline": "\r\n"},
    ],
    ids=["jupyter", "string-sources-indent-2", "crlf"],
)
def test_fix_rewrites_only_the_edited_cells_sources_and_is_idempotent(tmp_path, layout):
    as_lines = layout.get("as_lines", True)
    indent, newline = layout.get("indent", 1), layout.get("newline", "\n")
    original = notebook(*TRAIN_CELLS, as_lines=as_lines)
    original["cells"][3]["outputs"].append(dict(RESULT))
    path = save(tmp_path / "nb.ipynb", original, indent, newline)
    before = path.read_bytes().decode("utf-8")

    result = run_cli("check", "--isolated", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert b"1 fixed, 0 remaining" in result.stdout
    after = path.read_bytes().decode("utf-8")
    fixed = json.loads(after)

    # Decoded: every key of every cell and of the notebook is as it was, but the two edited sources.
    assert {k: v for k, v in fixed.items() if k != "cells"} == {
        k: v for k, v in original.items() if k != "cells"
    }
    for number, (old, new) in enumerate(zip(original["cells"], fixed["cells"]), start=1):
        assert {k: v for k, v in new.items() if k != "source"} == {
            k: v for k, v in old.items() if k != "source"
        }
        if number not in TRAIN_FIXED:
            assert new["source"] == old["source"], number
    expected_sources = {
        number: source.splitlines(True) if as_lines else source
        for number, source in TRAIN_FIXED.items()
    }
    assert {
        number: fixed["cells"][number - 1]["source"] for number in TRAIN_FIXED
    } == expected_sources
    # Raw text: the lines outside the edited sources are byte for byte the same, the final newline kept, and
    # the whole file is what Jupyter itself would write for the fixed notebook.
    assert _outside_sources(after, newline, TRAIN_FIXED) == _outside_sources(
        before, newline, TRAIN_FIXED
    )
    assert after.endswith(newline) and not after.endswith(newline * 2)
    assert after == dumps(with_sources(original, TRAIN_FIXED, as_lines), indent, newline)

    relint = run_cli("check", "--isolated", "--select", "ALL", "nb.ipynb", cwd=tmp_path)
    assert relint.returncode == 0 and relint.stdout == b"All checks passed!\n", relint.stdout
    second = run_cli("check", "--isolated", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert second.returncode == 0
    assert path.read_bytes().decode("utf-8") == after


def _outside_sources(text: str, newline: str, numbers) -> list[str]:
    """The file's lines, less those of the `source` values of the cells numbered in `numbers` (found by
    Jupyter's layout: `"source": ` at the cell's key indentation, a list up to its closing bracket)."""
    lines = text.split(newline)
    kept, cell, skipping, indent = [], 0, False, None
    for line in lines:
        if skipping:
            if line.startswith(indent + "]"):
                skipping = False
            continue
        match = re.match(r'( +)"source": (.*)$', line)
        if match:
            cell += 1
            if cell in numbers:
                indent = match.group(1)
                skipping = match.group(2) == "["  # a multi-line list: skip to its `]`
                kept.append(f"<source of cell {cell}>")
                continue
        kept.append(line)
    assert cell == 4  # every cell's source was seen
    return kept


def test_fix_leaves_the_notebook_alone_without_unsafe_fixes(tmp_path):
    path = save(tmp_path / "nb.ipynb", train_notebook())
    before = path.read_bytes()
    result = run_cli("check", "--isolated", "--fix", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 1
    assert path.read_bytes() == before


# ------------------------------------------------------------------------------------------- syntax errors
BROKEN_CELLS = (
    md("# A notebook with a broken cell"),
    py("import torch\n"),
    py("x = 1\ndef f(:\n    pass\n"),
    py("model = torch.nn.Linear(2, 2)\ntorch.manual_seed(0)\nmodel(torch.ones(2))\n"),
)


def test_a_cell_that_does_not_parse_is_one_sl000_and_the_other_cells_are_checked(tmp_path):
    save(tmp_path / "broken.ipynb", notebook(*BROKEN_CELLS))
    cells = list(BROKEN_CELLS)
    cells[2] = py("x = 1\ndef f():\n    pass\n")
    save(tmp_path / "mended.ipynb", notebook(*cells))
    returncode, items = json_items("broken.ipynb", "mended.ipynb", cwd=tmp_path)
    assert returncode == 1
    assert found(items) == [
        ("broken.ipynb", 3, "SL000", 2, 7),
        ("broken.ipynb", 4, "SL104", 1, 9),
        ("mended.ipynb", 4, "SL104", 1, 9),
    ]
    assert items[0]["message"] == "SyntaxError: invalid syntax"
    full = run_cli("check", "--isolated", "broken.ipynb", cwd=tmp_path).stdout.decode()
    assert " --> broken.ipynb:cell 3:2:7\n" in full and "2 | def f(:\n" in full


def test_fix_applies_in_the_other_cells_and_leaves_the_broken_cell_as_it_is(tmp_path):
    path = save(tmp_path / "broken.ipynb", notebook(*BROKEN_CELLS))
    result = run_cli(
        "check",
        "--isolated",
        "--output-format",
        "concise",
        "--fix",
        "--unsafe-fixes",
        "broken.ipynb",
        cwd=tmp_path,
    )
    assert result.returncode == 1  # the syntax error remains
    assert b"broken.ipynb:cell 3:2:7: SL000" in result.stdout and b"SL104" not in result.stdout
    expected = with_sources(
        notebook(*BROKEN_CELLS),
        {4: "torch.manual_seed(0)\nmodel = torch.nn.Linear(2, 2)\nmodel(torch.ones(2))\n"},
    )
    assert path.read_text(encoding="utf-8") == dumps(expected)


# ------------------------------------------------------------------------------------------- noqa
@pytest.mark.parametrize(
    "cells, reported",
    [
        ((TRAIN_CELLS[0], py(TRAIN_CELLS[1][1] + "  # noqa: SL104"), *TRAIN_CELLS[2:]), False),
        ((TRAIN_CELLS[0], py(TRAIN_CELLS[1][1] + "  # noqa: SL105"), *TRAIN_CELLS[2:]), True),
        ((TRAIN_CELLS[0], py("# seedlint: noqa\n" + TRAIN_CELLS[1][1]), *TRAIN_CELLS[2:]), False),
        ((md("# seedlint: noqa\n"), *TRAIN_CELLS[1:]), True),  # a markdown cell's text is not code
    ],
    ids=["noqa-code", "noqa-other-code", "file-noqa-in-code-cell", "file-noqa-in-markdown"],
)
def test_noqa_comments_in_cells(tmp_path, cells, reported):
    save(tmp_path / "nb.ipynb", notebook(*cells))
    _, items = json_items("nb.ipynb", cwd=tmp_path)
    assert [(i["code"], i["cell"]) for i in items if i["code"] == "SL104"] == (
        [("SL104", 2)] if reported else []
    )


# ------------------------------------------------------------------------------------------- --diff
def test_diff_prints_one_diff_per_changed_cell_and_writes_nothing(tmp_path):
    path = save(tmp_path / "nb.ipynb", train_notebook())
    before = path.read_bytes()
    result = run_cli("check", "--isolated", "--diff", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.decode() == (
        "--- nb.ipynb:cell 2\n"
        "+++ nb.ipynb:cell 2\n"
        "@@ -2,4 +2,5 @@\n"
        " import torch.nn as nn\n"
        " \n"
        " # modèle linéaire\n"
        "+torch.manual_seed(0)\n"
        " model = nn.Linear(4, 2)\n"
        "\n"
        "--- nb.ipynb:cell 3\n"
        "+++ nb.ipynb:cell 3\n"
        "@@ -1 +0,0 @@\n"
        "-torch.manual_seed(0)\n"
        "\n"
    )
    assert "Would fix 1 error." in result.stderr.decode()
    assert path.read_bytes() == before
    safe_only = run_cli("check", "--isolated", "--diff", "nb.ipynb", cwd=tmp_path)
    assert safe_only.stdout == b""  # SL104's fix is unsafe


# ------------------------------------------------------------------------------------------- discovery
def test_directories_include_notebooks_but_not_checkpoints_and_extend_exclude_applies(tmp_path):
    project = tmp_path / "project"
    save(project / "sub" / "a.ipynb", train_notebook())
    save(project / "sub" / ".ipynb_checkpoints" / "a-checkpoint.ipynb", train_notebook())
    (project / "train.py").write_text(
        "import torch\nmodel = torch.nn.Linear(2, 2)\ntorch.manual_seed(0)\n"
    )

    def reported(*args: str) -> set[str]:
        out = run_cli("check", "--output-format", "concise", *args, cwd=project).stdout.decode()
        return {line.split(": SL")[0] for line in out.splitlines() if ": SL" in line}

    assert reported(".") == {"sub/a.ipynb:cell 2:5:9", "train.py:2:9"}
    # The checkpoint copy has the same finding: it is its directory that keeps it out.
    assert reported("sub/.ipynb_checkpoints/a-checkpoint.ipynb") == {
        "sub/.ipynb_checkpoints/a-checkpoint.ipynb:cell 2:5:9"
    }

    (project / "pyproject.toml").write_text('[tool.seedlint]\nextend-exclude = ["*.ipynb"]\n')
    assert reported(".") == {"train.py:2:9"}
    assert reported("--force-exclude", "sub/a.ipynb") == set()


# ----------------------------------------------------------------------------------- github, sarif, gitlab
def test_github_sarif_and_gitlab_point_into_the_notebooks_json_text(tmp_path):
    path = save(tmp_path / "nb.ipynb", train_notebook())
    (tmp_path / "train.py").write_text(
        "import torch\nmodel = torch.nn.Linear(2, 2)\ntorch.manual_seed(0)\n"
    )
    file_lines = path.read_text(encoding="utf-8").splitlines()
    cell, row, column = DRAW

    github = run_cli(
        "check", "--isolated", "--output-format", "github", "nb.ipynb", "train.py", cwd=tmp_path
    )
    (annotation,) = [
        line for line in github.stdout.decode().splitlines() if "file=nb.ipynb" in line
    ]
    match = re.match(
        r"::error title=seedlint \(SL104\),file=nb\.ipynb,line=(\d+),col=(\d+),endLine=(\d+),"
        r"endColumn=(\d+)::nb\.ipynb:cell (\d+):(\d+):(\d+): SL104 ",
        annotation,
    )
    assert match, annotation
    line, col, end_line, end_col, *place = map(int, match.groups())
    assert place == [cell, row, column]
    assert end_line == line
    assert file_lines[line - 1][col - 1 : end_col - 1] == "nn.Linear(4, 2)"
    assert file_lines[line - 1].strip() == '"model = nn.Linear(4, 2)"'

    sarif = run_cli(
        "check", "--isolated", "--output-format", "sarif", "nb.ipynb", "train.py", cwd=tmp_path
    )
    results = json.loads(sarif.stdout)["runs"][0]["results"]
    (in_notebook,) = [
        r
        for r in results
        if r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "nb.ipynb"
    ]
    (in_script,) = [r for r in results if r is not in_notebook]
    region = in_notebook["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"], region["endColumn"]) == (line, col, end_col)
    assert in_notebook["properties"] == {"cell": cell, "cellLine": row, "cellColumn": column}
    assert in_notebook["message"]["text"].startswith(f"cell {cell}:{row}:{column}: ")
    assert "fixes" not in in_notebook and "fixes" in in_script

    gitlab = run_cli("check", "--isolated", "--output-format", "gitlab", "nb.ipynb", cwd=tmp_path)
    (issue,) = json.loads(gitlab.stdout)
    positions = issue["location"]["positions"]
    assert (positions["begin"]["line"], positions["begin"]["column"]) == (line, col)
    assert issue["description"].startswith(f"cell {cell}:{row}:{column}: SL104: ")


def test_github_points_into_a_string_source_with_escapes(tmp_path):
    path = save(tmp_path / "nb.ipynb", notebook(*TRAIN_CELLS, as_lines=False))
    text = path.read_text(encoding="utf-8")
    github = run_cli(
        "check", "--isolated", "--output-format", "github", "nb.ipynb", cwd=tmp_path
    ).stdout.decode()
    line, col, end_col = map(
        int, re.search(r",line=(\d+),col=(\d+),endLine=\d+,endColumn=(\d+)::", github).groups()
    )
    assert text.splitlines()[line - 1][col - 1 : end_col - 1] == "nn.Linear(4, 2)"


# ------------------------------------------------------------------------------------------- what is not linted
def test_a_file_that_is_not_a_notebook_is_one_sl000_and_the_run_goes_on(tmp_path):
    (tmp_path / "bad.ipynb").write_text('{"cells": [ {"cell_type": "code", ')
    (tmp_path / "old.ipynb").write_text(
        json.dumps({"nbformat": 3, "nbformat_minor": 0, "worksheets": []})
    )
    (tmp_path / "odd.ipynb").write_text(
        json.dumps({"cells": {}, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})
    )
    (tmp_path / "train.py").write_text(
        "import torch\nmodel = torch.nn.Linear(2, 2)\ntorch.manual_seed(0)\n"
    )
    result = run_cli("check", "--isolated", "--output-format", "concise", ".", cwd=tmp_path)
    out, err = result.stdout.decode(), result.stderr.decode()
    assert result.returncode == 1
    assert "Traceback" not in out + err
    lines = [line for line in out.splitlines() if ": SL" in line]
    assert len(lines) == 4, out
    assert lines[0].startswith("bad.ipynb:1:1: SL000 cannot read the file: not a notebook: ")
    assert lines[1] == "odd.ipynb:1:1: SL000 cannot read the file: not a notebook: no list of cells"
    assert (
        lines[2]
        == "old.ipynb:1:1: SL000 cannot read the file: not an nbformat 4 notebook (nbformat 3)"
    )
    assert lines[3].startswith("train.py:2:9: SL104 ")


def test_a_notebook_of_another_language_is_not_linted(tmp_path):
    save(tmp_path / "r.ipynb", notebook(*TRAIN_CELLS, language="R"))
    save(tmp_path / "python.ipynb", notebook(*TRAIN_CELLS))
    _, items = json_items("--select", "ALL", "r.ipynb", "python.ipynb", cwd=tmp_path)
    assert found(items) == [("python.ipynb", 2, "SL104", 5, 9)]


def test_a_cell_indented_as_a_whole_runs_dedented_as_ipython_does(tmp_path):
    """IPython's `leading_indent` cleanup removes the first line's indentation from every line, so
    such a cell runs; its findings keep the cell's own columns, and no fix edits it."""
    cells = (
        py(" import torch\n x = torch.randn(3)\n torch.manual_seed(0)\n x.sum().backward()\n"),
        py("  import torch\ny = 1\n"),  # only the first line indented: a syntax error
    )
    save(tmp_path / "indented.ipynb", notebook(*cells))
    _, items = json_items("indented.ipynb", cwd=tmp_path)
    assert found(items) == [
        ("indented.ipynb", 1, "SL104", 2, 6),
        ("indented.ipynb", 2, "SL000", 1, 2),
    ]
    result = run_cli(
        "check", "--isolated", "--fix", "--unsafe-fixes", "indented.ipynb", cwd=tmp_path
    )
    assert result.returncode == 1
    assert json.loads((tmp_path / "indented.ipynb").read_text())["cells"][0]["source"] == [
        " import torch\n",
        " x = torch.randn(3)\n",
        " torch.manual_seed(0)\n",
        " x.sum().backward()\n",
    ]
