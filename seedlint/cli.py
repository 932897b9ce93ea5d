"""The command line: `seedlint check` and `seedlint rule`, with ruff's flags and exit codes."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import click

from seedlint import __version__
from seedlint.cache import DIRECTORY_NAME
from seedlint.cache import clean as remove_caches
from seedlint.config import ConfigError, parse_version
from seedlint.discovery import MissingPath
from seedlint.files import display_path
from seedlint.pages import page_text, page_url
from seedlint.reporters import FORMATS, render, statistics
from seedlint.reporters._common import ReportOptions
from seedlint.rules import RULES
from seedlint.runner import CheckOptions, CheckReport, Runner
from seedlint.selection import UnknownSelector, expand_all

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
TEXT_FORMATS = ("full", "concise")


def _selectors(value: str | None) -> list[str] | None:
    if value is None:
        return None
    return [part.strip() for part in value.split(",") if part.strip()]


def _fail(message: str) -> None:
    click.echo(f"seedlint: error: {message}", err=True)
    sys.exit(EXIT_ERROR)


def _use_color(choice: str, to_file: bool) -> bool:
    if choice == "always":
        return True
    if choice == "never" or to_file or os.environ.get("NO_COLOR"):
        return False
    return sys.stdout.isatty() or bool(os.environ.get("FORCE_COLOR"))


def _plural(count: int, word: str = "error") -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def summary(report: CheckReport, unsafe_fixes: bool, fixing: bool) -> str:
    """ruff's closing lines: the count, what --fix would fix, and the hidden unsafe fixes."""
    remaining = len(report.diagnostics)
    fixed = sum(report.fixed.values())
    if fixing and fixed:
        return f"Found {_plural(remaining + fixed)} ({fixed} fixed, {remaining} remaining).\n"
    if not remaining:
        return "All checks passed!\n"
    lines = [f"Found {_plural(remaining)}."]
    fixable = sum(1 for d in report.diagnostics if d.fixable(unsafe_fixes))
    if fixable:
        lines.append(f"[*] {fixable} fixable with the `--fix` option.")
    hidden = sum(1 for d in report.diagnostics if d.fixable(True) and not d.fixable(unsafe_fixes))
    if hidden:
        lines.append(
            f"({hidden} hidden {'fix' if hidden == 1 else 'fixes'} can be enabled with the "
            "`--unsafe-fixes` option.)"
        )
    return "\n".join(lines) + "\n"


def show_fixes(report: CheckReport) -> str:
    total = sum(report.fixed.values())
    if not total:
        return "No errors fixed\n"
    lines = [f"Fixed {_plural(total)}:"]
    for path, counts in sorted(report.fixed_by_file.items()):
        lines.append(f"- {display_path(path)}:")
        lines.extend(
            f"    {count} × {code} ({RULES[code].name})" for code, count in sorted(counts.items())
        )
    return "\n".join(lines) + "\n"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="seedlint")
