"""The dlx command, in process and as a real subprocess."""
import subprocess
import sys

from dlx.cli import main

from conftest import EXAMPLES


def test_reports_size(capsys):
    assert main([str(EXAMPLES / "queens8.dlx")]) == 0
    out = capsys.readouterr().out
    assert "42 items (16 primary, 26 secondary), 64 options" in out


def test_bad_file_exits_nonzero_naming_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.dlx"
    bad.write_text("a b\na\nb q\n")
    assert main([str(bad)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "line 3: unknown item 'q'" in captured.err


def test_missing_file(tmp_path, capsys):
    assert main([str(tmp_path / "nope.dlx")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_python_m_dlx(tmp_path):
    ok = subprocess.run([sys.executable, "-m", "dlx", str(EXAMPLES / "knuth.dlx")],
                        capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "7 items (7 primary, 0 secondary), 6 options" in ok.stdout
    bad = tmp_path / "bad.dlx"
    bad.write_text("a\n\na a\n")
    failed = subprocess.run([sys.executable, "-m", "dlx", str(bad)], capture_output=True, text=True)
    assert failed.returncode == 1
    assert "line 3: item 'a' appears twice" in failed.stderr
