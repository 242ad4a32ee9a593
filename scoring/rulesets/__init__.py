"""Regional rulesets; each is a package exporting ``RULESET``."""
