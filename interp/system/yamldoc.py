"""YAML that remembers where every value came from.

PyYAML's composer keeps a start mark on every node; we build plain Python data from the node
graph and keep, for each path into that data, the node of the value and of its key, so that any
later check (schema or semantic) can point at ``file:line:column``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from interp.errors import SourceLocation, SpecError

if TYPE_CHECKING:
    import yaml
    from yaml.constructor import SafeConstructor

DataPath = tuple  # keys and list indices from the document root

# A spec is a few hundred values in a few KB. The limits stop a hostile file early: a huge one
# before it is read, and a "billion laughs" of nested aliases (10 lines that expand to 10^9
# values) once the expanded values pass MAX_VALUES.
MAX_BYTES = 1_000_000
MAX_VALUES = 20_000  # 40 times the largest shipped spec (ipsc860: 512)


@dataclass
class Doc:
    data: Any
    file: str
    lines: list[str]
    values: dict[DataPath, yaml.Node] = field(default_factory=dict)
    keys: dict[DataPath, yaml.Node] = field(default_factory=dict)
    built: int = 0  # values built, aliases expanded (MAX_VALUES)

    def where(self, path: DataPath, offset: int = 0) -> SourceLocation:
        """The location of the value at ``path``; ``offset`` moves inside a one-line scalar."""
        node = self.values.get(path)
        if node is None:
            return self.where_key(path)
        return self.loc(node, offset)

    def where_key(self, path: DataPath) -> SourceLocation:
        """The location of the key that introduces ``path`` (or of the nearest enclosing one)."""
        while path and path not in self.keys:
            path = path[:-1]
        node = self.keys.get(path) or self.values.get(path)
        return self.loc(node, 0) if node is not None else SourceLocation(self.file, 1, 1)

    def line(self, loc: SourceLocation) -> str | None:
        return self.lines[loc.line - 1] if 0 < loc.line <= len(self.lines) else None

    def error(self, message: str, loc: SourceLocation, hint: str | None = None) -> SpecError:
        return SpecError(message, loc, hint=hint, source_line=self.line(loc))

    def loc(self, node: yaml.Node, offset: int) -> SourceLocation:
        import yaml

        mark = node.start_mark
        column = mark.column + 1
        if isinstance(node, yaml.ScalarNode) and node.end_mark.line == mark.line:
            column += offset + (1 if node.style in ("'", '"') else 0)
        return SourceLocation(self.file, mark.line + 1, column)


def raw_text(doc: Doc, path: DataPath) -> str:
    """A scalar exactly as written (``70e-6`` stays a decimal string, not a float)."""
    import yaml

    node = doc.values[path]
    return node.value if isinstance(node, yaml.ScalarNode) else str(doc_get(doc.data, path))


def doc_get(data: Any, path: DataPath) -> Any:
    for key in path:
        data = data[key]
    return data


def load_doc(path: Path, file: str | None = None) -> Doc:
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise SpecError(f"the file is {size:,} bytes: a machine spec is at most {MAX_BYTES:,}",
                        SourceLocation(file or str(path), 1, 1))
    text = path.read_text(encoding="utf-8")
    return parse_doc(text, file or str(path))


def parse_doc(text: str, file: str) -> Doc:
    # YAML is imported here: a spec read from the user cache (interp.cache) needs none of it
    import yaml
    from yaml.constructor import SafeConstructor

    doc = Doc(None, file, text.splitlines())
    try:
        # libyaml: 10x faster, same marks
        root = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        if root is None:
            raise doc.error("the file is empty", SourceLocation(file, 1, 1))
        doc.data = _build(root, (), doc, SafeConstructor())
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        loc = SourceLocation(file, mark.line + 1, mark.column + 1) if mark else SourceLocation(file, 1, 1)
        raise doc.error(f"not valid YAML: {err.problem or err.context}", loc) from None
    except yaml.YAMLError as err:  # the reader's: a character YAML does not allow
        raise doc.error(f"not valid YAML: {str(err).splitlines()[0]}", _offset_loc(text, file,
                        getattr(err, "position", 0))) from None
    return doc


def _offset_loc(text: str, file: str, offset: int) -> SourceLocation:
    before = text[:offset]
    return SourceLocation(file, before.count("\n") + 1, offset - (before.rfind("\n") + 1) + 1)


def _build(node: yaml.Node, path: DataPath, doc: Doc, constructor: SafeConstructor) -> Any:
    import yaml

    doc.built += 1
    if doc.built > MAX_VALUES:  # an alias shares its node: each use is built again
        raise doc.error(f"the spec expands to more than {MAX_VALUES:,} values (aliases of "
                        "aliases?): a machine spec has a few hundred", doc.loc(node, 0),
                        "write the values out, or use fewer nested aliases")
    doc.values[path] = node
    if isinstance(node, yaml.MappingNode):
        out: dict = {}
        for key_node, value_node in node.value:
            key = constructor.construct_object(key_node)
            if not isinstance(key, (str, int)):
                raise doc.error("keys must be names or numbers", doc.loc(key_node, 0))
            if key in out:
                raise doc.error(
                    f"duplicate key '{key}'", doc.loc(key_node, 0), "each key may appear once in a mapping"
                )
            doc.keys[(*path, key)] = key_node
            out[key] = _build(value_node, (*path, key), doc, constructor)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, (*path, i), doc, constructor) for i, item in enumerate(node.value)]
    return constructor.construct_object(node)
