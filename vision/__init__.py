"""The product's eyes: camera frames to tiles, dice, seats and hand records (onnxruntime + OpenCV).

Importing this package is cheap; each module loads what it needs.
"""
