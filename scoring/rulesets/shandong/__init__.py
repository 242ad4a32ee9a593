"""The shandong ruleset (spec: shared/rules/shandong.md)."""
