"""Re-parsing only what an edit touched gives the tree, and the positions, of a full parse."""

from __future__ import annotations

import random
from pathlib import Path

import libcst as cst
import pytest
from libcst.metadata.position_provider import PositionProvidingCodegenState

from seedlint import parsing
from seedlint.parsing import Reparser, parse, syntax_tree
from seedlint.source import SourceText

_CORPUS = Path(__file__).parent / "corpus"
SOURCES = [
    _CORPUS / "seed_picked" / "main.py",
    _CORPUS / "nanogpt" / "train.py",
    _CORPUS / "generate_empty_init" / "sample.py",
    Path(__file__).parents[1] / "seedlint" / "linter.py",
]

# Edits that move statement boundaries and comment ownership, change indentation, or break the syntax; the
# rare ones also change what libcst's tree can say (a line of only `\\` it mangles, a tab that sets the indentation).
SNIPPETS = [
    "\n",
    "\n\n",
    "# a comment\n",
    "    # an indented comment\n",
    "        # deeper\n",
    "x = 1\n",
    "    y = 2\n",
    "def added():\n    return 1\n",
    "torch.manual_seed(0)\n",
    "(",
    ")",
    "else:\n    pass\n",
    "@decorator\n",
    "'''\n",
    "async def g():\n    await h()\n",
    "    ",
    ":",
]
RARE_SNIPPETS = ["class Added:\n  pass\n", "if flag:\n\tpass\n", "\\\n", "\r\n", "\t"]


def _edit(text: str, rng: random.Random) -> tuple[str, bool]:
    """The text edited at random, and whether the edit is a rare one (undone next)."""
    lines = text.splitlines(keepends=True) or [""]
    row = rng.randrange(len(lines))
    start = sum(map(len, lines[:row]))
    kind = rng.random()
    if kind < 0.45:
        rare = rng.random() < 0.1
        return text[:start] + rng.choice(RARE_SNIPPETS if rare else SNIPPETS) + text[start:], rare
    if kind < 0.7:
        end = start + sum(map(len, lines[row : row + rng.randint(1, 3)]))
        return text[:start] + text[end:], False
    position = rng.randrange(len(text) + 1)  # within a line
    if kind < 0.85:
        return text[:position] + rng.choice(["1", " ", "a", "#", "(", ")", ",", "\n"]) + text[
            position:
        ], False
    return text[:position] + text[position + rng.randint(1, 4) :], False


def _preorder(node: cst.CSTNode) -> list[cst.CSTNode]:
    nodes, stack = [], [node]
    while stack:
        current = stack.pop()
        nodes.append(current)
        stack.extend(reversed(current.children))
    return nodes


def _full_spans(module: cst.Module, source: SourceText) -> dict:
    """Every node's span from one code generation of the whole module (what libcst's provider gives)."""

    class Sink:  # what libcst's codegen state writes positions into
        def __init__(self) -> None:
            self._computed: dict = {}

    sink = Sink()
    module._codegen(
        PositionProvidingCodegenState(module.default_indent, module.default_newline, provider=sink)
    )
    return {
        node: (source.offset(r.start.line, r.start.column), source.offset(r.end.line, r.end.column))
        for node, r in sink._computed.items()
    }


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_random_edits_reparse_to_the_full_parse(source: Path):
    rng = random.Random(source.name)
    reparser = Reparser()
    text = source.read_text()
    reused = compared = 0
    previous = None
    good = text
    for _ in range(50):
        text, rare = _edit(text, rng)
        try:
            expected = cst.parse_module(text)
        except cst.ParserSyntaxError:
            with pytest.raises(cst.ParserSyntaxError):
                reparser.parse(source, text)
            if rare or rng.random() < 0.7:
                text = good  # the user fixes the typo (else edits go on from the broken text)
            continue
        good = text if not rare else good
        layout = reparser.parse(source, text)
        module = layout.module
        assert (
            module.code == expected.code
        )  # (libcst drops a line that is only a `\\`: not always `text`)
        assert module.deep_equals(expected), text
        assert (module.default_indent, module.default_newline, module.has_trailing_newline) == (
            expected.default_indent,
            expected.default_newline,
            expected.has_trailing_newline,
        )
        full = _full_spans(expected, SourceText(text)) if expected.code == text else {}
        for ours, theirs in zip(_preorder(module)[1:], _preorder(expected)[1:]):
            if theirs in full:
                assert layout.span(ours) == full[theirs]
        compared += 1
        if previous is not None and any(a is b for a, b in zip(previous.body, module.body)):
            reused += 1
        previous = module
        text = good  # a rare edit is undone
    assert compared >= 10
    assert reused >= 5  # edits really were re-parsed in part, and compared


