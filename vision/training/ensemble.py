"""One classifier ONNX from several: their softmax outputs averaged, each with its weight.

Crop classifiers trained apart misread different held-back faces, so a weighted mean of two can
read whole tables better than either (measured, not yet shipped: MODELS.md, twenty-first
session; a weak member can also make it worse). Merged into one graph,
the runtime still loads a single ``classifier.onnx`` and runs every member in one call; the
metadata (names, imgsz, task) is the first member's, which the others must match.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

CLASSIFIER_META = ("names", "imgsz", "task")


def average_classifiers(members: Sequence[tuple[Path, float]], out: Path) -> Path:
    """Write to ``out`` the classifier whose output is the weighted mean of ``members``'
    outputs ((ONNX path, weight) pairs; the weights need not sum to one)."""
    import onnx
    from onnx import TensorProto, compose, helper

    if len(members) < 2:
        raise ValueError("averaging needs two classifiers or more")
    if any(w <= 0 for _, w in members):
        raise ValueError("each classifier's weight must be positive")
    models = []
    for path, _ in members:
        if not Path(path).is_file():
            raise FileNotFoundError(f"{path}: no such ONNX file")
        models.append(onnx.load(str(path)))
    first = models[0]
    meta = {p.key: p.value for p in first.metadata_props}
    if meta.get("task") != "classify":
        raise ValueError(f"{members[0][0]}: not a classifier (task {meta.get('task')!r})")
    for (path, _), model in zip(members, models, strict=True):
        theirs = {p.key: p.value for p in model.metadata_props}
        if any(theirs.get(k) != meta.get(k) for k in CLASSIFIER_META):
            raise ValueError(f"{path}: not a classifier of the same classes and input size as "
                             f"{members[0][0]}")
        if len(model.graph.input) != 1 or len(model.graph.output) != 1:
            raise ValueError(f"{path}: a classifier has one input and one output")
        if list(model.opset_import) != list(first.opset_import):
            raise ValueError(f"{path}: another opset than {members[0][0]}")
    image, output = first.graph.input[0], first.graph.output[0]
    total = sum(w for _, w in members)
    nodes, weights, scaled = [], [], []
    for i, (model, (_, w)) in enumerate(zip(models, members, strict=True)):
        graph = compose.add_prefix(model, prefix=f"member{i}_").graph
        own = graph.input[0].name
        for node in graph.node:
            node.input[:] = [image.name if x == own else x for x in node.input]
        nodes += list(graph.node)
        weights += list(graph.initializer)
        weights.append(helper.make_tensor(f"member{i}_weight", TensorProto.FLOAT, [], [w / total]))
        nodes.append(helper.make_node("Mul", [graph.output[0].name, f"member{i}_weight"],
                                      [f"member{i}_weighted"]))
        scaled.append(f"member{i}_weighted")
    nodes.append(helper.make_node("Sum", scaled, [output.name]))
    merged = helper.make_model(helper.make_graph(nodes, "average", [image], [output], weights),
                               opset_imports=first.opset_import)
    merged.ir_version = first.ir_version
    meta["average"] = ", ".join(f"{Path(p).name}: {w:g}" for p, w in members)
    helper.set_model_props(merged, meta)
    onnx.checker.check_model(merged)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(merged, str(out))
    return out
