"""Pack what a lent GPU machine needs to train the tile classifier into ``gpu/`` (git-ignored).

The box has no network and no shared datasets, and a call carries at most 64 MiB, so the
close-up crops of ``mjtable train prepare`` travel as WebP in one tar.gz (1.2 KB a crop), and
table scenes are generated there from the two face banks and the rendered art styles.
Usage: python scripts/gpu/bundle.py PREPARED_CLASSIFIER_FOLDER OUT
"""

import io
import shutil
import sys
import tarfile
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from datasets import art, photo_faces

src, out = Path(sys.argv[1]), Path(sys.argv[2])
(out / "cache" / "photo-faces").mkdir(parents=True, exist_ok=True)
count = 0
with tarfile.open(out / "closeup.tgz", "w:gz") as tar:
    for f in sorted(src.glob("*/*/*.png")):
        ok, buf = cv2.imencode(".webp", cv2.imread(str(f)), [cv2.IMWRITE_WEBP_QUALITY, 90])
        if not ok:
            raise SystemExit(f"{f}: could not be encoded")
        info = tarfile.TarInfo(str(f.relative_to(src).with_suffix(".webp")))
        info.size = len(buf)
        tar.addfile(info, io.BytesIO(buf.tobytes()))
        count += 1
for fold in ("train", "val"):
    photo_faces.face_bank(fold)  # builds the cache file from the shared datasets once
    cached = photo_faces.bank_file(fold)
    with np.load(cached) as data:
        np.savez_compressed(out / "cache" / "photo-faces" / cached.name,
                            **{k: data[k] for k in data.files})
styles = [s for s in art.available_styles() if s in art.BUILTIN]  # as art_templates takes them
for style in styles:
    shutil.copytree(art.cache_dir() / style, out / "cache" / "art" / style, dirs_exist_ok=True)
print(f"{out}: {count} close-up crops, face banks, art {styles}")
