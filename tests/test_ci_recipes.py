"""docs/ci.md: every YAML parses, and every seedlint command in it is one the CLI accepts, writing
what the recipe hands on (the report file, the cache directory)."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest
import yaml
from conftest import run_cli

ROOT = Path(__file__).parents[1]
RECIPES = [
    yaml.safe_load(block)
    for block in re.findall(r"```yaml\n(.*?)```", (ROOT / "docs" / "ci.md").read_text(), re.S)
]


def _commands(recipe: dict) -> tuple[list[str], list[str]]:
    """(the commands a recipe runs, the paths it caches) for a GitHub workflow or a GitLab job."""
    if "jobs" in recipe:  # GitHub Actions
        steps = [step for job in recipe["jobs"].values() for step in job["steps"]]
        cached = [step["with"]["path"] for step in steps if "cache" in step.get("uses", "")]
        return [step["run"] for step in steps if "run" in step], cached
    jobs = [job for job in recipe.values() if isinstance(job, dict) and "script" in job]
    return [line for job in jobs for line in job["script"]], [
        path for job in jobs for path in job.get("cache", {}).get("paths", [])
    ]


def _kind(recipe: dict) -> str:
    return "github" if "jobs" in recipe else "pre-commit" if "repos" in recipe else "gitlab"


def test_the_page_holds_each_recipe():
    assert [_kind(recipe) for recipe in RECIPES] == ["github", "github", "gitlab", "pre-commit"]


@pytest.mark.parametrize("recipe", RECIPES[:3], ids=["github", "sarif", "gitlab"])
def test_each_ci_recipe_runs_commands_the_cli_accepts(tmp_path: Path, monkeypatch, recipe: dict):
    monkeypatch.delenv("SEEDLINT_CACHE_DIR", raising=False)  # the cache where a CI job finds it
    (tmp_path / "train.py").write_text("import torch\n\nx = torch.rand(3)\ntorch.manual_seed(0)\n")
    commands, cached = _commands(recipe)
    seedlint = [shlex.split(c) for c in commands if c.startswith("seedlint ")]
    assert seedlint and set(commands) - {" ".join(map(shlex.quote, c)) for c in seedlint} == {
        "pip install seedlint"
    }
    for command in seedlint:
        result = run_cli(*command[1:], cwd=tmp_path)
        expected = 0 if "--exit-zero" in command else 1  # the finding above
        assert result.returncode == expected, result.stderr
        if "--output-file" in command:
            report = json.loads(
                (tmp_path / command[command.index("--output-file") + 1]).read_text()
            )
            issues = report if isinstance(report, list) else report["runs"][0]["results"]
            assert len(issues) == 1
        else:
            assert "::error title=seedlint (SL104)" in result.stdout.decode()
    assert cached == [".seedlint_cache"] and (tmp_path / ".seedlint_cache").is_dir()


def test_the_pre_commit_recipe_uses_the_published_hook():
    recipe = RECIPES[3]
    (repo,) = recipe["repos"]
    hooks = {hook["id"] for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert {hook["id"] for hook in repo["hooks"]} <= hooks
    assert f"repo: {repo['repo']}" in (ROOT / "README.md").read_text()
    assert recipe["ci"] == {"autofix_prs": False}
