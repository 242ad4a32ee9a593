"""Link crop folders side by side into one classifier dataset, refusing an empty source.

Usage: python scripts/gpu/link.py OUT SRC[:COPIES] ...   (COPIES links of each training crop)
"""

import os
import sys
from pathlib import Path

out = Path(sys.argv[1])
for arg in sys.argv[2:]:
    src, _, copies = arg.partition(":")
    linked = 0
    for k in range(int(copies or 1)):
        for fold in ("train", "val") if k == 0 else ("train",):
            for d in sorted((Path(src) / fold).iterdir()):
                dst = out / fold / d.name
                dst.mkdir(parents=True, exist_ok=True)
                for f in d.iterdir():
                    os.symlink(f, dst / f"{Path(src).name}{k}_{f.name}")
                    linked += 1
    if not linked:
        raise SystemExit(f"{src}: no crops to link")
    print(f"{src}: {linked} crops linked")
