"""`seedlint lsp` end to end: the server as a subprocess over stdio, driven by pytest-lsp's client,
once as a push-only client (Neovim 0.9's capabilities) and once as a pull client (Neovim 0.11's)."""

from __future__ import annotations

import asyncio
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("pytest_lsp")

import pytest_lsp  # noqa: E402
from lsprotocol import types  # noqa: E402
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities  # noqa: E402

TRAIN = "import torch\n\ntorch.cuda.manual_seed_all(0)\nmodel = torch.nn.Linear(2, 2)\n"
CLEAN = "import torch\n\ntorch.manual_seed(0)\nmodel = torch.nn.Linear(2, 2)\n"
HELPER_USE = "import torch\nfrom utils import init_rng\n\nx = torch.randn(3)\ninit_rng(0)\n"
UTILS = "import torch\n\n\ndef init_rng(seed):\n    torch.manual_seed(seed)\n"
PROFILES = {"push": "neovim@v0.9.1", "pull": "neovim@v0.11.0"}


@pytest_lsp.fixture(
    params=list(PROFILES),
    config=ClientServerConfig(server_command=[sys.executable, "-m", "seedlint", "lsp"]),
)
async def client(lsp_client: LanguageClient, request, tmp_path):
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "helper_use.py").write_text(HELPER_USE)
    lsp_client.mode = request.param
    lsp_client.root = tmp_path
    lsp_client.versions = {}
    lsp_client.texts = {}
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities(PROFILES[request.param]),
            root_uri=tmp_path.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=tmp_path.as_uri(), name="project")],
            initialization_options={},
        )
    )
    lsp_client.encoding = result.capabilities.position_encoding or "utf-16"
    yield
    await lsp_client.shutdown_session()


# ------------------------------------------------------------------ helpers
def uri_of(client: LanguageClient, name: str) -> str:
    return (client.root / name).as_uri()


def open_document(client: LanguageClient, name: str, text: str) -> str:
    uri = uri_of(client, name)
    client.versions[uri], client.texts[uri] = 1, text
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )
    return uri


def change_document(client: LanguageClient, uri: str, text: str) -> None:
    client.versions[uri] += 1
    client.texts[uri] = text
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(
                uri=uri, version=client.versions[uri]
            ),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def diagnostics(
    client: LanguageClient, uri: str, expect=lambda found: True, timeout: float = 20.0
):
    """The document's diagnostics once `expect` holds of them (pulled, or waited for as pushed)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        if client.mode == "pull":
            report = await client.text_document_diagnostic_async(
                types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )
            found = report.items
        else:
            found = client.diagnostics.get(uri)
        if found is not None and expect(list(found)):
            return list(found)
        remaining = deadline - asyncio.get_running_loop().time()
        if remaining <= 0:
            raise AssertionError(f"diagnostics of {uri} never matched: {found}")
        if client.mode == "pull":
            await asyncio.sleep(0.05)
        else:
            try:
                await asyncio.wait_for(
                    client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS), remaining
                )
            except asyncio.TimeoutError:
                pass


def codes(found) -> list[str]:
    return [d.code for d in found]


def units(text: str, encoding: str) -> int:
    """The length of `text` in the client's position units."""
    if encoding == "utf-8":
        return len(text.encode("utf-8"))
    if encoding == "utf-32":
        return len(text)
    return len(text.encode("utf-16-le")) // 2


def offset(text: str, position: types.Position, encoding: str) -> int:
    lines = text.splitlines(keepends=True) + [""]
    start = sum(len(line) for line in lines[: position.line])
    line, count, column = lines[position.line], 0, 0
    while count < position.character and column < len(line):
        count += units(line[column], encoding)
        column += 1
    return start + column


def apply(text: str, edits: list[types.TextEdit], encoding: str) -> str:
    spans = sorted(
        (
            (offset(text, e.range.start, encoding), offset(text, e.range.end, encoding), e.new_text)
            for e in edits
        ),
        reverse=True,
    )
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


def apply_action(client: LanguageClient, uri: str, action: types.CodeAction) -> str:
    (change,) = action.edit.document_changes
    assert change.text_document.uri == uri and change.text_document.version == client.versions[uri]
    return apply(client.texts[uri], change.edits, client.encoding)


