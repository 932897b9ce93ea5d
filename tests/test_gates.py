"""Gates: which rules a file's bytes open, and what the project's gates open a file to."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from seedlint.gates import SEEDING, TEST_HELPER, TRAINED, Gate, opened_by, program_gate

_SPELLINGS = [b"cuda", b"seed(", b"listdir", b"Dataset", b"glob(", b"{", b"x"]


@dataclass(frozen=True)
class _Rule:
    patterns: tuple


def _plainly(rule: _Rule, data: bytes, seeding: bool) -> bool:
    """The patterns as their definition reads: one of them whose parts the bytes all hold."""

    def holds(part: bytes) -> bool:
        return seeding if part == SEEDING else part in data

    return any(
        all(map(holds, pattern)) if isinstance(pattern, tuple) else holds(pattern)
        for pattern in rule.patterns
    )


_PART = st.sampled_from([*_SPELLINGS, SEEDING])
_PATTERN = st.one_of(_PART, st.lists(_PART, min_size=1, max_size=3).map(tuple))
_RULES = st.lists(st.lists(_PATTERN, min_size=1, max_size=8).map(tuple), min_size=1, max_size=5)


class TestRulesFor:
    @settings(max_examples=300, deadline=None)
    @given(
        patterns=_RULES,
        data=st.lists(st.sampled_from([*_SPELLINGS, b" ", b"\n", b"torch."])).map(b"".join),
    )
    def test_a_rule_is_opened_exactly_when_one_of_its_patterns_holds(self, patterns, data):
        # the patterns are grouped by the part each looks for first; the answer is the same
        rules = [_Rule(rule) for rule in patterns]
        gate = Gate()
        seeding = gate.seeds(data)
        assert gate.rules_for(rules, data, "t.py") == [
            rule for rule in rules if _plainly(rule, data, seeding)
        ]

    def test_patterns_sharing_a_first_part_stay_apart(self):
        # (cuda, A) or (cuda, B): a file with cuda and B only is opened, one with A and B only not
        rule = _Rule(((b"cuda", b"A"), (b"cuda", b"B")))
        assert Gate().rules_for([rule], b"x.cuda()\nB\n", "t.py") == [rule]
        assert Gate().rules_for([rule], b"A\nB\n", "t.py") == []


class TestOpenedBy:
    def test_a_call_of_a_project_helper_opens_the_file_and_a_test_s_helper_does_not(self):
        path = Path("train.py")
        data = b"from utils import init_seeds\ninit_seeds(0)\n"
        assert opened_by(path, data, frozenset({b"init_seeds("}))[0] is True
        assert opened_by(path, data, frozenset({TEST_HELPER + b"init_seeds("}))[0] is False

    def test_the_programs_that_train_a_module_are_read_from_the_gates(self):
        module = str(Path("model.py").absolute())
        program = str(Path("train.py").absolute())
        gates = frozenset({program_gate(TRAINED, module, program, "Net"), b"init_seeds("})
        assert opened_by(Path("model.py"), b"class Net: ...\n", gates) == (
            False,
            {"Net": [program]},
        )
