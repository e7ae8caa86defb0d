"""`cutcard rules list` and `cutcard rules show NAME`."""

from __future__ import annotations

import click

from trainer.cli.common import emit_json, json_option


@click.group("rules")
def command() -> None:
    """The rule sets, and one rule set in full."""


@command.command("list")
@json_option
def list_rules(as_json: bool) -> None:
    """Every built-in rule set, with its aliases and the seed it comes from."""
    from trainer.core.rules import ruleset_to_dict
    from trainer.core.rulesfile import builtin_rulesets

    rulesets = builtin_rulesets().values()
    if as_json:
        emit_json([ruleset_to_dict(r) for r in rulesets])
        return
    from trainer.render import make_console
    from trainer.render.rules import print_ruleset_list

    print_ruleset_list(make_console(), rulesets)


@command.command("show")
@click.argument("name", metavar="NAME|PATH")
@json_option
def show_rules(name: str, as_json: bool) -> None:
    """One rule set in full: a built-in name or alias, or a path to your own TOML file."""
    from trainer.core.rules import ruleset_to_dict
    from trainer.core.rulesfile import load_ruleset

    ruleset = load_ruleset(name)
    if as_json:
        emit_json(ruleset_to_dict(ruleset))
        return
    from trainer.render import make_console
    from trainer.render.rules import print_ruleset

    print_ruleset(make_console(), ruleset)