async def actions(client: LanguageClient, uri: str, found, only=None) -> list[types.CodeAction]:
    whole = types.Range(
        types.Position(0, 0), types.Position(len(client.texts[uri].splitlines()) + 1, 0)
    )
    return await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=whole,
            context=types.CodeActionContext(diagnostics=list(found), only=only),
        )
    )


# ------------------------------------------------------------------ tests
@pytest.mark.asyncio
async def test_diagnostics_after_open_carry_code_link_range_and_fix(client: LanguageClient):
    uri = open_document(client, "train.py", TRAIN)
    (found,) = await diagnostics(client, uri, lambda found: found)
    assert found.code == "SL101" and found.source == "seedlint"
    assert found.code_description.href.endswith("/SL101.md")
    assert (found.range.start.line, found.range.start.character) == (2, 0)
    assert found.range.end == types.Position(2, len("torch.cuda.manual_seed_all(0)"))
    assert found.data["fix"]["applicability"] == "safe" and found.data["fix"]["edits"]


@pytest.mark.asyncio
async def test_an_edit_introduces_then_removes_a_finding(client: LanguageClient):
    uri = open_document(client, "train.py", CLEAN)
    assert await diagnostics(client, uri, lambda found: found == []) == []
    change_document(client, uri, TRAIN)
    assert codes(await diagnostics(client, uri, lambda found: found != [])) == ["SL101"]
    change_document(client, uri, CLEAN)
    assert await diagnostics(client, uri, lambda found: found == []) == []


@pytest.mark.asyncio
async def test_quick_fix_noqa_and_fix_all_give_clean_documents(client: LanguageClient):
    uri = open_document(client, "train.py", TRAIN)
    for pick, expected_line in (
        (
            lambda a: a.kind == types.CodeActionKind.QuickFix and a.is_preferred,
            "torch.manual_seed(0)",
        ),
        (lambda a: a.title == "Disable SL101 for this line", "# noqa: SL101"),
        (lambda a: a.kind == "source.fixAll.seedlint", "torch.manual_seed(0)"),
    ):
        found = await diagnostics(client, uri, lambda found: found)
        (action,) = [a for a in await actions(client, uri, found) if pick(a)]
        fixed = apply_action(client, uri, action)
        assert expected_line in fixed
        change_document(client, uri, fixed)
        assert await diagnostics(client, uri, lambda found: found == []) == []
        change_document(client, uri, TRAIN)
    found = await diagnostics(client, uri, lambda found: found)
    only = await actions(client, uri, found, only=["source.fixAll.seedlint"])
    assert [a.kind for a in only] == ["source.fixAll.seedlint"]


@pytest.mark.asyncio
async def test_hover_shows_the_rule_page(client: LanguageClient):
    text = TRAIN + "y = 1  # noqa: SL104\n"
    uri = open_document(client, "train.py", text)
    await diagnostics(client, uri, lambda found: found)

    async def hover(line: int, character: int):
        return await client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line, character),
            )
        )

    on_finding = await hover(2, 5)
    assert on_finding.contents.value.startswith("# SL101")
    on_noqa = await hover(4, text.splitlines()[4].index("SL104") + 2)
    assert on_noqa.contents.value.startswith("# SL104")
    assert await hover(1, 0) is None


@pytest.mark.asyncio
async def test_close_clears_and_syntax_errors_give_one_diagnostic(client: LanguageClient):
    uri = open_document(client, "broken.py", "import torch\ndef f(:\n    torch.manual_seed(0)\n")
    found = await diagnostics(client, uri, lambda found: found)
    assert codes(found) == ["SL000"] and found[0].range.start.line == 1
    other = open_document(client, "train.py", TRAIN)
    assert codes(await diagnostics(client, other, lambda found: found)) == [
        "SL101"
    ]  # the server is alive
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=other))
    )
    if client.mode == "push":
        assert await diagnostics(client, other, lambda found: found == []) == []


@pytest.mark.asyncio
async def test_columns_on_a_non_ascii_line_are_in_the_client_encoding(client: LanguageClient):
    prefix = 'label = "naïve 😀 émoji"; '
    uri = open_document(
        client, "train.py", f"import torch\n\n{prefix}torch.cuda.manual_seed_all(0)\n"
    )
    (found,) = await diagnostics(client, uri, lambda found: found)
    assert found.range.start == types.Position(2, units(prefix, client.encoding))
    assert found.range.end.character == units(
        prefix + "torch.cuda.manual_seed_all(0)", client.encoding
    )
    (fix,) = [a for a in await actions(client, uri, [found]) if a.is_preferred]
    fixed = apply_action(client, uri, fix)
    assert "torch.manual_seed(0)" in fixed and prefix in fixed