def test_a_full_parse_has_the_positions_of_libcst():
    text = (Path(__file__).parents[1] / "seedlint" / "linter.py").read_text()
    layout = parse(text)
    full = _full_spans(cst.parse_module(text), SourceText(text))
    pairs = list(zip(_preorder(layout.module)[1:], _preorder(cst.parse_module(text))[1:]))
    assert len(pairs) > 1000
    assert all(layout.span(ours) == full[theirs] for ours, theirs in pairs if theirs in full)
    assert layout.span(layout.module) == (0, len(text))


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_the_unchecked_parse_builds_libcst_s_tree(source: Path):
    text = source.read_text()
    tree = syntax_tree(text)
    assert tree.deep_equals(cst.parse_module(text))
    assert tree.code == text


def test_nodes_built_after_a_parse_are_checked_again():
    syntax_tree("x = 1\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("not a name")  # libcst's own check, back in place
    with pytest.raises(cst.ParserSyntaxError):
        syntax_tree("x = (\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("")  # and after a parse that failed


def _same_module(module: cst.Module, expected: cst.Module) -> bool:
    return module.deep_equals(expected) and (
        module.code,
        module.default_indent,
        module.default_newline,
        module.has_trailing_newline,
    ) == (
        expected.code,
        expected.default_indent,
        expected.default_newline,
        expected.has_trailing_newline,
    )


@pytest.mark.parametrize("source", SOURCES, ids=lambda path: path.name)
def test_a_long_text_parsed_in_pieces_is_the_full_parse(source: Path, monkeypatch):
    monkeypatch.setattr(parsing, "_PIECE", 200)  # these files' statements, cut into many pieces
    rng = random.Random(source.name)
    text = source.read_text()
    with parsing._PARSING:
        assert parsing._in_pieces(text) is not None  # it really was cut
    compared, good = 0, text
    for _ in range(40):
        try:
            expected = cst.parse_module(text)
        except cst.ParserSyntaxError:
            with pytest.raises(cst.ParserSyntaxError):
                syntax_tree(text)
            text = good  # edits go on from the last text that parsed
        else:
            assert _same_module(syntax_tree(text), expected), text
            compared, good = compared + 1, text
        text = _edit(text, rng)[0]
    assert compared >= 10


@pytest.mark.parametrize(
    "between",
    [
        '"""\n\nx = 1\n"""\n',  # a string whose lines look like statements
        "y = (\n    1,\n\nz)\n",  # brackets around a blank line
        "@decorator\n\ndef decorated():\n    pass\n",  # a decorator, a blank line, its function
        "if flag:\n    pass\n\nelse:\n    pass\n",
        "def f():\n    pass\n    # the block's last comment\n\n# the next statement's\nw = 2\n",
        "class Tabbed:\n\tpass\n",  # another indentation than the rest of the module's
    ],
)
def test_a_cut_where_pieces_would_differ_gives_the_full_parse(between: str, monkeypatch):
    monkeypatch.setattr(parsing, "_PIECE", 200)
    filler = "".join(f"\ndef f{n}():\n    return {n}\n" for n in range(30))
    text = filler + "\n" + between + filler
    assert _same_module(syntax_tree(text), cst.parse_module(text))


def test_freed_memory_is_given_back_only_where_the_c_library_can(monkeypatch):
    parsing._malloc_trim.cache_clear()
    monkeypatch.setattr(parsing.sys, "platform", "win32")
    assert parsing._malloc_trim() is None
    parsing._release_freed_memory()  # nothing to call: no error
    parsing._malloc_trim.cache_clear()
