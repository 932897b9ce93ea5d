"""seedlint on 60 real research repositories side by side, with ruff: the shape of a research
monorepo (many script folders, each its own import root, notebooks beside them).

    python benchmarks/repositories.py --mirrors DIR [--rounds 2] [--jobs N] [--baseline DIR]
    python benchmarks/repositories.py [--rounds 2]        (clones each from GitHub)

It builds the tree from `repositories.txt` (owner/name and commit): each repository's commit is
exported to `tree/<owner>+<name>/`, its Python files, notebooks and the files that say what is
ignored or configured (`.gitignore`, `pyproject.toml`, `setup.cfg`, `seedlint.toml`), from
`--mirrors DIR` (git directories at `DIR/<owner>+<name>/repo`, as the tool library's `fetch` leaves
them) or else fetched from GitHub. Then it runs, side by side in one run, the runs a user meets
(`common.user_runs`: the first run over the tree from an empty cache, the second and a third, one
file from the root the first time after them and again) and ruff (`ruff check --isolated --select
ALL --no-cache .`, the reference), round after round, and checks that the cache changes no finding.
`--baseline DIR` runs each seedlint case with another checkout's code too (as in torch_tree.py).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

from common import (
    arguments,
    environments,
    seedlint_command,
    side_by_side,
)

LIST = Path(__file__).with_name("repositories.txt")
ONE_FILE = Path("share020+dl/assignments/mp6/src/part-1/src/main.py")
_KEPT_SUFFIXES = (".py", ".ipynb")
_KEPT_NAMES = {".gitignore", "pyproject.toml", "setup.cfg", "seedlint.toml", ".seedlint.toml"}


def repositories() -> list[tuple[str, str]]:
    """(owner/name, commit) of each listed repository."""
    lines = LIST.read_text().splitlines()
    return [tuple(line.split()) for line in lines if line.strip() and not line.startswith("#")]


def export(git_dir: Path, commit: str, destination: Path) -> int:
    """Write the kept files of a commit to `destination`; how many (blobs absent from a partial
    copy are skipped)."""
    listing = subprocess.run(
        ["git", "--git-dir", str(git_dir), "ls-tree", "-r", "-z", commit],
        capture_output=True,
        check=True,
    ).stdout
    wanted = []
    for record in filter(None, listing.split(b"\0")):
        meta, name = record.split(b"\t", 1)
        mode, kind, blob = meta.split()
        path = name.decode("utf-8", "surrogateescape")
        base = os.path.basename(path)
        if (
            kind == b"blob"
            and mode != b"120000"
            and (base.endswith(_KEPT_SUFFIXES) or base in _KEPT_NAMES)
        ):
            wanted.append((blob, path))
    reader = subprocess.Popen(
        ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    written = 0
    for blob, path in wanted:
        reader.stdin.write(blob + b"\n")
        reader.stdin.flush()
        header = reader.stdout.readline().split()
        if len(header) < 3 or header[1] == b"missing":
            continue
        data = reader.stdout.read(int(header[2]))
        reader.stdout.read(1)
        target = destination / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        written += 1
    reader.stdin.close()
    reader.wait()
    return written


def git_dir_of(repository: str, commit: str, mirrors: Path | None, scratch: Path) -> Path:
    """The git directory holding the commit: the mirror's, or a shallow fetch from GitHub."""
    if mirrors is not None:
        found = mirrors / repository.replace("/", "+") / "repo"
        return found / ".git" if (found / ".git").is_dir() else found
    clone = scratch / repository.replace("/", "+")
    subprocess.run(["git", "init", "-q", "--bare", str(clone)], check=True)
    subprocess.run(
        ["git", "--git-dir", str(clone), "fetch", "-q", "--depth", "1",
         f"https://github.com/{repository}", commit],
        check=True,
    )  # fmt: skip
    return clone


def build(tree: Path, mirrors: Path | None, scratch: Path) -> tuple[int, int, int]:
    """The tree of the listed repositories; (repositories, Python files, notebooks)."""
    listed = repositories()
    for repository, commit in listed:
        export(
            git_dir_of(repository, commit, mirrors, scratch),
            commit,
            tree / repository.replace("/", "+"),
        )
    python = sum(1 for _ in tree.rglob("*.py"))
    notebooks = sum(1 for _ in tree.rglob("*.ipynb"))
    return len(listed), python, notebooks


def main() -> None:
    parser = arguments(__doc__, rounds=2)
    parser.add_argument("--mirrors", type=Path, help="git directories of the repositories")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="seedlint-repositories-") as temporary:
        tree = Path(temporary) / "tree"
        count, python, notebooks = build(tree, args.mirrors, Path(temporary) / "clones")
        envs = environments(Path(temporary) / "cache", args.baseline)
        seedlint = seedlint_command(args.jobs)
        side_by_side(
            f"{count} repositories side by side: {python:,} Python files, {notebooks:,} notebooks",
            tree,
            ["."],
            ONE_FILE,
            envs,
            seedlint,
            args.rounds,
            ruff_options=("--isolated",),
        )


if __name__ == "__main__":
    main()
