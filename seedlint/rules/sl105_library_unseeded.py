"""SL105 library-unseeded: a flow seeds one library's generator but draws from another's."""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from seedlint.analysis import catalog
from seedlint.analysis.arguments import callee_name
from seedlint.analysis.bindings import value_unused
from seedlint.analysis.context import FileContext
from seedlint.analysis.events import START, Event, Flow, Site, Step
from seedlint.analysis.index import Statement
from seedlint.analysis.modules import shown_name
from seedlint.analysis.programs import seeded_by_imports
from seedlint.analysis.seed_picks import picks_a_seed
from seedlint.diagnostics import Applicability, Fix
from seedlint.files import display_path
from seedlint.rules.base import Finding, Probe, Rule

# For each library: its generators (seeding any of them counts as seeding it) and its seeding call.
_LIBRARIES = {
    catalog.TORCH_CPU: (catalog.TORCH_GENERATORS, "torch.manual_seed"),
    catalog.NUMPY: (frozenset({catalog.NUMPY}), "numpy.random.seed"),
    catalog.PYTHON_RANDOM: (frozenset({catalog.PYTHON_RANDOM}), "random.seed"),
}
_SMALL_LITERAL_LIMIT = 2**32


class LibraryUnseeded(Rule):
    code = "SL105"
    name = "library-unseeded"
    summary = "A flow seeds one of torch, NumPy and `random` but draws from another it never seeds"
    fix_availability = "safe"
    probe = Probe.RUN_TO_RUN

    def check(self, context: FileContext) -> Iterator[Finding]:
        # One finding per drawing call, with the flows that reach it unseeded: a draw in a class or
        # function that two seeding flows run (the module body and `main()`) is fixed in both.
        found: dict[cst.Call, tuple[Event, str, list[Flow], Site]] = {}
        imported = (
            seeded_by_imports(context, deterministic_only=True) if context.seeding_flows else {}
        )
        on_import = frozenset().union(*imported.values())  # a project module imported seeds them
        for flow in context.seeding_flows:
            for library, (members, _) in _LIBRARIES.items():
                if members & on_import:
                    continue
                draw = flow.first_unseeded_draw(
                    members,
                    lambda event: (
                        picks_a_seed(context.index, flow, event)
                        # the library is never seeded: a value only shown is a demo, where the
                        # flow runs it or in the function that draws it
                        or any(
                            value_unused(
                                context.index,
                                step.statement,
                                context.program is not None or step is not event.trail[0],
                                never_seeded=True,
                                call=step.call,
                                project=context.settings.project,
                            )
                            for step in (event.trail[0], event.trail[-1])
                            if (step is event.trail[0] or _kept_locally(step.statement))
                            and _holds_the_draw(event, step)
                        )
                    ),
                )
                # A function the program runs is judged where it runs: unseeded there too, at a
                # caller whose own state is known.
                site = context.entry(flow).unseeded_at(members) if draw is not None else None
                if site is None:
                    continue
                _, first_library, flows, _ = found.setdefault(draw.call, (draw, library, [], site))
                if first_library == library:
                    flows.append(flow)
        for draw, library, flows, site in found.values():
            yield self._finding(context, flows, draw, library, site)
        yield from self._seeded_on_import_only(context, found)

    def _seeded_on_import_only(
        self, context: FileContext, found: dict[cst.Call, tuple]
    ) -> Iterator[Finding]:
        """A program that seeds nothing itself, whose imported project modules seed some
        libraries when imported (`config.py` seeding NumPy and `random`), and that draws from
        another nobody seeds (torch's initial weights)."""
        if any(flow.root is None for flow in context.seeding_flows):
            return
        imported = seeded_by_imports(context, deterministic_only=True)
        if not imported:
            return
        seeded = frozenset().union(*imported.values())
        body = context.walk(None)
        for library, (members, _) in _LIBRARIES.items():
            if members & seeded:
                continue
            draw = body.first_unseeded_draw(
                members,
                lambda event: value_unused(
                    context.index,
                    event.trail[0].statement,
                    context.program is not None,
                    never_seeded=True,
                    project=context.settings.project,
                ),
            )
            if draw is None or draw.call in found:
                continue
            module = next(iter(imported))
            generator = catalog.GENERATOR_LABELS[library]
            yield Finding(
                draw.call,
                f"`{context.code(draw.call.func)}` draws from the {generator} generator, which "
                f"nothing in this program seeds, although importing `{shown_name(module)}` seeds "
                f"{catalog.generators_named(imported[module])}, so its values change from run to "
                "run",
                help=f"Seed it too, with `{_LIBRARIES[library][1].replace('numpy', 'np')}(seed)`",
                generators=frozenset({library}),
            )

    def _finding(
        self, context: FileContext, flows: list[Flow], draw: Event, library: str, site: Site
    ) -> Finding:
        generator = catalog.GENERATOR_LABELS[library]
        return Finding(
            draw.call,
            f"`{context.code(draw.call.func)}` draws from the {generator} generator, which "
            f"{_unseeded_by(context, site, library)}, so its values change from run to run",
            self._fix(context, flows, library),
            help=f"Seed it too, with `{_LIBRARIES[library][1].replace('numpy', 'np')}(seed)`",
            generators=frozenset({library}),
        )

    def _fix(self, context: FileContext, flows: list[Flow], library: str) -> Fix | None:
        """Seed the library after a seeding call of each flow (none: a flow has no call to
        follow)."""
        edits: list = []
        message = None
        for flow in flows:
            anchor = next(
                (
                    e
                    for e in flow.seeds()
                    if e.effect.seed_arg is not None
                    and not isinstance(e.statement.node, cst.BaseCompoundStatement)
                    and not _restored_around(context, e, _LIBRARIES[library][0])
                ),
                None,
            )
            if anchor is None:
                return None
            reference, import_edit = context.edits.reference(_LIBRARIES[library][1], at=anchor)
            code = f"{reference}({self._seed_text(context, anchor.effect.seed_arg, library)})"
            edits += [
                *((import_edit,) if import_edit else ()),
                context.edits.insert_after(anchor.statement, code),
            ]
            message = message or f"Insert `{code}`"  # the first flow's
        return Fix(message, Applicability.SAFE, tuple(dict.fromkeys(edits)))

    @staticmethod
    def _seed_text(context: FileContext, seed: cst.BaseExpression, library: str) -> str:
        text = context.code(seed)
        if library != catalog.NUMPY:
            return text
        if isinstance(seed, cst.Integer) and int(seed.evaluated_value) < _SMALL_LITERAL_LIMIT:
            return text
        atomic = isinstance(seed, (cst.Name, cst.Attribute, cst.Call, cst.Subscript, cst.Integer))
        return f"{text if atomic else f'({text})'} % 2**32"


