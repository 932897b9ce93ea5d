"""The tracer's overhead: the same program run untraced and traced by `seedlint verify`'s harness.

    python benchmarks/verify_overhead.py [SCRIPTS...] [--rounds 3]

Each script is run as `python SCRIPT` and as `python -m seedlint.verify.harness TRACE CONFIG
SCRIPT`, alternating, in fresh processes (so both include interpreter and torch start-up); it
prints the median wall time of each and their ratio. Default SCRIPTS: the rule pages' examples
that `seedlint verify` runs on CPU, plus a small training loop whose every step draws.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from seedlint.pages import page_examples
from seedlint.verify.probe import confirmable

TRAINING_LOOP = """\
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.Dropout(0.1), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(300):
    x, y = torch.randn(32, 64), torch.randint(0, 10, (32,))
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item())
"""


def timed(command: list[str], cwd: Path) -> float:
    start = time.perf_counter()
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("scripts", nargs="*", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="seedlint-bench-") as directory:
        root = Path(directory)
        scripts = [path.resolve() for path in args.scripts]
        if not scripts:
            for code in confirmable(has_cuda=False):
                path = root / f"{code.lower()}.py"
                path.write_text(page_examples(code)[0], encoding="utf-8")
                scripts.append(path)
            loop = root / "training_loop.py"
            loop.write_text(TRAINING_LOOP, encoding="utf-8")
            scripts.append(loop)
        config = root / "config.json"
        config.write_text("{}", encoding="utf-8")
        print(
            f"{'script':<22}{'untraced':>10}{'traced':>10}{'ratio':>8}   (median of {args.rounds}, "
            "seconds)"
        )
        ratios = []
        for script in scripts:
            plain, traced = [], []
            for _ in range(args.rounds):
                plain.append(timed([sys.executable, str(script)], script.parent))
                traced.append(
                    timed(
                        [
                            sys.executable,
                            "-m",
                            "seedlint.verify.harness",
                            str(root / "trace.jsonl"),
                            str(config),
                            str(script),
                        ],
                        script.parent,
                    )
                )
            ratio = statistics.median(traced) / statistics.median(plain)
            ratios.append(ratio)
            print(
                f"{script.name:<22}{statistics.median(plain):>10.2f}{statistics.median(traced):>10.2f}{ratio:>8.2f}"
            )
        print(f"median ratio traced/untraced: {statistics.median(ratios):.2f}")


if __name__ == "__main__":
    main()