def main() -> None:
    """seedlint: find and fix code that makes PyTorch training runs irreproducible."""


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--fix", is_flag=True, help="Apply safe fixes.")
@click.option(
    "--unsafe-fixes", is_flag=True, help="Also apply (and count as fixable) unsafe fixes."
)
@click.option("--diff", is_flag=True, help="Print a diff of the fixes instead of writing them.")
@click.option("--show-fixes", is_flag=True, help="List the fixes that were applied.")
@click.option("--statistics", "show_statistics", is_flag=True, help="Count findings per rule.")
@click.option("--select", help="Rules to enable (codes, prefixes, names or ALL), comma-separated.")
@click.option("--extend-select", help="Rules to enable on top of the selection.")
@click.option("--ignore", help="Rules to disable.")
@click.option("--fixable", help="Rules whose fixes may be applied.")
@click.option("--unfixable", help="Rules whose fixes are never applied.")
@click.option("--output-format", type=click.Choice(FORMATS), default="full", show_default=True)
@click.option(
    "-o", "--output-file", type=click.Path(path_type=Path), help="Write the report to a file."
)
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary.")
@click.option("-e", "--exit-zero", is_flag=True, help="Exit 0 even when findings remain.")
@click.option("--exit-non-zero-on-fix", is_flag=True, help="Exit 1 when any fix was applied.")
@click.option(
    "--config", "config_path", type=click.Path(path_type=Path), help="Use this config file only."
)
@click.option("--isolated", is_flag=True, help="Ignore all config files.")
@click.option(
    "--stdin-filename",
    type=click.Path(path_type=Path),
    help="Lint standard input (path `-`) as this file.",
)
@click.option(
    "--force-exclude", is_flag=True, help="Apply `exclude` to paths given explicitly too."
)
@click.option("--target-torch-version", help="The torch version the code runs on, e.g. 2.4.")
@click.option(
    "--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True
)
@click.option(
    "--no-cache", is_flag=True, help="Neither read nor write the cache of earlier runs' findings."
)
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    envvar="SEEDLINT_CACHE_DIR",
    help=(
        "Where to cache findings (default: .seedlint_cache at the "
        "project root; env SEEDLINT_CACHE_DIR)."
    ),
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Processes analysing files the cache does not know (default: one per available CPU).",
)
def check(
    paths,
    fix,
    unsafe_fixes,
    diff,
    show_fixes,
    show_statistics,
    select,
    extend_select,
    ignore,
    fixable,
    unfixable,
    output_format,
    output_file,
    quiet,
    exit_zero,
    exit_non_zero_on_fix,
    config_path,
    isolated,
    stdin_filename,
    force_exclude,
    target_torch_version,
    color,
    no_cache,
    cache_dir,
    jobs,
) -> None:
    """Lint PATHS (default: the current directory) for reproducibility problems."""
    reading_stdin = list(paths) == [Path("-")]
    if stdin_filename is not None and not paths:
        reading_stdin = True
    try:
        version = parse_version(target_torch_version) if target_torch_version else None
    except ValueError as error:
        _fail(f"--target-torch-version: {error}")
    options = CheckOptions(
        paths=list(paths) or [Path(".")],
        select=_selectors(select),
        extend_select=_selectors(extend_select),
        ignore=_selectors(ignore),
        fixable=_selectors(fixable),
        unfixable=_selectors(unfixable),
        fix=fix,
        unsafe_fixes=unsafe_fixes,
        diff=diff,
        config=config_path,
        isolated=isolated,
        force_exclude=force_exclude,
        stdin_filename=stdin_filename,
        target_torch_version=version,
        cache=not no_cache,
        cache_dir=cache_dir,
        jobs=jobs,
    )
    try:
        runner = Runner(options)
        report = runner.run(sys.stdin.buffer.read() if reading_stdin else None)
    except (ConfigError, UnknownSelector, MissingPath) as error:
        _fail(str(error))

    for warning in report.warnings:
        click.echo(f"warning: {warning}", err=True)
    if diff:
        sys.stdout.write(report.diff)
        fixed = sum(report.fixed.values())
        click.echo(
            f"Would fix {_plural(fixed)}." if fixed else "No errors would be fixed.", err=True
        )
        sys.exit(EXIT_FINDINGS if report.diff else EXIT_CLEAN)

    if report.stdin_output is not None:
        sys.stdout.write(report.stdin_output)
        out = sys.stderr
    else:
        out = None
    text = _report_text(
        report,
        output_format,
        show_statistics,
        show_fixes,
        quiet,
        unsafe_fixes,
        fix,
        _use_color(color, output_file is not None),
    )
    if output_file is not None:
        output_file.write_text(text, encoding="utf-8")
    elif text:
        (out or sys.stdout).write(text)

    for error in report.errors:
        click.echo(
            f"error: {error} (a seedlint bug: please report it; the other rules still ran)",
            err=True,
        )
    if report.errors:
        sys.exit(EXIT_ERROR)
    if exit_non_zero_on_fix and report.fixed:
        sys.exit(EXIT_FINDINGS)
    sys.exit(EXIT_FINDINGS if report.diagnostics and not exit_zero else EXIT_CLEAN)


