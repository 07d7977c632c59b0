"""Knuth's DLX format: good files give the right problem, every malformed case names its line."""
import io
import string

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import EXAMPLES, links_of

import dlx
from dlx import ExactCover, ProblemError, ProblemWarning, read_dlx, write_dlx
from dlx.engines.links import SPACER

#: Options without a primary item (all-zero rows and the like) are skipped with a warning, as
#: they should be; test_colours checks the warning itself.
pytestmark = pytest.mark.filterwarnings("ignore::dlx.ProblemWarning")


def test_knuth_example():
    ec = read_dlx(EXAMPLES / "knuth.dlx")
    assert ec.items == tuple("abcdefg")
    assert (ec.n_primary, ec.n_secondary, ec.n_options) == (7, 0, 6)
    assert [ec.option(k) for k in range(6)] == [
        ("c", "e"), ("a", "d", "g"), ("b", "c", "f"), ("a", "d", "f"), ("b", "g"), ("d", "e", "g")]
    assert ec.option_start.tolist() == [0, 2, 5, 8, 11, 13, 16]
    ec.check()


@pytest.mark.parametrize("n", [4, 8])
def test_queens_examples(n):
    ec = read_dlx(EXAMPLES / f"queens{n}.dlx")
    assert ec.n_primary == 2 * n                      # one item per row and per column
    assert ec.n_secondary == 2 * (2 * n - 3)          # the diagonals longer than one square
    assert ec.n_options == n * n
    assert ec.items[:2] == (f"r{n // 2}", f"c{n // 2}")   # organ-pipe order, centre first
    ec.check()


def test_shared_files_parse(shared_dlx):
    files = sorted(shared_dlx.glob("*.dlx"))
    assert len(files) >= 5
    for path in files:
        ec = read_dlx(path)
        ec.check()
        if path.stem.startswith("queens"):
            n = int(path.stem[6:])
            assert (ec.n_primary, ec.n_options) == (2 * n, n * n)


def test_links_follow_dlx1_layout():
    ec = read_dlx(EXAMPLES / "knuth.dlx")
    n = ec.n_items
    L = links_of(ec)
    # item 'a' (1) is in options 1 and 3: its list runs header -> node of option 1 -> node of option 3
    first_a = L.dlink[1]
    second_a = L.dlink[first_a]
    assert L.top[first_a] == L.top[second_a] == 1 and L.dlink[second_a] == 1
    assert L.length.tolist() == [0, 2, 2, 2, 3, 2, 2, 3]
    # spacers: node n+1 first, then one after each option, top = SPACER | (number of the option before)
    spacers = np.flatnonzero(L.top[n + 1:] >= SPACER) + n + 1
    assert spacers.tolist() == [8, 11, 15, 19, 23, 26, 30]
    assert (L.top[spacers] ^ SPACER).tolist() == [0x7FFFFFFF, 0, 1, 2, 3, 4, 5]


def test_comments_blank_lines_and_secondary():
    text = "| header comment\n\n  | indented comment\na b | x y\n\nb x\n| between\na y\n"
    ec = read_dlx(io.StringIO(text))
    assert ec.items == ("a", "b", "x", "y") and ec.n_primary == 2
    assert [ec.option(k) for k in range(2)] == [("b", "x"), ("a", "y")]
    ec.check()


def test_binary_file_object_and_path_str(tmp_path):
    path = tmp_path / "p.dlx"
    path.write_bytes("é b\né\nb\n".encode())
    assert read_dlx(str(path)).items == ("é", "b")
    with open(path, "rb") as f:
        assert read_dlx(f).n_options == 2


@pytest.mark.parametrize("text, line, fragment", [
    ("| only a comment\n\n", None, "no item line"),
    ("a b a\na\n", 1, "'a' is declared twice"),
    ("a | x | y\na\n", 1, "'|' more than once"),
    ("a b|x\na\n", 1, "separate '|' with blanks"),
    ("a b\na\n| ok\nb c\n", 4, "unknown item 'c'"),
    ("a b\na b a\n", 2, "'a' appears twice"),
    ("a | x\na\nx:1 y\n", 3, "unknown item 'y'"),
    ("a | x\nx:\n", 2, "not item:colour"),
    ("a | x\na:1\n", 2, "primary item 'a' cannot have a colour"),
    ("2:1|a\na\n", 1, "lower bound 2 exceeds the upper bound 1"),
    ("0|a\na\n", 1, "upper bound is 0"),
    ("a | 2|x\na\n", 1, "only primary items take bounds"),
    ("a1:2|b\na\n", 1, "neither an item name nor bounds"),
])
def test_malformed_files_name_the_line(text, line, fragment):
    with pytest.raises(ProblemError) as info:
        read_dlx(io.StringIO(text))
    assert fragment in str(info.value)
    assert info.value.line == line
    if line is not None:
        assert f"line {line}:" in str(info.value)