@pytest.mark.asyncio
async def test_an_edit_of_a_helper_in_another_file_rechecks_its_caller(client: LanguageClient):
    caller = open_document(client, "helper_use.py", HELPER_USE)
    assert codes(await diagnostics(client, caller, lambda found: found)) == ["SL104"]
    helper = open_document(client, "utils.py", UTILS)
    change_document(
        client, helper, "import torch\n\n\ndef init_rng(seed):\n    pass\n"
    )  # unsaved: no seeding
    assert await diagnostics(client, caller, lambda found: found == []) == []
    change_document(client, helper, UTILS)
    assert codes(await diagnostics(client, caller, lambda found: found)) == ["SL104"]


@pytest.mark.asyncio
async def test_an_edit_of_a_caller_rechecks_the_method_it_runs(client: LanguageClient):
    """Issue 25: `Runner.train` is judged where `main.py` runs it, from the buffer as it stands."""
    from test_program_context import MAIN, RUNNER

    main_text, runner_text = textwrap.dedent(MAIN), textwrap.dedent(RUNNER)
    (client.root / "main.py").write_text(main_text)
    runner = open_document(client, "runner.py", runner_text)
    assert await diagnostics(client, runner, lambda found: found == []) == []
    caller = open_document(client, "main.py", main_text)
    change_document(client, caller, main_text.replace("    np.random.seed(0)\n", ""))
    assert codes(await diagnostics(client, runner, lambda found: found)) == ["SL105"]
    change_document(client, caller, main_text)
    assert await diagnostics(client, runner, lambda found: found == []) == []


@pytest.mark.asyncio
async def test_an_edit_of_a_training_program_rechecks_the_model_it_trains(client: LanguageClient):
    """Issue 25: a model module is in SL303's scope through the seeded CUDA program of the
    workspace that trains it, from the program's buffer as it stands."""
    from test_program_context import LAYERS, NET, TRAIN

    train_text = textwrap.dedent(TRAIN)
    for name, text in (
        ("train.py", train_text),
        ("models/__init__.py", ""),
        ("models/layers.py", LAYERS),
        ("models/net.py", NET),
    ):
        (client.root / name).parent.mkdir(exist_ok=True)
        (client.root / name).write_text(textwrap.dedent(text))
    model = open_document(client, "models/net.py", textwrap.dedent(NET))
    assert codes(await diagnostics(client, model, lambda found: found)) == ["SL303"]
    program = open_document(client, "train.py", train_text)
    deterministic = "main():\n    torch.use_deterministic_algorithms(True)\n"
    change_document(client, program, train_text.replace("main():\n", deterministic))
    assert await diagnostics(client, model, lambda found: found == []) == []


@pytest.mark.asyncio
async def test_rapid_edits_end_with_the_last_texts_diagnostics(client: LanguageClient):
    uri = open_document(client, "train.py", CLEAN)
    for number in range(200):
        change_document(client, uri, TRAIN if number % 2 else CLEAN + f"# edit {number}\n")
    found = await diagnostics(client, uri, lambda found: codes(found) == ["SL101"], timeout=30)
    assert found[0].range.start.line == 2
    change_document(client, uri, CLEAN)
    assert await diagnostics(client, uri, lambda found: found == []) == []


@pytest.mark.asyncio
async def test_typing_fast_shows_only_the_newest_versions_findings(client: LanguageClient):
    """Edits typed 20 ms apart into a 2,000-line script, each moving the finding down a line: the
    server analyses at once, no result for a version already replaced is published, and the last
    version's findings come."""
    if client.mode == "pull":
        pytest.skip("a pull client asks for the version it has: pushes are what can be stale")
    filler = "".join(f"def step_{n}(x):\n    return x + {n}\n\n" for n in range(660))

    def text(blank_lines: int) -> str:
        return "import torch\n" + "\n" * blank_lines + TRAIN.partition("\n")[2] + filler

    uri = open_document(client, "train.py", text(1))
    await diagnostics(client, uri, lambda found: [d.range.start.line for d in found] == [3])
    published = []
    shown = client.diagnostics

    class Recorded(dict):
        def __setitem__(self, key, value):
            published.append([d.range.start.line for d in value])
            super().__setitem__(key, value)

    client.diagnostics = Recorded(shown)
    for blank_lines in range(2, 22):
        change_document(client, uri, text(blank_lines))
        await asyncio.sleep(0.02)
    await diagnostics(client, uri, lambda found: [d.range.start.line for d in found] == [23])
    assert published == [[23]]


