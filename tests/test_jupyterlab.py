"""seedlint in JupyterLab: jupyter-lsp finds its language server through the package's
`jupyter_lsp_spec_v1` entry point, and jupyterlab-lsp shows its findings on a notebook's cells, in
headless Chromium (Debian's `chromium`, Python's `playwright`; `.ci/run` installs them)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import CHROMIUM, free_port, listening, until

from seedlint.lsp.jupyter import spec

needs_a_browser = pytest.mark.skipif(
    not CHROMIUM
    or importlib.util.find_spec("playwright") is None
    or importlib.util.find_spec("jupyter_lsp") is None,
    reason="needs chromium, playwright and jupyterlab-lsp (.ci/run installs them)",
)
DRAW_BEFORE_SEED = (
    ["import torch\n"],
    [
        "x = torch.randn(3)\n",
        "torch.manual_seed(0)\n",
        "model = torch.nn.Linear(3, 1)\n",
        "print(model(x).item())\n",
    ],
)
CLEAN = (
    ["import torch\n"],
    [
        "torch.manual_seed(0)\n",
        "x = torch.randn(3)\n",
        "model = torch.nn.Linear(3, 1)\n",
        "print(model(x).item())\n",
    ],
)


def test_the_entry_point_gives_jupyter_lsp_the_server_of_this_interpreter():
    from importlib.metadata import entry_points

    (found,) = [ep for ep in entry_points(group="jupyter_lsp_spec_v1") if ep.name == "seedlint"]
    server = found.load()(None)["seedlint"]
    assert server == spec()["seedlint"]
    assert server["argv"] == [sys.executable, "-m", "seedlint", "lsp"]
    assert server["languages"] == ["python"]


def _notebook(path: Path, cells) -> None:
    path.write_text(
        json.dumps(
            {
                "cells": [
                    {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": []}
                    | {"source": source}
                    for source in cells
                ],
                "metadata": {
                    "kernelspec": {
                        "name": "python3",
                        "display_name": "Python 3",
                        "language": "python",
                    },
                    "language_info": {"name": "python"},
                },
                "nbformat": 4,
                "nbformat_minor": 5,
            }
        )
    )


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    _notebook(root / "draws.ipynb", DRAW_BEFORE_SEED)
    _notebook(root / "clean.ipynb", CLEAN)
    # the control: the same draw before the seed in a subfolder whose configuration ignores SL104,
    # and a cell the server still marks (SL106), so that an answering server is seen
    (root / "quiet").mkdir()
    (root / "quiet" / "pyproject.toml").write_text('[tool.seedlint]\nignore = ["SL104"]\n')
    _notebook(
        root / "quiet" / "draws.ipynb", (["import random\n", "random.seed()\n"], *DRAW_BEFORE_SEED)
    )
    port = free_port()
    log = (root / "lab.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "jupyterlab",
            "--no-browser",
            f"--port={port}",
            "--ServerApp.ip=127.0.0.1",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={root}",
            "--ServerApp.disable_check_xsrf=True",
            "--allow-root",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "JUPYTER_CONFIG_DIR": str(root / ".jupyter")},
    )
    assert listening(port, 90), (root / "lab.log").read_text()
    yield f"http://127.0.0.1:{port}"
    process.terminate()
    process.wait(timeout=20)
    log.close()


def _marks(page, url: str, notebook: str, wait: float) -> list[str]:
    """The text of each cell that holds a diagnostic mark, once one shows (or after `wait`)."""
    page.goto(f"{url}/lab/tree/{notebook}?reset")  # that notebook alone, not the last layout
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    until(page, lambda: page.query_selector(".jp-Cell .cm-lintRange"), bool, wait)
    return [
        cell.inner_text()
        for cell in page.query_selector_all(".jp-Notebook .jp-CodeCell")
        if cell.query_selector(".cm-lintRange")
    ]


@needs_a_browser
def test_a_draw_before_the_seed_is_marked_on_its_cell(lab, page):
    marked = _marks(page, lab, "draws.ipynb", 90)
    assert len(marked) == 1 and "torch.randn(3)" in marked[0], marked


@needs_a_browser
def test_a_clean_notebook_has_no_mark(lab, page):
    assert _marks(page, lab, "draws.ipynb", 90)  # the server is up and answering
    assert _marks(page, lab, "clean.ipynb", 15) == []


@needs_a_browser
def test_a_draw_suppressed_in_the_configuration_beside_the_notebook_is_not_marked(lab, page):
    marked = _marks(page, lab, "quiet/draws.ipynb", 90)
    assert len(marked) == 1 and "random.seed()" in marked[0], marked
