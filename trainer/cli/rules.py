"""`cutcard rules list` and `cutcard rules show NAME` (or `cutcard rules NAME`)."""

from __future__ import annotations

import click

from trainer.cli.common import emit_json, json_option, pager_option, paging


class _RulesGroup(click.Group):
    """`rules NAME` reads as `rules show NAME` where NAME is a rule set (a built-in's name or alias, or a
    file): what a player types to see a table's rules. Any other word is an unknown command: a
    misspelt one gets click's "Did you mean", the rest are told they name no rule set either."""

    def resolve_command(self, ctx: click.Context, args: list[str],
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        import difflib

        word = args[0] if args else ""
        if word and word not in self.commands and not word.startswith("-"):
            if _names_a_ruleset(word):
                args = ["show", *args]
            elif not difflib.get_close_matches(word, self.commands):
                from trainer.core.names import closest
                from trainer.core.rulesfile import builtin_rulesets

                near = closest(word, builtin_rulesets())
                ctx.fail(f"No such command {word!r}, nor a rule set of that name; did you mean {near!r}?"
                         if near else f"No such command {word!r}, nor a rule set of that name (built-in: "
                         f"{', '.join(builtin_rulesets())}; or a path to a .toml file).")
        return super().resolve_command(ctx, args)


def _names_a_ruleset(word: str) -> bool:
    from trainer.core.errors import RulesetError
    from trainer.core.rulesfile import find_ruleset
    from trainer.core.tomlfiles import names_a_file

    if names_a_file(word):
        return True
    try:
        find_ruleset(word)
    except RulesetError:
        return False
    return True


@click.group("rules", cls=_RulesGroup)
def command() -> None:
    """The rule sets, and one rule set in full (`rules NAME` is short for `rules show NAME`)."""


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
    from trainer.render.pager import paged_console
    from trainer.render.rules import print_ruleset_list

    with paged_console(allowed=paging()) as console:
        print_ruleset_list(console, rulesets)


@command.command("show")
@click.argument("name", metavar="NAME|PATH")
@json_option
@pager_option
def show_rules(name: str, as_json: bool) -> None:
    """One rule set in full: a built-in name or alias, or a path to your own TOML file."""
    from trainer.core.rules import ruleset_to_dict
    from trainer.core.rulesfile import load_ruleset

    ruleset = load_ruleset(name)
    if as_json:
        emit_json(ruleset_to_dict(ruleset))
        return
    from trainer.render.pager import paged_console
    from trainer.render.rules import print_ruleset

    with paged_console(allowed=paging()) as console:
        print_ruleset(console, ruleset)