def server_memory_kib(client: LanguageClient) -> int:
    """The server process's resident memory (Linux)."""
    status = Path(f"/proc/{client._server.pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS:")))


@pytest.mark.asyncio
@pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="reads the server's memory from /proc"
)
async def test_analysed_edits_do_not_grow_the_server(client: LanguageClient):
    if client.mode == "pull":
        pytest.skip(
            "what the server keeps does not depend on how diagnostics travel: checked once, by push"
        )
    steps = "".join(
        f"\n\ndef step_{n}(model, batch):\n    return model(batch).sum()\n" for n in range(60)
    )
    uri = open_document(client, "train.py", CLEAN + steps)
    memory = []
    for number in range(120):
        # Every edit is analysed (its findings awaited) and changes the tree in the middle of the script.
        middle = steps.replace("step_30(", f"step_30_{number}(")
        change_document(client, uri, (TRAIN if number % 2 else CLEAN) + middle)
        await diagnostics(
            client, uri, lambda found, odd=number % 2: codes(found) == (["SL101"] if odd else [])
        )
        if number in (29, 119):
            memory.append(server_memory_kib(client))
    assert memory[1] - memory[0] < 8 * 1024, (
        memory
    )  # what 90 more edits add: none of them kept (a leak: 100s of MB)


@pytest.mark.asyncio
async def test_settings_select_and_ignore(client: LanguageClient):
    uri = open_document(client, "train.py", TRAIN)
    await diagnostics(client, uri, lambda found: found)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"seedlint": {"ignore": ["SL101"]}})
    )
    assert await diagnostics(client, uri, lambda found: found == []) == []
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"seedlint": {"ignore": []}})
    )
    assert codes(await diagnostics(client, uri, lambda found: found)) == ["SL101"]


@pytest.mark.asyncio
async def test_settings_extend_select_and_a_configuration_file(client: LanguageClient):
    # what an editor's `seedlint.extendSelect` and `seedlint.configuration` settings send
    uri = open_document(client, "train.py", TRAIN)
    await diagnostics(client, uri, lambda found: found)

    def configure(**settings: object) -> None:
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings={"seedlint": settings})
        )

    configure(select=["SL102"])
    assert await diagnostics(client, uri, lambda found: found == []) == []
    configure(select=["SL102"], extendSelect=["SL101"])
    assert codes(await diagnostics(client, uri, lambda found: found)) == ["SL101"]
    elsewhere = client.root / "settings" / "strict.toml"
    elsewhere.parent.mkdir()
    elsewhere.write_text('ignore = ["SL101"]\n')
    configure(select=None, extendSelect=[], configuration=str(elsewhere))
    assert await diagnostics(client, uri, lambda found: found == []) == []
    elsewhere.write_text("ignore = []\n")  # edited: read again
    change_document(client, uri, TRAIN + "\n")
    assert codes(await diagnostics(client, uri, lambda found: found)) == ["SL101"]