def test_not_utf8_names_the_line(tmp_path):
    path = tmp_path / "bad.dlx"
    path.write_bytes(b"a b\na\nb \xff\n")
    with pytest.raises(ProblemError, match=r"bad\.dlx, line 3: not UTF-8"):
        read_dlx(path)


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="absent.dlx"):
        read_dlx(tmp_path / "absent.dlx")


def test_problem_error_is_value_error():
    assert issubclass(ProblemError, ValueError)
    assert isinstance(dlx.__version__, str) and dlx.__version__[0].isdigit()


@pytest.mark.parametrize("options, kwargs, fragment", [
    ([], {}, "no primary items"),
    ([["a", "b", "a"]], {}, "'a' appears twice"),
    ([["a", ("a", 1)]], {"primary": ["a"]}, "primary item 'a' cannot have a colour"),
    ([[("x", 1)]], {"primary": [("x", 1)], "secondary": ["x"]}, "both a declared item and item 'x'"),
    ([["a"]], {"bounds": {"z": 1}}, "unknown item 'z'"),
    ([["a", "x"]], {"secondary": ["x"], "bounds": {"x": 2}}, "item 'x' is secondary"),
    ([["a"]], {"bounds": {"a": (3, 2)}}, "lower bound 3 exceeds the upper bound 2"),
    ([["a"]], {"bounds": {"a": (-1, 2)}}, "bounds must be whole numbers"),
    ([["a"]], {"bounds": {"a": 1.5}}, "bounds must be whole numbers"),
    ([["a"]], {"bounds": {"a": (1, 2, 3)}}, "neither a number nor a pair"),
    ([["a"]], {"bounds": {"a": 0}}, "upper bound is 0"),
    ([["a"]], {"bounds": {"a": 2 ** 31}}, "too large"),
    ([["a"], ["z"]], {"primary": ["a"]}, "unknown item 'z'"),
    ([["a"]], {"primary": ["a"], "secondary": ["a"]}, "declared twice"),
])
def test_bad_options(options, kwargs, fragment):
    with pytest.raises(ProblemError, match=fragment):
        ExactCover(options, **kwargs)


def test_item_order():
    ec = ExactCover([["b", "x"], ["a", "c"]], secondary=["x"])
    assert ec.items == ("b", "a", "c", "x")
    ec = ExactCover([["b", "x"], ["a", "c"]], primary=["c", "b", "a", "d"], secondary=["x"])
    assert ec.items == ("c", "b", "a", "d", "x") and links_of(ec).length[4] == 0


names = st.text(alphabet=string.ascii_letters + string.digits + "_-.", min_size=1, max_size=4)


@st.composite
def problems(draw):
    """Random problems: item names, how many are primary, and options that each hold a primary item."""
    items = draw(st.lists(names, min_size=1, max_size=10, unique=True))
    n_primary = draw(st.integers(1, len(items)))
    options = []
    for _ in range(draw(st.integers(0, 12))):
        option = draw(st.lists(st.sampled_from(items), min_size=1, max_size=len(items), unique=True))
        if not any(items.index(name) < n_primary for name in option):
            option.append(draw(st.sampled_from(items[:n_primary])))
        options.append(option)
    return items[:n_primary], items[n_primary:], options


@settings(max_examples=150, deadline=None)
@given(problems())
def test_file_and_lists_give_the_same_problem(problem):
    primary, secondary, options = problem
    text = " ".join(primary) + (" | " + " ".join(secondary) if secondary else "") + "\n"
    text += "".join(" ".join(option) + "\n" for option in options)
    from_file = read_dlx(io.StringIO(text))
    from_lists = ExactCover(options, primary=primary, secondary=secondary)
    for ec in (from_file, from_lists):
        ec.check()
        assert ec.items == tuple(primary + secondary)
        assert [list(ec.option(k)) for k in range(ec.n_options)] == options
    assert np.array_equal(links_of(from_file).dlink, links_of(from_lists).dlink)


