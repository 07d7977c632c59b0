"""No import circle in dlx/ or sudoku/ at run time: the modules' imports (at the top or inside a
function, those under ``if TYPE_CHECKING:`` apart) make a graph without a cycle, so every module can
be read, and loaded, after the ones it uses."""
import ast
from pathlib import Path

from support import ROOT, components

PACKAGES = ("dlx", "sudoku")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


def type_checking_only(node: ast.AST, parents: dict) -> bool:
    while node in parents:
        node = parents[node]
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            return True
    return False


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project's modules that ``name`` imports at run time: ``from . import x`` is module
    ``x`` when it is one, else the package; ``from .m import y`` is ``m`` (or ``m.y``, a module)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if type_checking_only(node, parents):
            continue
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name in known}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = ".".join(base[:len(base) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            for alias in node.names:
                target = f"{source}.{alias.name}"
                if target in known:
                    found.add(target)
                elif source in known:
                    found.add(source)
    found.discard(name)
    return found


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module."""
    return [sorted(c) for c in components(edges) if len(c) > 1]


def test_the_cycle_finder_finds_a_circle_and_not_a_line():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_relative_and_lazy_imports():
    edges = graph()
    assert "dlx.engines.base" in edges["dlx.engines.dlx1"]
    assert "dlx.status" in edges["dlx.engines.dlx1"]
    assert "dlx.engines.batch" in edges["dlx.engines.cells"]      # from . import batch
    assert "dlx.memo" in edges["dlx.model"] or "dlx.memo" in edges.get("dlx.zdd", set())


def test_no_import_circle_in_dlx_or_sudoku():
    assert cycles(graph()) == []


def private_imports() -> list[str]:
    """``from m import _name`` or ``from _m import name`` where ``m`` is another module of the
    project (dunders and the version module apart)."""
    found = []
    known = set(modules())
    for name, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").split(".")[0] in PACKAGES):
                found += [f"{name}: {node.module}.{a.name}" for a in node.names
                          if a.name.startswith("_") and not a.name.startswith("__") and a.name not in known]
                if any(p.startswith("_") and p != "_version" for p in (node.module or "").split(".")):
                    found.append(f"{name}: {node.module}")
            elif isinstance(node, ast.Import):
                found += [f"{name}: {a.name}" for a in node.names
                          if a.name.split(".")[0] in PACKAGES and any(p.startswith("_") for p in a.name.split("."))]
    return found


def test_no_module_imports_another_ones_private_names():
    assert private_imports() == []