def test_malformed_input_gets_errors_and_exit_leaves_no_process(tmp_path: Path):
    """Raw JSON-RPC on the server's stdin: what no well-behaved client sends."""
    import json
    import subprocess

    server = subprocess.Popen(
        [sys.executable, "-m", "seedlint", "lsp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )

    def send(message: str | bytes) -> None:
        body = message.encode() if isinstance(message, str) else message
        server.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        server.stdin.flush()

    def response(request_id: int) -> dict:
        while True:
            length = 0
            while line := server.stdout.readline().strip():
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(server.stdout.read(length))
            if message.get("id") == request_id and "method" not in message:
                return message

    uri = (tmp_path / "gone.py").as_uri()
    send(
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"processId":null,"rootUri":null}}'
    )
    assert "capabilities" in response(1)["result"]
    send('{"jsonrpc":"2.0","method":"initialized","params":{}}')
    send('{"jsonrpc":"2.0","id":2,"method":"seedlint/unknown","params":{}}')
    assert response(2)["error"]["code"] == -32601  # method not found
    send(
        '{"jsonrpc":"2.0","id":3,"method":"textDocument/hover","params":{"bogus":1}}'
    )  # pygls: an error message
    send(b'{"jsonrpc":"2.0","id":4,"method":')  # not JSON at all
    hover = {"textDocument": {"uri": uri}, "position": {"line": 0, "character": 0}}
    send(json.dumps({"jsonrpc": "2.0", "id": 5, "method": "textDocument/hover", "params": hover}))
    assert response(5).get("result") is None  # a document never opened: no hover, no crash
    send(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {
                        "uri": uri,
                        "languageId": "python",
                        "version": 1,
                        "text": TRAIN,
                    }
                },
            }
        )
    )
    send(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didClose",
                "params": {"textDocument": {"uri": uri}},
            }
        )
    )
    send(
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 6,
                "method": "textDocument/codeAction",
                "params": {
                    **hover,
                    "range": {"start": hover["position"], "end": hover["position"]},
                    "context": {"diagnostics": []},
                },
            }
        )
    )
    assert response(6).get("result") in (None, [])
    send('{"jsonrpc":"2.0","id":7,"method":"shutdown"}')
    response(7)
    send('{"jsonrpc":"2.0","method":"exit"}')
    assert server.wait(timeout=20) == 0
    assert b"Traceback" not in server.stderr.read()


def test_a_buffer_sees_the_seeding_helper_of_a_package_it_imports(tmp_path: Path):
    """One file at a time (the server's case): the helpers of the project modules it imports are gates too."""
    from seedlint.analysis.modules import ModuleFinder
    from seedlint.runner import CheckOptions, Runner

    (tmp_path / "proj" / "utils").mkdir(parents=True)
    (tmp_path / "proj" / "__init__.py").write_text("")
    (tmp_path / "proj" / "utils" / "__init__.py").write_text("")
    (tmp_path / "proj" / "utils" / "seeding.py").write_text(
        UTILS.replace("init_rng", "set_all_seeds")
    )
    script = tmp_path / "train.py"
    draws_first = b"import torch\nfrom proj.utils.seeding import set_all_seeds\n\nx = torch.rand(1)\nset_all_seeds(0)\n"
    runner = Runner(CheckOptions(paths=[], cache=False))
    found = runner.lint_buffer(
        script, draws_first, ModuleFinder.for_files([script], {}, [tmp_path])
    )
    assert [d.code for d in found.diagnostics] == ["SL104"]
    seeds_first = draws_first.replace(
        b"x = torch.rand(1)\nset_all_seeds(0)", b"set_all_seeds(0)\nx = torch.rand(1)"
    )
    assert (
        runner.lint_buffer(
            script, seeds_first, ModuleFinder.for_files([script], {}, [tmp_path])
        ).diagnostics
        == []
    )


def test_an_edited_buffer_is_parsed_again_only_where_the_edit_is(tmp_path: Path, monkeypatch):
    """Edit after edit, a buffer's statements the edit did not touch are neither parsed nor laid
    out again, and its findings are those of a run over the file."""
    from seedlint import parsing
    from seedlint.analysis.modules import ModuleFinder
    from seedlint.runner import CheckOptions, Runner

    script = tmp_path / "train.py"
    steps = "".join(f"def step_{n}(x):\n    return x + {n}\n\n\n" for n in range(50))
    runner = Runner(CheckOptions(paths=[], cache=False))
    parsed, laid_out = [], []
    monkeypatch.setattr(
        parsing,
        "syntax_tree",
        lambda text, parse=parsing.syntax_tree: parsed.append(text) or parse(text),
    )
    monkeypatch.setattr(
        parsing,
        "_piece",
        lambda node, defaults, piece=parsing._piece: laid_out.append(node) or piece(node, defaults),
    )
    for draw in ("", "x = torch.rand(1)\n", "y = torch.rand(2)\n"):
        text = f"import torch\n\n{steps}{draw}torch.manual_seed(0)\n{steps}"
        parsed.clear(), laid_out.clear()
        found = runner.lint_buffer(
            script, text.encode(), ModuleFinder.for_files([script], {}, [tmp_path])
        )
        work = list(parsed), len(laid_out)
        script.write_text(text)
        checked = Runner(CheckOptions(paths=[script], cache=False)).run().diagnostics
        assert [(d.code, d.start.row) for d in found.diagnostics] == [
            (d.code, d.start.row) for d in checked
        ]
    # the last edit: the statements around it, not the 100 functions
    (chunk,), pieces = work
    assert chunk.count("def ") <= 2 and 0 < pieces < 10


