"""`bound-numbers`: the number check's command, for a site whose mkdocs.yml lists the plugin.

    bound-numbers renumber [-f CONFIG] [PAGE ...] [--check] [--pins MARK] [--pins-command CMD]
    bound-numbers check [-f CONFIG] [PAGE ...]
    bound-numbers --version

CONFIG is the site's configuration file; without -f, the first of properdocs.yml,
properdocs.yaml, mkdocs.yml and mkdocs.yaml in the working directory, as ProperDocs looks.
The site's configuration is loaded as a build loads it (`mkdocs.config.load_config`); every
plugin is told the command started and runs its `on_config` and `on_pre_build`, so that a
provider which is another plugin of the site is set up as for a build (its cache, its runner).
The bound-numbers plugin's provider then gives each page's values. The pages are every Markdown
file under docs_dir and the provider's `bound_sources`, or those named. `renumber` rewrites
the numbers whose values moved (renumber.py); `check`, like `renumber --check`, writes nothing
and prints each page's problems with its numbers as the build says them. Exit status: 0 when
nothing is left to do, 1 when something is, 2 when a file named does not exist or the site's
configuration cannot be used.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path

from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import Abort, ConfigurationError, PluginError

from bound_numbers import notebooks
from bound_numbers.plugin import BoundNumbersPlugin
from bound_numbers.renumber import Page, one_line, renumber_pages
from bound_numbers.values import Sources


def parser() -> argparse.ArgumentParser:
    made = argparse.ArgumentParser(
        prog="bound-numbers", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    made.add_argument("--version", action="version", version=f"%(prog)s {metadata.version('bound-numbers')}")
    commands = made.add_subparsers(dest="command", required=True, metavar="{renumber,check}")
    renumber = commands.add_parser("renumber", help="rewrite each number whose value moved")
    check = commands.add_parser("check", help="write nothing: print each page's problems with its numbers")
    for command in (renumber, check):
        command.add_argument(
            "-f",
            "--config-file",
            type=Path,
            help=f"the site's configuration (default: the first of {', '.join(CONFIGS)} here)",
        )
        command.add_argument("pages", nargs="*", type=Path, help="the pages (default: all of the site's)")
    renumber.add_argument("--check", action="store_true", help="write nothing: print each page's problems")
    renumber.add_argument(
        "--pins", metavar="MARK", help="then run the tests marked MARK, which a person edits"
    )
    renumber.add_argument("--pins-command", metavar="COMMAND", help="the command the summary names for them")
    return made


CONFIGS = ("properdocs.yml", "properdocs.yaml", "mkdocs.yml", "mkdocs.yaml")


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    named = f"{args.command}:"
    if args.config_file is None:
        found = next((Path(name) for name in CONFIGS if Path(name).is_file()), None)
        if found is None:
            print(f"{named} no {' or '.join(CONFIGS[::2])} here: name the site's with -f", file=sys.stderr)
            return 2
        args.config_file = found
    if absent := [p for p in [args.config_file, *args.pages] if not os.path.lexists(p)]:
        print(f"{named} {', '.join(map(str, absent))} does not exist", file=sys.stderr)
        return 2
    try:
        config = load_config(config_file=str(args.config_file))
    except (Abort, ConfigurationError) as error:  # what is wrong in it is logged above
        print(f"{named} {args.config_file}: {one_line(str(error))}", file=sys.stderr)
        return 2
    config.plugins.on_startup(command=args.command, dirty=False)
    try:
        config = config.plugins.on_config(config)
        config.plugins.on_pre_build(config=config)
        site = _number_check(config, args.config_file)
        root = Path(config.config_file_path).parent
        pages = _pages(args.pages, site, config, root)
        return renumber_pages(
            pages,
            site.provider,
            site.declared,
            site.problems,
            check=args.command == "check" or args.check,
            pins=getattr(args, "pins", None),
            pins_command=getattr(args, "pins_command", None),
        )
    except PluginError as error:
        print(f"{named} {one_line(str(error))}", file=sys.stderr)
        return 2
    finally:
        config.plugins.on_shutdown()


def _number_check(config: MkDocsConfig, named: Path) -> BoundNumbersPlugin:
    found = [p for p in config.plugins.values() if isinstance(p, BoundNumbersPlugin)]
    if not found:
        raise PluginError(f"{named} lists no bound-numbers plugin under plugins:")
    return found[0]


def _pages(named: Sequence[Path], site: BoundNumbersPlugin, config: MkDocsConfig, root: Path) -> list[Page]:
    """The pages named, or every Markdown file under docs_dir (none in a folder or file whose
    name starts with a dot, which mkdocs leaves out too), the notebooks there too where the site
    shows them (it lists mkdocs-jupyter), and then the provider's other pages."""
    sources = site.provider.bound_sources()
    if named:
        shown = [os.path.relpath(path.absolute(), root) for path in named]
        return [_page(path, name, root, sources) for path, name in zip(named, shown, strict=True)]
    docs = Path(config.docs_dir)
    kinds = ["*.md", f"*{notebooks.SUFFIX}"] if "mkdocs-jupyter" in config.plugins else ["*.md"]
    found = [
        p
        for kind in kinds
        for p in sorted(docs.rglob(kind))
        if not any(part.startswith(".") for part in p.relative_to(docs).parts)
    ]
    return [
        *(_page(path, os.path.relpath(path, root), root, sources) for path in found),
        *(Page(root / name, name, prose) for name, prose in sources.items()),
    ]


def _page(path: Path, shown: str, root: Path, sources: Sources) -> Page:
    """The page at `path` (`shown` from `root`): a notebook read by its cells, one of the
    provider's `sources` as it says, any other as Markdown."""
    if path.suffix == notebooks.SUFFIX:
        workdir = os.path.relpath(path.absolute().parent, root)
        return Page(path, shown, functools.partial(notebooks.prose, workdir=workdir), notebooks.where)
    return Page(path, shown, sources.get(shown, str))


if __name__ == "__main__":
    sys.exit(main())
