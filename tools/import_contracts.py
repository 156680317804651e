"""The project's own import-linter contract type (``contract_types`` in ``pyproject.toml``).

``acyclic_modules`` is import-linter's ``acyclic_siblings`` with one more option, ``flat``: the
packages listed there are held acyclic module by module across their subpackages, as if their
modules lay in one folder, instead of subpackage by subpackage. The game server is cut into
feature packages that lean on each other both ways (its shell starts every feature, and every
feature reads the shell's limits and connections), while no module of it imports one that
imports it back; ``acyclic_siblings`` alone would see a cycle in every pair of such packages.

``lint-imports`` runs from the checkout's root, which it puts on ``sys.path``: this module loads
as ``tools.import_contracts`` from there.
"""

from __future__ import annotations

from typing import Any

import grimp
from importlinter.application import output
from importlinter.contracts.acyclic_siblings import AcyclicSiblingsContract
from importlinter.domain import fields
from importlinter.domain.contract import ContractCheck
from importlinter.domain.helpers import module_expressions_to_modules


class AcyclicModulesContract(AcyclicSiblingsContract):
    """No module imports a module that imports it back: siblings under ``ancestors``, and every
    module under a ``flat`` package (which the sibling check leaves out) one by one."""

    type_name = "acyclic_modules"

    flat = fields.SetField(subfield=fields.ModuleExpressionField(), required=False)

    def _flat_packages(self, graph: grimp.ImportGraph) -> set[str]:
        if not self.flat:
            return set()
        modules = module_expressions_to_modules(graph, sorted(self.flat), raise_if_unmatched=True)  # type: ignore[call-overload]
        return {module.name for module in modules}

    def _get_concrete_skipped_descendants(self, graph: grimp.ImportGraph) -> set[str]:
        return super()._get_concrete_skipped_descendants(graph) | self._flat_packages(graph)

    def check(self, graph: grimp.ImportGraph, verbose: bool) -> ContractCheck:
        siblings = super().check(graph, verbose)
        cycles = {package: _module_cycles(graph, package) for package in sorted(self._flat_packages(graph))}
        cycles = {package: found for package, found in cycles.items() if found}
        metadata: dict[str, Any] = {**siblings.metadata, "module_cycles": cycles}
        return ContractCheck(
            kept=siblings.kept and not cycles,
            warnings=siblings.warnings,
            ignored_import_count=siblings.ignored_import_count,
            metadata=metadata,
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        super().render_broken_contract(check)
        for package, found in check.metadata["module_cycles"].items():
            output.print_error(f"No module of {package} may import one that imports it back; these do, round:")
            output.new_line()
            for cycle in found:
                output.print_error("- " + ", ".join(cycle))
            output.new_line()


def _module_cycles(graph: grimp.ImportGraph, package: str) -> list[list[str]]:
    """The modules of ``package`` (at any depth) that import each other round in a circle, each
    circle as its modules, sorted (Tarjan's strongly connected components of the direct imports
    among them)."""
    modules = {package, *graph.find_descendants(package)}
    imports = {module: sorted(graph.find_modules_directly_imported_by(module) & modules) for module in modules}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in imports[module]:
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1 or module in imports[module]:
                found.append(sorted(component))

    for module in sorted(modules):
        if module not in index:
            visit(module)
    return sorted(found)