@pytest.mark.asyncio
async def test_a_notebook_s_cells_sent_as_one_python_text_are_linted_as_python(
    client: LanguageClient,
):
    # jupyterlab-lsp sends a notebook as a text document of its cells, named like the notebook
    text = "import torch\n\n\n\nx = torch.randn(3)\ntorch.manual_seed(0)\nprint(torch.nn.Linear(3, 1)(x))\n"
    uri = open_document(client, "lecture.ipynb", text)
    (found,) = await diagnostics(client, uri, lambda found: found)
    assert (found.code, found.range.start.line) == ("SL104", 4)


@pytest.mark.asyncio
async def test_a_jupyterlab_notebook_in_a_subfolder_gets_the_configuration_beside_it(
    client: LanguageClient,
):
    # jupyterlab-lsp names a notebook's text after it, under the root's .virtual_documents: the
    # configuration beside the notebook (SL104 ignored in sub/) applies, not the root's
    (client.root / "sub").mkdir()
    (client.root / "sub" / "pyproject.toml").write_text('[tool.seedlint]\nignore = ["SL104"]\n')
    text = "import random\n\nimport torch\n\nrandom.seed()\nx = torch.randn(3)\ntorch.manual_seed(0)\nprint(torch.nn.Linear(3, 1)(x))\n"
    virtual = open_document(client, ".virtual_documents/sub/lecture.ipynb", text)
    beside_the_root = open_document(client, ".virtual_documents/lecture.ipynb", text)
    assert codes(await diagnostics(client, virtual, lambda found: found)) == ["SL106"]
    found = await diagnostics(client, beside_the_root, lambda found: len(found) == 2)
    assert sorted(codes(found)) == ["SL104", "SL106"]


# ------------------------------------------------------------------ notebooks (LSP 3.17 notebook sync)
NOTEBOOK_CELLS = [
    (types.NotebookCellKind.Markup, "# Training\n"),
    (types.NotebookCellKind.Code, "%matplotlib inline\nimport torch\nx = torch.randn(3)"),
    (types.NotebookCellKind.Code, "torch.manual_seed(0)"),
    (types.NotebookCellKind.Code, "model = torch.nn.Linear(3, 1)\nmodel(x).sum().backward()"),
]


def open_notebook(client: LanguageClient, name: str, cells) -> tuple[str, list[str]]:
    uri = uri_of(client, name)
    cell_uris = [
        f"vscode-notebook-cell:{client.root / name}#cell{number}" for number in range(len(cells))
    ]
    for cell_uri, (_, text) in zip(cell_uris, cells):
        client.versions[cell_uri], client.texts[cell_uri] = 1, text
    client.versions[uri] = 1
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[
                    types.NotebookCell(kind=kind, document=cell_uri)
                    for cell_uri, (kind, _) in zip(cell_uris, cells)
                ],
            ),
            cell_text_documents=[
                types.TextDocumentItem(
                    uri=cell_uri,
                    language_id="markdown" if kind == types.NotebookCellKind.Markup else "python",
                    version=1,
                    text=text,
                )
                for cell_uri, (kind, text) in zip(cell_uris, cells)
            ],
        )
    )
    return uri, cell_uris


