from __future__ import annotations

import subprocess
import sys

from typer.testing import CliRunner

from opsbench import __version__
from opsbench.cli import app


def test_version_flag_prints_the_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"opsbench {__version__}"


def test_tools_list_shows_effect_classes():
    result = CliRunner().invoke(app, ["tools", "list"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "send_sms" in result.output and "irreversible" in result.output


def test_help_imports_no_provider_sdk():
    code = (
        "import sys; from typer.testing import CliRunner; from opsbench.cli import app; "
        "CliRunner().invoke(app, ['--help']); "
        "print(sorted(m for m in ('openai', 'anthropic', 'litellm') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
