"""What ``interp predict`` adds to its report on request: ``--at`` levels, the annotated
source and the trace file — all computed before anything is printed or written, so a bad
WHERE or a trace that cannot be made is one clean error and no half output."""

from __future__ import annotations

from dataclasses import dataclass, field

from interp.engine.predict import Prediction
from interp.output.files import check_writable

__all__ = ["Sections", "check_writable", "sections"]


@dataclass
class Sections:
    text: list = field(default_factory=list)  # rich renderables, after the report
    json: dict = field(default_factory=dict)  # keys added to the JSON report
    files: dict = field(default_factory=dict)  # path -> content, written by write()

    def write(self) -> None:
        from interp.output.files import write_files

        if self.files:
            write_files(self.files, "trace")


def sections(pred: Prediction, at=(), annotate: bool = False, fmt: str = "text",
             trace_path: str | None = None, process: str | None = None) -> Sections:
    from interp.output import annotate as annotate_mod
    from interp.output import levels

    out = Sections()
    lvs = [levels.level(pred, where) for where in at]
    if lvs:
        out.json["at"] = [levels.to_json(lv) for lv in lvs]
        out.text += [levels.render_text(lv) for lv in lvs]
    if annotate:
        ann = annotate_mod.annotate(pred, process)
        out.json["annotate"] = annotate_mod.to_json(ann)
        out.text.append(annotate_mod.render_text(ann))
    if trace_path:
        from interp.output.trace import trace_json

        out.files[trace_path] = trace_json(pred)
    return out