def _report_text(
    report: CheckReport,
    output_format: str,
    show_statistics: bool,
    show_fixes_flag: bool,
    quiet: bool,
    unsafe_fixes: bool,
    fixing: bool,
    color: bool,
) -> str:
    if show_statistics:
        options = ReportOptions(cwd=Path.cwd(), color=color, rules=RULES, unsafe_fixes=unsafe_fixes)
        return statistics.render(report.diagnostics, output_format, options)
    text = render(
        report.diagnostics,
        output_format,
        cwd=Path.cwd(),
        color=color,
        rules=RULES,
        unsafe_fixes=unsafe_fixes,
    )
    if output_format not in TEXT_FORMATS or quiet:
        return text
    if text:
        text += "\n"
    if show_fixes_flag and fixing:
        text += show_fixes(report) + "\n"
    return text + summary(report, unsafe_fixes, fixing)


class _ScriptArgsCommand(click.Command):
    """A command whose arguments after `--` are kept for the user's script, untouched."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if "--" in args:
            ctx.meta["script_args"] = args[args.index("--") + 1 :]
            args = args[: args.index("--")]
        return super().parse_args(ctx, args)


@main.command(cls=_ScriptArgsCommand)
@click.argument("paths", nargs=-1, type=click.Path(path_type=Path))
@click.option("--select", help="Rules whose findings to verify (codes, prefixes, names or ALL).")
@click.option(
    "--runs",
    type=click.IntRange(min=2),
    default=2,
    show_default=True,
    help="Runs of each configuration.",
)
@click.option(
    "--timeout",
    type=click.FloatRange(min=1),
    default=60.0,
    show_default=True,
    help="Seconds per run.",
)
@click.option(
    "--device",
    type=click.Choice(["auto", "cpu", "cuda"]),
    default="auto",
    show_default=True,
    help=(
        "Whether CUDA-only findings are run (cuda) or reported "
        "needs-cuda (cpu); auto: if CUDA is here."
    ),
)
@click.option("--no-fix-check", is_flag=True, help="Do not run the fixed program.")
@click.option(
    "--examples",
    is_flag=True,
    help="Run every rule page's example and fixed version on this machine.",
)
@click.option(
    "--launcher",
    type=click.Choice(["python", "torchrun"]),
    default="python",
    show_default=True,
    help="torchrun: run under torch.distributed.run, every rank traced and judged.",
)
@click.option(
    "--nproc-per-node",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="Processes per node under --launcher torchrun.",
)
@click.option(
    "--output-format",
    type=click.Choice(["full", "json"]),
    default="full",
    show_default=True,
    help="full: a short table per finding; json: everything.",
)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    help="Runs at once (default 1: runs of one program may share its files and GPU; the two runs "
    "of a run-to-run finding go side by side, compared as they go); with --examples, examples at "
    "once (default: one per available CPU).",
)
def verify(
    paths,
    select,
    runs,
    timeout,
    device,
    no_fix_check,
    examples,
    launcher,
    nproc_per_node,
    output_format,
    jobs,
) -> None:
    """Run the flagged programs twice in fresh processes to show where runs diverge, then the fixed
    ones.

    Arguments after `--` are passed to the scripts: `seedlint verify train.py -- --epochs 1`.
    """
    if importlib.util.find_spec("torch") is None:
        _fail("`seedlint verify` needs torch: pip install 'seedlint[verify]'")
    # imported here: `check` never pays for the verifier (nor for multiprocessing)
    from seedlint.parallel import available_cpus
    from seedlint.verify import report
    from seedlint.verify import session as verification

    options = verification.VerifyOptions(
        list(paths) or [Path(".")],
        _selectors(select),
        runs,
        timeout,
        device,
        not no_fix_check,
        click.get_current_context().meta.get("script_args", []),
        nproc_per_node if launcher == "torchrun" else 0,
        jobs=jobs or (available_cpus() if examples else 1),
    )
    missing = next((path for path in options.paths if not path.exists()), None)
    if missing is not None:
        _fail(f"{missing}: No such file or directory")
    try:
        expand_all(options.select or [])
    except UnknownSelector as error:
        _fail(str(error))
    click.echo(
        f"seedlint verify runs your code: {runs} runs of each flagged entry point"
        + ("" if no_fix_check else f", then {runs} of its fixed version")
        + f" (timeout {timeout:g} s each).",
        err=True,
    )
    # what starts and what was seen, as lines; on a terminal, a live status line too
    progress = lambda line: click.echo(line, err=True)  # noqa: E731
    if sys.stderr.isatty():
        progress = lambda line: click.echo(f"\r{line:<72}", err=True)  # noqa: E731
        options.progress = lambda line: click.echo(f"\r  {line:<70}", err=True, nl=False)
    if examples:
        rows = []
        if output_format == "full":  # each rule's line as soon as it and those above it are known
            sys.stdout.write(report.EXAMPLES_HEADER)
        for row in verification.verify_examples(options, progress):
            rows.append(row)
            if output_format == "full":
                sys.stdout.write(report.render_example_full(row, Path.cwd()))
                sys.stdout.flush()
        if output_format == "json":
            sys.stdout.write(report.render_examples_json(rows, Path.cwd()))
        problems = [row for row in rows if row.example == "not-flagged"]
        sys.exit(EXIT_FINDINGS if problems else EXIT_CLEAN)
    try:
        verdicts = verification.verify(options, progress)
    except (ConfigError, UnknownSelector, MissingPath) as error:
        _fail(str(error))
    render = report.render_json if output_format == "json" else report.render_full
    sys.stdout.write(render(verdicts, Path.cwd()))
    sys.exit(EXIT_FINDINGS if any(v.status == "confirmed" for v in verdicts) else EXIT_CLEAN)


@main.command()
@click.option(
    "--cache-dir",
    type=click.Path(path_type=Path),
    envvar="SEEDLINT_CACHE_DIR",
    help="The cache directory to remove as well (env SEEDLINT_CACHE_DIR).",
)
def clean(cache_dir: Path | None) -> None:
    """Remove the caches of the current directory and the directories below it."""
    directories = [
        path
        for path in (Path.cwd(), *Path.cwd().rglob(DIRECTORY_NAME))
        if path.name == DIRECTORY_NAME
    ]
    if (Path.cwd() / DIRECTORY_NAME).is_dir():
        directories.insert(0, Path.cwd() / DIRECTORY_NAME)
    if cache_dir is not None:
        directories.append(cache_dir)
    for directory in remove_caches(list(dict.fromkeys(directories))):
        click.echo(f"Removing cache at: {display_path(directory)}", err=True)


@main.command()
def lsp() -> None:
    """Run the language server on stdin/stdout (needs the lsp extra: pip install
    'seedlint[lsp]')."""
    if importlib.util.find_spec("pygls") is None:
        _fail("the language server needs pygls: pip install 'seedlint[lsp]'")
    # imported here: pygls is an extra, and `check` never pays for it
    from seedlint.lsp.server import serve

    serve()


@main.command()
@click.argument("code", required=False)
@click.option("--all", "show_all", is_flag=True, help="Every rule.")
@click.option(
    "--output-format", type=click.Choice(["text", "json"]), default="text", show_default=True
)
def rule(code: str | None, show_all: bool, output_format: str) -> None:
    """Explain a rule (its page), or list every rule with --all."""
    if show_all == (code is not None):
        _fail("give a rule code (`seedlint rule SL104`) or --all")
    codes = list(RULES) if show_all else [code.upper()]
    if codes[0] not in RULES:
        by_name = {cls.name: c for c, cls in RULES.items()}
        if code in by_name:
            codes = [by_name[code]]
        else:
            _fail(f"unknown rule `{code}`")
    entries = [_rule_entry(c) for c in codes]
    if output_format == "json":
        click.echo(json.dumps(entries if show_all else entries[0], indent=2))
    else:
        click.echo("\n\n".join(entry["explanation"].rstrip() for entry in entries))


def _rule_entry(code: str) -> dict:
    rule_class = RULES[code]
    return {
        "code": code,
        "name": rule_class.name,
        "summary": rule_class.summary,
        "default": "on" if rule_class.default_enabled else "off",
        "fix": rule_class.fix_availability,
        "explanation": page_text(code) or f"# {code} {rule_class.name}\n\n{rule_class.summary}\n",
        "url": page_url(code),
    }
