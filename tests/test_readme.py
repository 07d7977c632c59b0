"""The shell examples of the README and of docs/ run as shown: each `$ command` line and the
output under it. (Their Python examples run as doctests: pytest's --doctest-glob.)"""
import doctest
import os
import re
import subprocess
import sys

import pytest
from support import ROOT, messages

#: The pages whose examples run: the README and every page of docs/.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def shell_examples():
    examples = []
    for page in PAGES:
        for block in re.findall(r"```sh\n(.*?)```", page.read_text(), re.DOTALL):
            for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
                command, _, output = chunk.partition("\n")
                examples.append(pytest.param(command, output, id=f"{page.name}: {command}"))
    return examples


@pytest.mark.parametrize("command, output", shell_examples())
def test_readme_shell_example(command, output):
    env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])
    done = subprocess.run(command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    shows = doctest.OutputChecker().check_output
    # An example shows stdout, then stderr where it has any: stderr is compared only when stdout
    # alone is not what the example shows, so an unrelated line on stderr cannot fail it.
    if not shows(output, done.stdout, doctest.ELLIPSIS):
        got = done.stdout + messages(done.stderr)
        assert shows(output, got, doctest.ELLIPSIS), f"{command}\nexpected:\n{output}\ngot:\n{got}"


def test_every_shell_example_is_collected():
    blocks = [b for page in PAGES for b in re.findall(r"```sh\n(.*?)```", page.read_text(), re.DOTALL)]
    prompts = sum(line.startswith("$ ") for block in blocks for line in block.splitlines())
    assert len(shell_examples()) == prompts and prompts > 0
