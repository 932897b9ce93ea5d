"""`seedlint verify`: run flagged programs in fresh processes to show that runs diverge, and that
the fix works.

Needs torch (the `verify` extra); the linter never imports this package. `session` drives the
runs, `harness` and `tracer` run inside the traced process (kept free of the linter's imports, so
tracing adds little to a program's start-up), `probe` turns runs into verdicts, `report` shows them.
"""