@settings(max_examples=150, deadline=None)
@given(problems())
def test_write_then_read_gives_the_problem_back(tmp_path_factory, problem):
    primary, secondary, options = problem
    ec = ExactCover(options, primary=primary, secondary=secondary)
    path = tmp_path_factory.mktemp("w") / "p.dlx"
    back = read_dlx(write_dlx(ec, path))
    assert back.items == ec.items and back.n_primary == ec.n_primary
    assert [back.option(k) for k in range(len(back))] == [ec.option(k) for k in range(len(ec))]
    assert back.count() == ec.count()
    text = io.StringIO()
    write_dlx(ec, text)
    assert text.getvalue() == path.read_text()


def test_write_shipped_example_round_trip(tmp_path):
    ec = read_dlx(EXAMPLES / "queens8.dlx")
    back = read_dlx(write_dlx(ec, tmp_path / "q.dlx"))
    assert np.array_equal(links_of(back).dlink, links_of(ec).dlink) and back.count() == 92
    assert (back.stats.nodes, back.stats.updates) == (1049, 16680)


def test_write_matrix_problem_keeps_every_row_at_its_number(tmp_path):
    m = np.array([[1, 0, 0], [0, 0, 0], [0, 1, 1], [0, 0, 1], [0, 1, 0]])
    ec = ExactCover.from_matrix(m, secondary=1)
    text = (write_dlx(ec, tmp_path / "m.dlx")).read_text().splitlines()
    assert text[1:] == ["0 1 | 2", "0", "| empty option", "1 2", "2", "1"]
    with pytest.warns(ProblemWarning, match="line 4"):
        back = read_dlx(tmp_path / "m.dlx")
    assert [back.option(k) for k in range(5)] == [("0",), (), ("1", "2"), ("2",), ("1",)]
    assert list(back.solutions()) == list(ec.solutions()) == [(0, 2), (0, 4)]
    # Python ints become names "0", "1", ...; the same names for two items cannot be written
    with pytest.raises(ProblemError, match="both written '1'"):
        write_dlx(ExactCover([[1, "1"]]), io.StringIO())


@pytest.mark.parametrize("name", ["a b", "", "x|y"])
def test_unwritable_names(name):
    with pytest.raises(ProblemError, match="cannot be written"):
        write_dlx(ExactCover([["a", name]]), io.StringIO())


def test_read_from_stdin(monkeypatch):
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"a b\na\nb\na b\n")))
    ec = read_dlx("-")
    assert ec.n_options == 3 and ec.count() == 2
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"a b\na\nb c\n")))
    with pytest.raises(ProblemError, match=r"<stdin>, line 3: unknown item 'c'"):
        read_dlx("-")
    monkeypatch.setattr("sys.stdin", io.StringIO("a\na\n"))     # a text stream without .buffer
    assert read_dlx("-").count() == 1


DLX2_EXAMPLE = """| A simple example of color controls
A B C | X Y
A B X:0 Y:0
A C X:1 Y:1
X:0 Y:1
B X:1
C Y:1
"""


def test_colon_in_an_item_name_is_refused():
    with pytest.raises(ProblemError, match=r"line 1: item name 'x:A' contains ':'") as info:
        read_dlx(io.StringIO("a x:A\na\n"))
    assert info.value.line == 1
    with pytest.raises(ProblemError, match="cannot be written"):
        write_dlx(ExactCover([["a", "x:A"]]), io.StringIO())


def test_a_byte_order_mark_is_skipped_from_every_source(tmp_path, monkeypatch):
    text = "\ufeff| queens 1\nr0 c0\nr0 c0\n"
    path = tmp_path / "bom.dlx"
    path.write_text(text, encoding="utf-8")
    with open(path, "rb") as binary, open(path, encoding="utf-8") as plain:
        sources = [path, str(path), io.StringIO(text), binary, plain]
        problems = [read_dlx(source) for source in sources]
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text.encode())))
    problems.append(read_dlx("-"))
    assert all(p.items == ("r0", "c0") and p.count() == 1 for p in problems)
    no_comment = tmp_path / "bom2.dlx"
    no_comment.write_text("\ufeffa b\na b\n", encoding="utf-8")
    assert read_dlx(no_comment).items == ("a", "b")
