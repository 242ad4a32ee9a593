"""A pinhole camera over the table plane, with radial lens distortion applied to the image.

World units are millimetres: x to the right of seat 0, y away from seat 0, z up from the table.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class Camera:
    position: np.ndarray  # (3,) mm
    rotation: np.ndarray  # (3, 3) world -> camera (rows: right, down, forward)
    focal: float  # px
    size: tuple[int, int]  # (w, h) px
    k1: float = 0.0  # radial distortion, normalized by the half diagonal

    @classmethod
    def looking_at(cls, position: np.ndarray, target: np.ndarray, up: np.ndarray,
                   focal: float, size: tuple[int, int], k1: float = 0.0) -> Camera:
        fwd = target - position
        fwd = fwd / np.linalg.norm(fwd)
        right = np.cross(fwd, up)
        right /= np.linalg.norm(right)
        down = np.cross(fwd, right)
        return cls(np.asarray(position, float), np.stack([right, down, fwd]), focal, size, k1)

    def project(self, pts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(..., 3)`` world points -> ``(..., 2)`` ideal pixels and ``(...)`` depths (mm)."""
        cam = (pts - self.position) @ self.rotation.T
        z = cam[..., 2]
        zc = np.maximum(z, 1e-3)
        w, h = self.size
        uv = np.stack([cam[..., 0] / zc * self.focal + w / 2,
                       cam[..., 1] / zc * self.focal + h / 2], axis=-1)
        return uv, z

    def plane_homography(self) -> np.ndarray:
        """3x3 map from table-plane points ``(x, y, 1)`` to ideal pixels."""
        w, h = self.size
        k = np.array([[self.focal, 0, w / 2], [0, self.focal, h / 2], [0, 0, 1]])
        r = self.rotation
        t = -r @ self.position
        return k @ np.column_stack([r[:, 0], r[:, 1], t])

    # distortion: a distorted pixel d comes from the ideal pixel c + (d - c)(1 + k1 r_d^2)
    def _norm(self) -> tuple[np.ndarray, float]:
        w, h = self.size
        return np.array([w / 2, h / 2]), float(np.hypot(w, h) / 2)

    def distort_points(self, uv: np.ndarray) -> np.ndarray:
        """Ideal pixels -> where they land in the distorted image (fixed-point inverse)."""
        if self.k1 == 0.0:
            return uv
        c, s = self._norm()
        p = (uv - c) / s
        d = p.copy()
        for _ in range(12):
            r2 = (d ** 2).sum(-1, keepdims=True)
            d = p / (1 + self.k1 * r2)
        return d * s + c

    def distortion_maps(self) -> tuple[np.ndarray, np.ndarray] | None:
        if self.k1 == 0.0:
            return None
        w, h = self.size
        c, s = self._norm()
        k = np.float32(self.k1)
        gx = ((np.arange(w, dtype=np.float32) - c[0]) / s)[None, :]
        gy = ((np.arange(h, dtype=np.float32) - c[1]) / s)[:, None]
        sx = np.float32(s)
        # x (1 + k (x^2 + y^2)), by broadcasting a row against a column
        mx = (gx * (1 + k * gx * gx)) * sx + np.float32(c[0]) + (k * sx) * gx * (gy * gy)
        my = (gy * (1 + k * gy * gy)) * sx + np.float32(c[1]) + (k * sx) * gy * (gx * gx)
        return mx.astype(np.float32), my.astype(np.float32)

    def distort_image(self, img: np.ndarray, nearest: bool = False) -> np.ndarray:
        maps = self.distortion_maps()
        if maps is None:
            return img
        interp = cv2.INTER_NEAREST if nearest else cv2.INTER_LINEAR
        return cv2.remap(img, maps[0], maps[1], interp, borderMode=cv2.BORDER_REPLICATE)
