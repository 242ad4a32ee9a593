"""Training data for the detector: importers for the real photo sets and the synthetic generator.

Every dataset written here uses one layout, the one YOLO trainers read: ``images/{train,val}``,
``labels/{train,val}`` (``class cx cy w h``, normalized), ``data.yaml`` with the class names and
``groups.csv`` telling which source each image came from, so that no source spans two folds.
"""
