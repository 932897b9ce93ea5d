"""seedlint's language server for JupyterLab: a `jupyter_lsp_spec_v1` entry point, so that
`pip install 'seedlint[lsp]' jupyterlab-lsp` is all the setup (jupyter-lsp finds it, and
jupyterlab-lsp shows its findings in notebooks and Python files)."""

from __future__ import annotations

import importlib.util
import sys
from typing import Any


def spec(manager: Any = None) -> dict[str, dict[str, Any]]:
    """jupyter-lsp's spec of seedlint's server: run with this interpreter, for Python, when pygls
    (the `lsp` extra) is installed."""
    installed = importlib.util.find_spec("pygls") is not None
    return {
        "seedlint": {
            "argv": [sys.executable, "-m", "seedlint", "lsp"] if installed else [],
            "display_name": "seedlint",
            "languages": ["python"],
            "mime_types": ["text/python", "text/x-ipython"],
            "version": 2,
            "requires_documents_on_disk": False,  # it reads the editor's text, not a disk copy
            "urls": {"home": "https://github.com/seedlint/seedlint"},
            "install": {"pip": "pip install 'seedlint[lsp]'"},
        }
    }
