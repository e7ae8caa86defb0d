"""The built-in rule sets, one TOML file per variant; read them with `trainer.core.load_ruleset`."""
