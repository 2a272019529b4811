"""bound-numbers' release workflow, checked here because it can only run on GitHub: validated
offline against the workflow schema check-jsonschema vendors, and held to its promises. It
starts on a bound-numbers tag only (never the book package's `v*`), checks that the tag names
bound/pyproject.toml's version and that the changelog has its section, builds bound/ alone, and
uploads what it built by trusted publishing, no token anywhere."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

BOUND = Path(__file__).resolve().parents[1]
ROOT = BOUND.parent
RELEASE = ROOT / ".github" / "workflows" / "bound-numbers-release.yml"
PROJECT = tomllib.loads((BOUND / "pyproject.toml").read_text(encoding="utf-8"))["project"]
TAG = f"bound-numbers-v{PROJECT['version']}"


@pytest.fixture(scope="module")
def release() -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    return loaded


def _steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = job["steps"]
    return steps


def test_the_workflow_matches_the_github_workflow_schema() -> None:
    check = [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows"]
    done = subprocess.run([*check, str(RELEASE)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_release_starts_from_a_bound_numbers_tag_and_nothing_else(release: dict[Any, Any]) -> None:
    assert release[True] == {"push": {"tags": ["bound-numbers-v*"]}}  # YAML reads the key `on` as true
    assert not TAG.startswith("v")  # the book package's release.yml starts on v*: never on this tag


def test_only_the_upload_job_may_ask_for_an_identity_token(release: dict[Any, Any]) -> None:
    assert release["permissions"] == {"contents": "read"}
    asking = {name for name, job in release["jobs"].items() if "id-token" in job.get("permissions", {})}
    assert asking == {"publish"}
    assert release["jobs"]["publish"]["permissions"] == {"id-token": "write"}


def test_the_release_builds_bound_alone_and_uploads_what_it_built_by_trusted_publishing(
    release: dict[Any, Any],
) -> None:
    build, publish = _steps(release["jobs"]["build"]), _steps(release["jobs"]["publish"])
    [built] = [
        re.search(r"\buv build (\S+) --out-dir (\S+)$", s["run"])
        for s in build
        if "uv build" in s.get("run", "")
    ]
    assert built and built[1] == "bound"
    [kept] = [s for s in build if s.get("uses", "").startswith("actions/upload-artifact@")]
    [fetched] = [s for s in publish if s.get("uses", "").startswith("actions/download-artifact@")]
    assert kept["with"]["path"].rstrip("/") == built[2] == fetched["with"]["path"].rstrip("/") == "dist"
    assert kept["with"]["name"] == fetched["with"]["name"]
    [upload] = [s for s in publish if s.get("uses", "").startswith("pypa/gh-action-pypi-publish@")]
    assert not {"password", "user", "repository-url"} & set(upload.get("with", {})), upload
    assert release["jobs"]["publish"]["needs"] == "build"


def test_the_release_environment_names_the_distribution_bound_builds(release: dict[Any, Any]) -> None:
    environment = release["jobs"]["publish"]["environment"]
    assert environment["name"] == "pypi-bound-numbers"
    assert environment["url"] == f"https://pypi.org/project/{PROJECT['name']}/"


def _tag_check(release: dict[Any, Any]) -> str:
    [step] = [s for s in _steps(release["jobs"]["build"]) if "GITHUB_REF_NAME" in s.get("run", "")]
    return str(step["run"])


@pytest.mark.parametrize(
    ("tag", "changelog", "passes"),
    [(TAG, True, True), ("bound-numbers-v99.0.0", True, False), (TAG, False, False)],
    ids=["its version", "another version", "no changelog section"],
)
def test_the_release_stops_unless_the_tag_names_the_version_and_the_changelog_says_it(
    release: dict[Any, Any], tmp_path: Path, tag: str, changelog: bool, passes: bool
) -> None:
    (tmp_path / "bound").mkdir()
    (tmp_path / "bound" / "pyproject.toml").write_bytes((BOUND / "pyproject.toml").read_bytes())
    said = (BOUND / "CHANGELOG.md").read_text(encoding="utf-8")
    if not changelog:
        said = said.replace(f"## {PROJECT['version']}\n", "## Unreleased\n")
    (tmp_path / "bound" / "CHANGELOG.md").write_text(said, encoding="utf-8")
    environment = {
        **os.environ,
        "GITHUB_REF_NAME": tag,
        "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
    }
    done = subprocess.run(
        ["bash", "-e", "-c", _tag_check(release)],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
    )
    assert (done.returncode == 0) == passes, done.stdout + done.stderr


def test_the_version_the_command_says_is_the_one_released_and_the_changelog_starts_with_it() -> None:
    from importlib import metadata

    assert metadata.version("bound-numbers") == PROJECT["version"]
    headings = re.findall(r"^## (\S+)$", (BOUND / "CHANGELOG.md").read_text(encoding="utf-8"), re.M)
    assert headings[0] == PROJECT["version"]