def _restored_around(context: FileContext, event: Event, generators: frozenset[str]) -> bool:
    """Whether the event sits in a `with` block that restores one of `generators` on exit (`with
    torch.random.fork_rng():`): a seeding of them inserted beside it would be undone."""
    for step in event.trail:
        node = step.statement.node
        if step.call is None and isinstance(node, cst.With):
            for item in node.items:
                if isinstance(item.item, cst.Call):
                    qualified = context.index.qualify(item.item.func, step.statement.scope)
                    if catalog.RNG_ISOLATORS.get(qualified or "", frozenset()) & generators:
                        return True
    return False


def _unseeded_by(context: FileContext, site: Site, library: str) -> str:
    """Who leaves the generator unseeded: this code, its caller at `site`, or a forked child."""
    if site is START:
        return "this code never seeds although it seeds others"
    here = site.module in (display_path(context.path), context.module_name)
    row = site.row
    # a call of this very text (the project's module may be the file on disk, before fixes)
    if here and site.call is not None and context.layout.holds(site.call):
        row = context.source.location(context.layout.span(site.call)[0]).row
    where = context.line_name(row) if here and row else f"line {row} of {site.module}"
    if site.forked and library == catalog.PYTHON_RANDOM:
        return (
            f"CPython reseeds from OS entropy in the child process `{site.callee}` starts "
            f"({where}), whatever the parent seeded"
        )
    return (
        f"neither this code nor its caller seeds before `{site.callee}()` ({where}), though they "
        "seed others"
    )


def _holds_the_draw(event: Event, step: Step) -> bool:
    """Whether what a statement stores is the draw itself or an object built around it
    (`img = random.choice(paths)`, `model = Net()`), not the result a function computed with it
    (`results = evaluate(model)`: printing that shows the program's output, not a demo)."""
    call = step.call
    if call is None or call is event.call and not event.effect.summarised:
        return True
    return callee_name(call.func)[:1].isupper()


def _kept_locally(statement: Statement) -> bool:
    """Whether a statement binds only local names (`picked = random.sample(..)`, not
    `self.fc = ..`, whose value the object keeps)."""
    node = statement.node
    return (
        isinstance(node, cst.Assign)
        and len(node.targets) == 1
        and all(
            isinstance(element, cst.Name)
            for element in (
                [e.value for e in node.targets[0].target.elements]
                if isinstance(node.targets[0].target, (cst.Tuple, cst.List))
                else [node.targets[0].target]
            )
        )
    )
