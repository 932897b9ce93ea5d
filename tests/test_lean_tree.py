"""A lean tree (built from Python's `ast`) is libcst's tree of the same text without its formatting,
and checking a file on one finds exactly what checking it on a full parse does."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

import libcst as cst
import pytest
from click.testing import CliRunner

from seedlint import parsing, runner
from seedlint.cli import main
from seedlint.lean_tree import lean_module
from seedlint.parsing import LeanLayout, Unplaced, lean_parse
from seedlint.source import SourceText

_ROOT = Path(__file__).parents[1]
_CORPUS = Path(__file__).parent / "corpus"
# what a lean tree leaves out: formatting (whitespace, brackets, commas, comments, blank lines)
_FORMATTING = frozenset(
    {
        "lpar",
        "rpar",
        "comma",
        "semicolon",
        "leading_lines",
        "lines_after_decorators",
        "header",
        "footer",
        "newline",
        "indent",
        "default_indent",
        "default_newline",
        "encoding",
        "has_trailing_newline",
        "equal",
        "colon",
        "dot",
        "second_colon",
    }
)


def _difference(lean: object, full: object, where: str = "") -> str | None:
    """Where two trees differ other than in formatting (None: nowhere)."""
    if type(lean) is not type(full):
        return f"{where}: {type(lean).__name__} != {type(full).__name__}"
    if isinstance(lean, tuple):
        if len(lean) != len(full):  # type: ignore[arg-type]
            return f"{where}: {len(lean)} != {len(full)} items"  # type: ignore[arg-type]
        for number, (a, b) in enumerate(zip(lean, full)):  # type: ignore[call-overload]
            found = _difference(a, b, f"{where}[{number}]")
            if found:
                return found
        return None
    if isinstance(lean, cst.CSTNode):
        for field in dataclasses.fields(lean):
            name = field.name
            if name in _FORMATTING or "whitespace" in name:
                continue
            found = _difference(
                getattr(lean, name), getattr(full, name), f"{where}.{type(lean).__name__}.{name}"
            )
            if found:
                return found
        return None
    return None if lean == full else f"{where}: {lean!r} != {full!r}"


def _assert_lean_is_full(text: str) -> None:
    built = lean_module(text)
    assert built is not None
    assert _difference(built[0], cst.parse_module(text)) is None


SOURCES = sorted(
    [*_CORPUS.rglob("*.py"), *(_ROOT / "seedlint").rglob("*.py")], key=lambda path: str(path)
)


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(_ROOT)))
def test_a_lean_tree_is_the_full_parse_without_formatting(path):
    text = path.read_text(encoding="utf-8")
    try:
        cst.parse_module(text)
    except cst.ParserSyntaxError:  # a template, not Python
        assert lean_module(text) is None
    else:
        _assert_lean_is_full(text)


SNIPPETS = {
    "operators": "x = -a + b * c @ d // e % f ** g << h >> i | j & k ^ ~l\ny = not a\n",
    "augmented": "x += 1\nx -= 1\nx *= 2\nx @= m\nx /= 2\nx //= 2\nx %= 2\nx **= 2\n"
    "x <<= 1\nx >>= 1\nx |= 1\nx &= 1\nx ^= 1\n",
    "booleans and comparisons": "a and b and c or d\nx = 1 < y <= 2 == z != w > v >= u\n"
    "p is q is not r in s not in t\n",
    "calls": "f(a, *b, c=1, *d, **e)\nf(x for x in y)\ng()(1)[2].h\n",
    "strings": "s = 'a'\nt = \"b\" 'c'\nu = ('d'\n     'e')\nv = b'\\x00' rb'\\d'\nw = '''x\n'''\n"
    "x = f'{a!r:>{width}} {b}'\ny = 'g' f'{h}'\n",
    "f-strings": "a = f'{x=} {y!s:>{w}.{p}f} {{z}} {d[\"k\"]} {(lambda: 1)()} {u != v}'\n"
    "b = rf'\\d{n}\\{{' + f'\\N{BULLET} {m}}}' + F'''{\n  q\n}'''\nc = f\"{ {'s': 1}['s'] }\"\n",
    "f-strings libcst parses": "a = f'{m:}' f'{n}'\n",  # an empty spec, f-strings side by side
    "strings side by side": "s = ('a'  # one\n     \"b\" r'c'\n     '''d''')\nt = 'e' \\\n    'f'\n",
    "numbers": "n = 0x1F + 1_000 + 1.5e3 + 2j + 0o7 + 0b1\n",
    "constants": "a = None, True, False, ...\n",
    "containers": "a = [1, *b]\nc = {1: 2, **d}\ne = {1, *f}\ng = ()\nh = (1,)\ni = 1, 2\n"
    "j = [x for x in y if x if z for w in x]\nk = {x: y for x, y in z}\nl = {x async for x in y}\n",
    "subscripts": "a[1]\na[1:2]\na[::2]\na[1:2, 3]\na[(1, 2)]\na[1, 2]\na[b, c:d]\na[:]\n",
    "lambdas": "f = lambda: 0\ng = lambda a, /, b=1, *c, d, e=2, **f: a\nh = lambda *, k: k\n",
    "functions": "@dec\n@dec.attr(1)\nasync def f(a: int, /, b: str = '', *args: int, c, d=1,"
    " **kw) -> None:\n    '''doc'''\n    await g()\n    return\n\ndef h(*, k): yield k\n"
    "def i(): yield from j\n",
    "classes": "@dataclass\nclass A(B, metaclass=M, **kw):\n    x: int = 1\n    y: str\n"
    "    def m(self): pass\nclass C: pass\n",
    "control flow": "if a:\n    pass\nelif b:\n    pass\nelse:\n    if c:\n        pass\n"
    "for i in x:\n    break\nelse:\n    continue\nwhile x: x -= 1\nelse: pass\n"
    "async def f():\n    async for i in x: pass\n    async with a as b, c: pass\n",
    "else with one if": "if a:\n    pass\nelse:\n    if b:\n        pass\n",
    "try": "try:\n    pass\nexcept E as e:\n    raise F from e\nexcept (G, H):\n    raise\n"
    "except:\n    pass\nelse:\n    pass\nfinally:\n    pass\n",
    "simple statements": "import a.b as c, d\nfrom . import e\nfrom ..f import (g as h, i)\n"
    "from j import *\nglobal k, l\ndel m, n[0]\ndel o\nassert p, 'q'\nx = y = 1\n"
    "a = 1; b = 2\nif x: a = 1; b = 2\n(w := 3)\nwith x: pass\n",
    "nonlocal": "def f():\n    x = 1\n    def g():\n        nonlocal x\n        x = 2\n",
    "match": "match x:\n    case [1, *rest] if rest:\n        pass\n    case {'k': v, **kw}:\n"
    "        pass\n    case Point(x=0) | None:\n        pass\n    case _:\n        pass\n"
    "def f(c):\n    match c:\n        case 1:\n            return 'a'  # comment\n",
    "unicode": "é = 'ü'\nprint(é)  # ascii elsewhere\n",
}


@pytest.mark.parametrize("text", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_every_statement_and_expression_is_rebuilt(text):
    _assert_lean_is_full(text)


@pytest.mark.parametrize("name", ["strings side by side", "f-strings"])
def test_strings_are_rebuilt_without_libcst(name, monkeypatch):
    # libcst's parse of a short expression costs about 0.2 ms: messages are often written so
    text = SNIPPETS[name]
    expected = lean_module(text)[0]
    monkeypatch.setattr(cst, "parse_expression", None)
    assert _difference(lean_module(text)[0], expected) is None


@pytest.mark.skipif(sys.version_info < (3, 11), reason="`except*` is Python 3.11's")
def test_except_star_is_parsed_from_its_text():
    _assert_lean_is_full("try:\n    pass\nexcept* ValueError as group:\n    pass\n")


def test_each_call_keeps_the_line_it_starts_on():
    text = "f(1)\n\nx = [\n    g(2),\n    h(\n        3\n    ),\n]\n"
    built = lean_module(text)
    assert built is not None
    module, rows = built
    rows_by_callee = {call.func.value: row for call, row in rows.items()}
    assert rows_by_callee == {"f": 1, "g": 4, "h": 5}


@pytest.mark.parametrize(
    "text",
    [
        "def f(:\n",  # a syntax error: libcst reports it
        "y\u0304 = 1\n",  # `ast` gives identifiers in NFKC, libcst as written
    ],
    ids=["syntax error", "identifier not in NFKC"],
)
def test_what_lean_trees_cannot_give_is_left_to_libcst(text):
    assert lean_module(text) is None


def test_a_lean_layout_has_no_positions():
    text = "x = f(1)\n"
    module, _ = lean_parse(text)
    layout = LeanLayout(module, SourceText(text))
    call = module.body[0].body[0].value
    for ask in (lambda: layout.span(call), lambda: layout.holds(call), lambda: layout.pieces):
        with pytest.raises(Unplaced):
            ask()


def _findings(folder: Path) -> list[dict]:
    result = CliRunner().invoke(
        main,
        ["check", "--select", "ALL", "--no-cache", "--isolated", "--jobs", "1"]
        + ["--output-format", "json", "--exit-zero", str(folder)],
    )
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize(
    "program", sorted(path for path in _CORPUS.iterdir() if path.is_dir()), ids=lambda p: p.name
)
def test_checking_on_lean_trees_finds_what_full_parses_do(program, monkeypatch):
    monkeypatch.chdir(program)
    lean = _findings(program)
    monkeypatch.setattr(parsing, "lean_module", lambda text: None)  # every tree parsed in full
    assert lean == _findings(program)


@pytest.mark.parametrize(
    "program", sorted(path for path in _CORPUS.iterdir() if path.is_dir()), ids=lambda p: p.name
)
def test_trees_dropped_between_files_change_no_finding(program, monkeypatch):
    monkeypatch.chdir(program)
    kept = _findings(program)
    monkeypatch.setattr(runner, "_KEPT_SOURCE", 0)  # every tree dropped before each file
    assert kept == _findings(program)


@pytest.mark.parametrize(
    "held",
    ["sampler", "self.sampler", "samplers[0]"],
)
def test_a_sampler_given_its_set_epoch_is_judged_on_the_lean_tree(held, monkeypatch):
    # SL201 compares the expressions holding samplers as written, which needs no position: a file
    # without a finding is not parsed again in full for it
    from conftest import lint

    text = f"""
    import torch
    from torch.utils.data import DataLoader, DistributedSampler

    class Run:
        def main(self, dataset, model):
            torch.manual_seed(0)
            samplers = [None]
            self.sampler = None
            {held} = DistributedSampler(dataset)
            loader = DataLoader(dataset, sampler={held})
            for epoch in range(10):
                {held}.set_epoch(epoch)
                for batch in loader:
                    model(batch).sum().backward()
    """

    def refuse(*args, **kwargs):
        raise AssertionError("parsed in full")

    monkeypatch.setattr("seedlint.linter.parse", refuse)
    assert lint(text, ["SL201"]).diagnostics == []
    monkeypatch.undo()
    flagged = lint(text.replace(f"{held}.set_epoch(epoch)", "pass"), ["SL201"]).diagnostics
    assert [d.code for d in flagged] == ["SL201"]


def test_an_f_string_whose_field_is_not_rebuilt_is_parsed_by_libcst(monkeypatch):
    # a field the split reads wrongly falls back to libcst's parse of the whole f-string, read
    # from the module's own lines (not those of the field being built)
    from seedlint import lean_tree

    text = "x = 1\ny = f'{a} and {b}'\n"
    monkeypatch.setattr(lean_tree, "_fields", lambda body, raw: ["a", ("1 +", False, None, None)])
    _assert_lean_is_full(text)
