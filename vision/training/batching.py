"""Free the batch dimension of a classifier exported with batch 1, at export time.

The runtime classifies every tile crop of a frame in one batch; ultralytics' static export
names the batch as 1 in its reshapes. Patching the graph needs the ``onnx`` package, which only
the train and dev extras install, so it happens here, once, and never at run time.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np


def free_batch(src: Path, dst: Path) -> bool:
    """Write ``src`` to ``dst`` with a free batch dimension: its reshapes that name the batch as
    1 copy it from their input instead. Kept only if a batch of three gives the same answers as
    one image at a time; returns whether it did (``dst`` is left alone when not)."""
    import onnx
    import onnxruntime as ort
    from onnx import numpy_helper

    model = onnx.load(str(src))
    first = model.graph.input[0].type.tensor_type.shape.dim[0]
    if first.dim_param or first.dim_value != 1:
        return False  # already free, or a batch this patch does not know
    tensors = {t.name: t for t in model.graph.initializer}
    consts = {n.output[0]: n.attribute[0].t for n in model.graph.node
              if n.op_type == "Constant" and n.attribute}
    for node in model.graph.node:
        if node.op_type != "Reshape":
            continue
        target = tensors.get(node.input[1]) or consts.get(node.input[1])
        if target is None:
            continue
        shape = numpy_helper.to_array(target).copy()
        if shape.size and shape[0] == 1:
            shape[0] = 0  # 0: this dimension as in the input
            target.CopyFrom(numpy_helper.from_array(shape, target.name))
    model.graph.input[0].type.tensor_type.shape.dim[0].dim_param = "batch"
    for out in model.graph.output:
        out.type.tensor_type.shape.dim[0].dim_param = "batch"
    del model.graph.value_info[:]
    providers = ["CPUExecutionProvider"]
    original = ort.InferenceSession(str(src), providers=providers)
    inp = original.get_inputs()[0]
    try:
        patched = ort.InferenceSession(model.SerializeToString(), providers=providers)
        probe = np.random.default_rng(0).random((3, *inp.shape[1:]), np.float32)
        together = patched.run(None, {inp.name: probe})[0]
        alone = np.concatenate([original.run(None, {inp.name: probe[i:i + 1]})[0]
                                for i in range(3)])
    except Exception:  # a graph this patch cannot open up: it stays at batch 1
        return False
    if together.shape != alone.shape or not np.allclose(together, alone, atol=1e-4):
        return False
    onnx.save(model, str(dst))
    return True
