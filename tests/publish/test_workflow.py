"""The GitHub workflows, checked here because they can only run on GitHub.

Each is validated offline against the workflow schema that check-jsonschema vendors. The Pages
workflow is held to the two promises README makes about it: it builds with the contributors'
own nox sessions, and everything that names a repository comes from the environment mkdocs.yml
reads. The release workflow to its own: on a version tag only, the version the tag names, the
sdist and wheel it built uploaded by trusted publishing, no token anywhere.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"
RELEASE = ROOT / ".github" / "workflows" / "release.yml"
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _validate(path: Path) -> subprocess.CompletedProcess[str]:
    check = [
        sys.executable,
        "-m",
        "check_jsonschema",
        "--builtin-schema",
        "vendor.github-workflows",
        str(path),
    ]
    return subprocess.run(check, capture_output=True, text=True, check=False)


@pytest.fixture(scope="module")
def workflow() -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return loaded


def _steps(workflow: dict[Any, Any]) -> list[dict[str, Any]]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


@pytest.mark.parametrize("path", [WORKFLOW, RELEASE], ids=lambda p: p.name)
def test_each_workflow_matches_the_github_workflow_schema(path: Path) -> None:
    done = _validate(path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_rejects_a_workflow_with_a_job_that_runs_nowhere(tmp_path: Path) -> None:
    broken = WORKFLOW.read_text(encoding="utf-8").replace("runs-on: ubuntu-latest", "runs_on: x")
    assert broken != WORKFLOW.read_text(encoding="utf-8")
    (tmp_path / "pages.yml").write_text(broken, encoding="utf-8")
    assert _validate(tmp_path / "pages.yml").returncode != 0


def _sessions() -> set[str]:
    """The nox sessions noxfile.py defines: every function under a `@nox.session` decorator."""
    tree = ast.parse((ROOT / "noxfile.py").read_text(encoding="utf-8"))
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and any("session" in ast.unparse(d) for d in node.decorator_list)
    }


def test_the_workflow_builds_with_the_nox_sessions_contributors_run(
    workflow: dict[Any, Any],
) -> None:
    runs = [step["run"] for step in _steps(workflow) if "run" in step]
    asked = {m for run in runs for m in re.findall(r"\bnox\b[^\n]*?-s\s+([\w-]+)", run)}
    assert "docs" in asked, f"the workflow never builds the book with `nox -s docs`: {runs}"
    assert asked <= _sessions(), f"sessions noxfile.py does not define: {asked - _sessions()}"


def test_the_workflow_deploys_the_built_site(workflow: dict[Any, Any]) -> None:
    uses = {step["uses"].split("@")[0]: step for step in _steps(workflow) if "uses" in step}
    assert uses["actions/upload-pages-artifact"]["with"]["path"] == "site"
    assert "actions/deploy-pages" in uses
    assert workflow["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}


def test_every_address_mkdocs_reads_from_the_environment_is_set_by_the_workflow(
    workflow: dict[Any, Any],
) -> None:
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    defaults = dict(re.findall(r"!ENV \[(\w+), *([^\]]*)\]", config))
    read = {name for name in defaults if name.endswith(("_URL", "_URI", "_NAME"))}
    assert {"BOOK_SITE_URL", "BOOK_REPO_URL", "BOOK_EDIT_URI"} <= read, read
    jobs = workflow["jobs"].values()
    given = {k for job in jobs for k in job.get("env", {})}
    given |= {k for step in _steps(workflow) for k in step.get("env", {})}
    assert read <= given, f"left at mkdocs.yml's placeholder when published: {read - given}"
    # The rest are switches for a contributor's preview (`nox -s serve` leaves the print page
    # out): the published book keeps their defaults, the print page included.
    assert defaults.get("BOOK_PRINT_PAGE") == "true", defaults
    assert not (set(defaults) - read) & given, "the workflow changes a preview switch"
    values = [v for job in jobs for k, v in job.get("env", {}).items() if k in read]
    values += [v for step in _steps(workflow) for k, v in step.get("env", {}).items() if k in read]
    typed = [v for v in values if "${{" not in str(v)]
    assert not typed, f"addresses typed into the workflow instead of read from GitHub: {typed}"


@pytest.fixture(scope="module")
def release() -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    return loaded


def test_a_release_starts_from_a_version_tag_and_nothing_else(release: dict[Any, Any]) -> None:
    assert release[True] == {"push": {"tags": ["v*"]}}  # YAML reads the key `on` as true


def test_only_the_upload_job_may_ask_for_an_identity_token(release: dict[Any, Any]) -> None:
    assert release["permissions"] == {"contents": "read"}
    asking = {name for name, job in release["jobs"].items() if "id-token" in job.get("permissions", {})}
    assert asking == {"publish"}
    assert release["jobs"]["publish"]["permissions"] == {"id-token": "write"}


def test_the_release_uploads_what_it_built_by_trusted_publishing(release: dict[Any, Any]) -> None:
    build, publish = release["jobs"]["build"]["steps"], release["jobs"]["publish"]["steps"]
    [built] = [
        re.search(r"\buv build --out-dir (\S+)$", s["run"]) for s in build if "uv build" in s.get("run", "")
    ]
    assert built, "the build job builds no sdist and wheel with `uv build`"
    [kept] = [s for s in build if s.get("uses", "").startswith("actions/upload-artifact@")]
    [fetched] = [s for s in publish if s.get("uses", "").startswith("actions/download-artifact@")]
    assert kept["with"]["path"].rstrip("/") == built[1] == fetched["with"]["path"].rstrip("/") == "dist"
    assert kept["with"]["name"] == fetched["with"]["name"]
    [upload] = [s for s in publish if s.get("uses", "").startswith("pypa/gh-action-pypi-publish@")]
    assert not {"password", "user", "repository-url"} & set(upload.get("with", {})), upload
    assert release["jobs"]["publish"]["needs"] == "build"


def test_the_release_environment_names_the_distribution_pyproject_builds(release: dict[Any, Any]) -> None:
    environment = release["jobs"]["publish"]["environment"]
    assert environment["name"] == "pypi"
    assert environment["url"] == f"https://pypi.org/project/{PROJECT['name']}/"


def _tag_check(release: dict[Any, Any]) -> str:
    [step] = [s for s in release["jobs"]["build"]["steps"] if "GITHUB_REF_NAME" in s.get("run", "")]
    return str(step["run"])


@pytest.mark.parametrize(("tag", "passes"), [(f"v{PROJECT['version']}", True), ("v99.0.0", False)])
def test_the_release_stops_unless_the_tag_names_pyprojects_version(
    release: dict[Any, Any], tag: str, passes: bool
) -> None:
    environment = {
        **os.environ,
        "GITHUB_REF_NAME": tag,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    done = subprocess.run(
        ["bash", "-e", "-c", _tag_check(release)], cwd=ROOT, env=environment, capture_output=True, text=True
    )
    assert (done.returncode == 0) == passes, done.stdout + done.stderr
