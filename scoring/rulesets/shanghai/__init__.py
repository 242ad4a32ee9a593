"""The shanghai ruleset (spec: shared/rules/shanghai.md)."""
