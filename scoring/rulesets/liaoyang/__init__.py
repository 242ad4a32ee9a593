"""The liaoyang ruleset (spec: shared/rules/liaoyang.md)."""
