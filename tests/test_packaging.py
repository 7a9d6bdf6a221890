"""The built package is the whole site: installed from its wheel, away from the source tree, it
serves Dutch pages, prints Dutch documents and collects its static files."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

from django.conf import settings
from pypdf import PdfReader

ROOT = Path(settings.BASE_DIR)
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
MAPPED = PYPROJECT["tool"]["setuptools"]["package-dir"]


def test_the_package_list_names_every_package_of_the_tree() -> None:
    listed = set(PYPROJECT["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT).parts)
        for top in ("config", "engine", "tournaments", "documents", "ratings", "api")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert listed - set(MAPPED) == found
    assert MAPPED == {
        "config.templates": "templates",
        "config.static": "static",
        "config.locale": "locale",
    }


def test_the_settings_find_the_site_files_of_the_source_tree() -> None:
    assert Path(settings.TEMPLATES_DIR) == ROOT / "templates"
    assert Path(settings.STATIC_DIR) == ROOT / "static"
    assert settings.LOCALE_PATHS == [ROOT / "locale"]


def test_the_dependencies_are_pinned_for_every_extra() -> None:
    """constraints.txt (make lock) pins every dependency the project names, and only exact pins."""
    pins = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"constraints.txt: {line!r} is not pinned to one version"
            pins[name.lower().replace("_", "-")] = version
    named = list(PYPROJECT["project"]["dependencies"])
    for extra in PYPROJECT["project"]["optional-dependencies"].values():
        named += extra
    for requirement in named:
        name = requirement.split(";")[0]
        for mark in "[<>=!~ ":
            name = name.split(mark)[0]
        assert name.lower().replace("_", "-") in pins, f"{name} has no pin in constraints.txt"


SITE_SCRIPT = """
import json, sys
import django
django.setup()
import config
from django.conf import settings
from django.test import Client
from django.test.utils import setup_test_environment

setup_test_environment()
client = Client(headers={"accept-language": "nl"})
home = client.get("/")
event = client.get("/events/demo/standings/")
french = Client(headers={"accept-language": "fr"}).get("/events/demo/standings/")
print(json.dumps({
    "config": config.__file__,
    "templates": str(settings.TEMPLATES_DIR),
    "sys_path": sys.path,
    "home": [home.status_code, home.content.decode()],
    "event": [event.status_code, event.content.decode()],
    "french": [french.status_code, french.content.decode()],
}))
"""


def test_the_wheel_installed_outside_the_source_tree_speaks_dutch(tmp_path: Path) -> None:
    # The wheel is built from the sdist, as a release is: both must carry the site's files.
    dist = tmp_path / "dist"
    build = [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist), str(ROOT)]
    subprocess.run(build, check=True, capture_output=True, timeout=300)
    wheel = next(dist.glob("troef-*.whl"))

    # A fresh environment with the wheel alone; its dependencies are the test run's own, found
    # through a .pth file (which adds a directory, and runs none of that directory's .pth files,
    # so the checkout's editable install stays out).
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet"]
    subprocess.run([*install, "--no-deps", str(wheel)], check=True, capture_output=True)
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    (Path(purelib) / "test_run_dependencies.pth").write_text(sysconfig.get_paths()["purelib"])

    site = tmp_path / "site"
    site.mkdir()
    environment = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LANG": "C.UTF-8"}

    def troef(*args: str) -> str:
        command = [str(venv / "bin" / "troef"), *args]
        done = subprocess.run(
            command, cwd=site, env=environment, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, f"troef {' '.join(args)}:\n{done.stdout}\n{done.stderr}"
        return done.stdout

    troef("migrate", "--noinput", "-v", "0")
    troef("demo")
    served = json.loads(
        subprocess.run(
            [str(python), "-c", SITE_SCRIPT],
            cwd=site,
            env={**environment, "DJANGO_SETTINGS_MODULE": "config.settings"},
            check=True,
            capture_output=True,
            text=True,
            timeout=120,
        ).stdout
    )
    assert served["config"].startswith(purelib)
    assert served["templates"] == str(Path(purelib) / "config" / "templates")
    assert str(ROOT) not in served["sys_path"]
    assert served["home"][0] == 200
    assert "Tornooien" in served["home"][1]
    assert served["event"][0] == 200
    assert "Klassement" in served["event"][1]
    assert served["french"][0] == 200
    assert "Classement" in served["french"][1]

    # A Dutch document, printed by the installed package with its own fonts and catalog.
    troef("reports", "--event", "demo", "--standings", "--language", "nl", "--out", "pdf")
    (pdf,) = (site / "pdf").glob("*.pdf")
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.read_bytes())).pages)
    assert "Klassement" in text
    assert "Standings" not in text

    # Its static files, for the web server in front.
    troef("collectstatic", "--noinput", "-v", "0")
    assert (site / "var" / "static" / "troef" / "troef.css").is_file()
    assert (site / "var" / "troef.sqlite3").is_file()