def change_cells(client: LanguageClient, uri: str, texts: dict[str, str]) -> None:
    client.versions[uri] += 1
    changes = []
    for cell_uri, text in texts.items():
        client.versions[cell_uri] += 1
        client.texts[cell_uri] = text
        changes.append(
            types.NotebookDocumentCellContentChanges(
                document=types.VersionedTextDocumentIdentifier(
                    uri=cell_uri, version=client.versions[cell_uri]
                ),
                changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
    client.notebook_document_did_change(
        types.DidChangeNotebookDocumentParams(
            notebook_document=types.VersionedNotebookDocumentIdentifier(
                uri=uri, version=client.versions[uri]
            ),
            change=types.NotebookDocumentChangeEvent(
                cells=types.NotebookDocumentCellChanges(text_content=changes)
            ),
        )
    )


def apply_cell_edits(client: LanguageClient, action: types.CodeAction) -> dict[str, str]:
    """The new text of each cell the action edits (each edit against the cell's current version)."""
    texts = {}
    for change in action.edit.document_changes:
        cell_uri = change.text_document.uri
        assert change.text_document.version == client.versions[cell_uri]
        texts[cell_uri] = apply(client.texts[cell_uri], change.edits, client.encoding)
    return texts


@pytest.mark.asyncio
async def test_a_notebook_gets_diagnostics_per_cell_and_fixes_across_cells(client: LanguageClient):
    uri, cells = open_notebook(client, "train.ipynb", NOTEBOOK_CELLS)
    (found,) = await diagnostics(client, cells[1], lambda found: found)
    assert (
        found.code == "SL104"
    )  # the draw in the second code cell, before the seed in the next one
    assert (found.range.start.line, found.range.start.character) == (
        2,
        4,
    )  # rows are the cell's; magics are fine
    assert await diagnostics(client, cells[2]) == [] and await diagnostics(client, cells[3]) == []

    # The quick fix moves the seeding call from its cell to above the draw: one edit in each cell.
    (fix,) = [
        a
        for a in await actions(client, cells[1], [found])
        if a.kind == types.CodeActionKind.QuickFix and a.title.startswith("SL104")
    ]
    fixed = apply_cell_edits(client, fix)
    assert set(fixed) == {cells[1], cells[2]}
    assert (
        fixed[cells[1]]
        == "%matplotlib inline\nimport torch\ntorch.manual_seed(0)\nx = torch.randn(3)"
    )
    assert fixed[cells[2]] == ""
    change_cells(client, uri, fixed)
    assert await diagnostics(client, cells[1], lambda found: found == []) == []

    # An edit that brings the draw back before the seed brings the finding back, on the cell's line.
    change_cells(
        client,
        uri,
        {cells[1]: "import torch\nx = torch.randn(3)", cells[2]: "torch.manual_seed(0)"},
    )
    (found,) = await diagnostics(client, cells[1], lambda found: found)
    assert found.range.start.line == 1

    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=cells[1]), position=types.Position(1, 6)
        )
    )
    assert "SL104" in hover.contents.value

    (noqa,) = [
        a
        for a in await actions(client, cells[1], [found])
        if a.title == "Disable SL104 for this line"
    ]
    assert apply_cell_edits(client, noqa) == {
        cells[1]: "import torch\nx = torch.randn(3)  # noqa: SL104"
    }


@pytest.mark.asyncio
async def test_fix_all_of_a_notebook_and_close_clears_its_cells(client: LanguageClient):
    broken = [
        (types.NotebookCellKind.Code, "import torch\ntorch.cuda.manual_seed_all(0)"),
        (types.NotebookCellKind.Markup, "Next: the cuDNN flags\n"),
        (types.NotebookCellKind.Code, "torch.backends.cudnn.determinstic = True\n"),
    ]
    uri, cells = open_notebook(client, "nb.ipynb", broken)
    found = await diagnostics(client, cells[0], lambda found: found)
    assert codes(found) == ["SL101"] and codes(
        await diagnostics(client, cells[2], lambda found: found)
    ) == ["SL302"]
    (fix_all,) = await actions(client, cells[0], found, only=["source.fixAll.seedlint"])
    fixed = apply_cell_edits(client, fix_all)  # both cells' safe fixes, whichever cell asked
    assert set(fixed) == {cells[0], cells[2]} and "determinstic" not in fixed[cells[2]]
    change_cells(client, uri, fixed)
    assert await diagnostics(client, cells[0], lambda found: found == []) == []
    assert await diagnostics(client, cells[2], lambda found: found == []) == []
    if client.mode == "push":
        change_cells(client, uri, {cells[0]: broken[0][1]})
        await diagnostics(client, cells[0], lambda found: found)
        client.notebook_document_did_close(
            types.DidCloseNotebookDocumentParams(
                notebook_document=types.NotebookDocumentIdentifier(uri=uri),
                cell_text_documents=[
                    types.TextDocumentIdentifier(uri=cell_uri) for cell_uri in cells
                ],
            )
        )
        assert await diagnostics(client, cells[0], lambda found: found == []) == []
