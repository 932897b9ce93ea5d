"""SL100 unused-noqa: a `# noqa: SLxxx` that suppressed nothing.

Reported by the linter after the other rules (as ruff's noqa checker is): what a comment suppressed
is known only once their findings are.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from seedlint.analysis.context import FileContext
from seedlint.diagnostics import Applicability, Edit, Fix
from seedlint.noqa import LINE_NOQA, codes_in, comments
from seedlint.rules.base import Finding, Rule
from seedlint.source import SourceText

_OURS = re.compile(r"SL[0-9]{3}")  # not other tools' codes that start alike (flake8-slots' SLOT000)
# a `noqa` (any case, as `LINE_NOQA` reads it) with one of our codes after it on its line
_NOQA_OURS = re.compile(rb"(?i:noqa)[^\n]*SL[0-9]{3}")


class UnusedNoqa(Rule):
    code = "SL100"
    name = "unused-noqa"
    summary = "A `# noqa` comment names a seedlint code that suppresses nothing on its line"
    fix_availability = "safe"
    patterns = ((b"SL", _NOQA_OURS),)  # only our codes are audited

    def check(self, context: FileContext) -> Iterator[Finding]:
        return iter(())  # the linter calls `audit` once the other rules' findings are known

    def audit(
        self,
        source: SourceText,
        suppressed: Collection[tuple[int, str]],
        enabled: Collection[str],
        known: Collection[str],
    ) -> Iterator[Finding]:
        """The `# noqa` codes of a text that suppressed none of the findings in `suppressed` ((row,
        code) pairs): a code of a rule that is `known` but not `enabled` in this run is left alone
        (it may suppress in another)."""
        for comment in comments(source.text):
            match = LINE_NOQA.search(comment.text)
            codes = codes_in(match.group("codes")) if match else []
            # Only our own codes are judged: bare `# noqa` and other tools' codes are not ours to
            # audit.
            unused = [
                code
                for code in dict.fromkeys(codes)
                if _OURS.fullmatch(code)
                and code != self.code
                and (comment.row, code) not in suppressed
                and (code not in known or code in enabled)
            ]
            if not unused:
                continue
            start = source.offset(comment.row, comment.column)
            named = ", ".join(unused)
            if all(code not in known for code in unused):
                message = (
                    f"`# noqa` names {named}, which is not a seedlint rule, so it "
                    "suppresses nothing"
                )
            else:
                message = (
                    f"`# noqa` names {named} but no such finding is on this line, so the comment "
                    "suppresses nothing now and would silently hide a future finding"
                )
            yield Finding(
                None,
                message,
                self._fix(
                    start,
                    comment.text,
                    match,
                    codes,
                    unused,
                    source.line_text(comment.row)[: comment.column],
                ),
                help="Remove the unused code" + ("s" if len(unused) > 1 else ""),
                span=(start + match.start(), start + match.end()),
            )

    @staticmethod
    def _fix(start: int, text: str, match, codes: list[str], unused: list[str], before: str) -> Fix:
        kept = [code for code in codes if code not in unused]
        if kept:
            edit = Edit(start + match.start("codes"), start + match.end("codes"), ", ".join(kept))
            return Fix(f"Remove {', '.join(unused)}", Applicability.SAFE, (edit,))
        if match.start() == 0 and not text[match.end() :].strip():
            # the spaces before it
            gap = len(before) - len(before.rstrip(" \t")) if before.strip() else 0
            return Fix(
                "Remove the `# noqa` comment",
                Applicability.SAFE,
                (Edit(start - gap, start + len(text), ""),),
            )
        return Fix("Remove the `noqa` directive", Applicability.DISPLAY_ONLY)
