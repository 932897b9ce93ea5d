"""Latency of `seedlint lsp` as an editor meets it: from `didChange` to that edit's diagnostics.

    python benchmarks/lsp_latency.py [--edits 40] [--burst 20] [--files 300] [--lines 2000]

Builds a project of `--files` modules (models, datasets, a seeding helper in `utils/seeding.py`) and
a `--lines`-line training script that imports them, starts the server as a subprocess with the
default settings, opens the script, then:

- edits one line of it `--edits` times, each edit changing whether a finding is there (and each
  text new: none is answered from findings kept for an earlier text), waiting for each edit's
  diagnostics before the next, and times each from the `didChange` it sends to the
  `publishDiagnostics` for that version: the median, the 90th percentile and the first edit;
- types `--burst` edits 20 ms apart (a user typing fast), and times the last one's diagnostics from
  its `didChange`; it counts the versions before the last whose diagnostics were published too
  (none should be: each was replaced while it was analysed).

With `--baseline DIR` (another checkout of seedlint, such as `git worktree add DIR HEAD~1`), the
same edits are sent to that checkout's server too, the two servers alternating round after round
(`--rounds`), and both are printed side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

TYPING_INTERVAL = 0.02  # seconds between the edits of a burst


def build_project(root: Path, files: int, lines: int) -> Path:
    (root / "proj" / "models").mkdir(parents=True)
    (root / "proj" / "data").mkdir()
    (root / "proj" / "utils").mkdir()
    for package in ("proj", "proj/models", "proj/data", "proj/utils"):
        (root / package / "__init__.py").write_text("")
    (root / "proj" / "utils" / "seeding.py").write_text(
        "import random\n\nimport numpy as np\nimport torch\n\n\ndef set_all_seeds(seed):\n"
        "    random.seed(seed)\n    np.random.seed(seed)\n    torch.manual_seed(seed)\n"
    )
    for number in range(files - 5):
        kind = ("models", "data")[number % 2]
        body = (
            (
                f"import torch\nfrom torch import nn\n\n\nclass Block{number}(nn.Module):\n"
                f"    def __init__(self, width=64):\n        super().__init__()\n"
                f"        self.linear = nn.Linear(width, width)\n\n    def forward(self, x):\n"
                f"        return torch.relu(self.linear(x))\n"
            )
            if kind == "models"
            else (
                "import torch\nfrom torch.utils.data import Dataset\n\n\nclass "
                f"Set{number}(Dataset):\n    def __init__(self, size=128):\n        self.data = "
                "torch.arange(size)\n\n    def __len__(self):\n        return len(self.data)\n\n  "
                "  def __getitem__(self, i):\n        return self.data[i]\n"
            )
        )
        (root / "proj" / kind / f"m{number}.py").write_text(body)
    header = (
        "import argparse\n\nimport torch\nfrom torch.utils.data import DataLoader\n\n"
        "from proj.utils.seeding import set_all_seeds\nfrom proj.models.m0 import Block0\n"
        "from proj.data.m1 import Set1\n\n\n"
    )
    step = (
        "def step_{n}(model, batch, optimizer):\n    optimizer.zero_grad()\n"
        "    loss = model(batch.float()).pow(2).mean()\n    loss.backward()\n    optimizer.step()\n"
        "    return loss.item()\n\n\n"
    )
    main = (
        "def main():\n    parser = argparse.ArgumentParser()\n    parser.add_argument('--seed', "
        "type=int, default=0)\n    args = parser.parse_args()\n    set_all_seeds(args.seed)\n    "
        "model = Block0()\n    loader = DataLoader(Set1(), batch_size=8, shuffle=True)\n    "
        "optimizer = torch.optim.SGD(model.parameters(), lr=0.1)\n    for batch in loader:\n      "
        "  step_0(model, batch, optimizer)\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    steps, count = [], 0
    while len((header + "".join(steps) + main).splitlines()) < lines:
        steps.append(step.format(n=count))
        count += 1
    script = root / "train.py"
    script.write_text(header + "".join(steps) + main)
    return script


async def measure(
    script: Path, edits: int, burst: int, checkout: Path | None = None
) -> tuple[list[float], float, int]:
    """The latency of each edit, of the last edit of a burst, and how many of the burst's earlier
    versions were published, from a server of this seedlint (or of the one in `checkout`)."""
    client = LanguageClient("seedlint-latency", "1")
    env = None
    if checkout is not None:
        env = {
            **os.environ,
            "PYTHONPATH": os.pathsep.join([str(checkout), os.environ.get("PYTHONPATH", "")]),
        }
    # in the project (as an editor starts it): not where this checkout would shadow the baseline
    await client.start_io(sys.executable, "-m", "seedlint", "lsp", env=env, cwd=script.parent)
    arrived: dict[int, float] = {}
    done = asyncio.Event()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        if params.version is not None:
            arrived.setdefault(params.version, time.perf_counter())
            done.set()

    await client.initialize_async(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=script.parent.as_uri(),
        )
    )
    client.initialized(types.InitializedParams())
    uri, text = script.as_uri(), script.read_text()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="python", version=1, text=text
            )
        )
    )
    while 1 not in arrived:
        await asyncio.wait_for(done.wait(), 60)
        done.clear()
    seeding_line = text.splitlines().index("    set_all_seeds(args.seed)")

    def edit(version: int) -> float:
        """Send an edit; when it was sent. Odd versions draw before the seeding (an SL104
        finding), even ones do not; each text is new (no findings are known for it)."""
        replacement = (
            "    torch.rand(1); set_all_seeds(args.seed)"
            if version % 2
            else "    set_all_seeds(args.seed)"
        ) + f"  # edit {version}"
        change = types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(seeding_line, 0), types.Position(seeding_line + 1, 0)),
            text=replacement + "\n",
        )
        sent = time.perf_counter()
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[change],
            )
        )
        return sent

    async def arrival(version: int) -> float:
        while version not in arrived:
            await asyncio.wait_for(done.wait(), 60)
            done.clear()
        return arrived[version]

    timings = []
    for version in range(2, edits + 2):
        sent = edit(version)
        timings.append(await arrival(version) - sent)
    first = edits + 2
    for version in range(first, first + burst):
        sent = edit(version)
        if version < first + burst - 1:
            await asyncio.sleep(TYPING_INTERVAL)
    last = await arrival(first + burst - 1) - sent
    await asyncio.sleep(0.5)  # a stale version's diagnostics would have come by now
    stale = sum(version in arrived for version in range(first, first + burst - 1))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return timings, last, stale


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--edits", type=int, default=40)
    parser.add_argument("--burst", type=int, default=20, help="edits typed 20 ms apart")
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument(
        "--baseline", type=Path, help="another seedlint checkout, measured alternately"
    )
    parser.add_argument("--rounds", type=int, default=1, help="rounds of edits per server")
    args = parser.parse_args()
    servers: dict[str, Path | None] = {"this checkout": None}
    if args.baseline is not None:
        servers[f"baseline ({args.baseline})"] = args.baseline.resolve()
    results: dict[str, list[tuple[list[float], float, int]]] = {name: [] for name in servers}
    with tempfile.TemporaryDirectory(prefix="seedlint-lsp-bench-") as temporary:
        script = build_project(Path(temporary), args.files, args.lines)
        for _ in range(args.rounds):
            for name, checkout in servers.items():
                results[name].append(asyncio.run(measure(script, args.edits, args.burst, checkout)))
    print(
        f"{args.files}-file project, {args.lines}-line script, default settings, {args.edits} "
        f"edits one at a time and {args.burst} typed 20 ms apart, {args.rounds} round(s) per server"
    )
    for name, rounds in results.items():
        milliseconds = sorted(t * 1000 for run, _, _ in rounds for t in run)
        first = statistics.median(run[0] * 1000 for run, _, _ in rounds)
        last = statistics.median(last * 1000 for _, last, _ in rounds)
        stale = sum(stale for *_, stale in rounds)
        print(
            f"{name}: didChange -> diagnostics: median {statistics.median(milliseconds):.0f} ms, "
            f"90th percentile {milliseconds[int(len(milliseconds) * 0.9) - 1]:.0f} ms, "
            f"first edit {first:.0f} ms; typing: last edit {last:.0f} ms, "
            f"{stale} replaced version(s) published"
        )


if __name__ == "__main__":
    main()
