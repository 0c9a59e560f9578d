from __future__ import annotations

import pytest

from slitherbench.puzzles import formats
from slitherbench.puzzles.puzzle import Puzzle, PuzzleFormatError, answer_from_bits
from slitherbench.sources.library import reference10


def _answer(d: dict) -> list[bool]:
    return [c == "1" for c in d["solution_H"] + d["solution_V"]]


def test_corpus_urls_and_ids_decode_to_the_clues(corpus_record: dict) -> None:
    rows = Puzzle.from_rows(corpus_record["clues"])
    assert rows.rows == corpus_record["rows"] and rows.cols == corpus_record["cols"]
    assert Puzzle.parse(corpus_record["puzzlink"]) == rows
    assert Puzzle.parse("https://puzz.link/p?" + corpus_record["puzzlink"]) == rows
    assert Puzzle.parse(corpus_record["loopy_id"]) == rows


def test_writers_reproduce_the_published_strings(corpus_record: dict) -> None:
    p = Puzzle.parse(corpus_record["loopy_id"])
    assert formats.write_loopy(p) == corpus_record["loopy_id"]
    assert formats.write_puzzlink(p) == "https://puzz.link/p?" + corpus_record["puzzlink"]


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_every_format_round_trips(corpus_record: dict, fmt: str) -> None:
    p = Puzzle.from_rows(corpus_record["clues"])
    text = formats.WRITERS[fmt](p)
    assert formats.detect_format(text) == fmt
    q = Puzzle.parse(text)
    assert q == p
    assert Puzzle.parse(formats.WRITERS[fmt](q)) == p


@pytest.mark.parametrize("fmt", ["ascii", "janko", "pzprv3"])
def test_answer_carrying_formats_round_trip_the_answer(corpus_record: dict, fmt: str) -> None:
    p = Puzzle.from_rows(corpus_record["clues"])
    ans = _answer(corpus_record)
    writer = {
        "ascii": formats.write_ascii,
        "janko": formats.write_janko,
        "pzprv3": formats.write_pzprv3,
    }[fmt]
    q = Puzzle.parse(writer(p, ans))
    assert q == p
    assert q.meta["answer"] == ans


def test_render_matches_the_reference_page() -> None:
    page = (
        "+   +   +   +   +   +   +   +   +   +   +\n"
        "      1   1           0       0       0\n"
        "+   +   +   +   +   +   +   +   +   +   +\n"
        "      2                       2\n"
    )
    assert reference10().render().startswith(page)
    assert Puzzle.parse(reference10().render()) == reference10()


def test_pzprv31_with_cell_marks_and_unknown_clue() -> None:
    text = "pzprv3.1\nslither\n2\n2\n- 3 \n. 1 \n0 1 \n0 0 \n" + "0 0 0 \n" * 2 + "0 0 \n" * 3
    p = Puzzle.parse(text)
    assert p.clues == ((None, 3), (None, 1))
    assert p.meta["unknown_clues"] == 1
    assert "answer" not in p.meta


def test_janko_with_other_sections() -> None:
    text = "[setup]\npuzzle slitherlink\n[problem]\n3 -\n- -\n[solution]\nx -\n- -\n[moves]\n"
    p = Puzzle.parse(text)
    assert p.clues == ((3, None), (None, None))
    assert sum(p.meta["answer"]) == 4


def test_clue_row_separators() -> None:
    a = Puzzle.parse(".1-\n2..")
    assert a == Puzzle.parse(".1.,2..") == Puzzle.parse(".1./2..")
    assert a.clues == ((None, 1, None), (2, None, None))


def test_puzzlink_blank_runs_longer_than_twenty() -> None:
    p = Puzzle.from_rows(["." * 25, "." * 24 + "3"])
    url = formats.write_puzzlink(p)
    assert url.endswith("/zzod")  # 20 + 20 + 9 blanks, then '3' written as 'd' (two past the end)
    assert Puzzle.parse(url) == p


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (".12\n.1", "row 2 has 2 cells, row 1 has 3"),
        (".15\n...", "row 1, column 3: clue 5 is greater than 3"),
        (".1x\n...", "row 1, column 3: unexpected character 'x'"),
        ("", "empty puzzle text"),
        ("https://puzz.link/p?nurikabe/5/5/g3h", "puzzle type 'nurikabe', not slither"),
        ("https://puzz.link/p?slither/5/5/h3880c2ci33chg", "past the 5x5"),
        ("https://puzz.link/p?slither/5/6/h3880c2ci33ch", "covers 25 of the 30 cells"),
        ("https://puzz.link/p?slither/5/5/h38#0c2ci33ch", "body character 4 '#'"),
        ("https://puzz.link/p?slither/5/5/h4880c2ci33ch", "clue 4 is greater than 3"),
        ("https://puzz.link/p?slither/5/h3880c2ci33ch", "expected slither/COLS/ROWS/BODY"),
        ("5x5t0de:b33a3a02b22e332", "covers 21 of the 25 cells"),
        ("5x5t0de:b33a3a02b22e332dd", "runs past the 5x5 board"),
        ("5x5t1de:b33a3a02b22e332d", "covers 25 of the 50 faces"),
        ("5x5t0de:b33a3a!2b22e332d", "description character 7 '!'"),
        ("[problem]\n3 - -\n- 2\n", "line 3: 2 cells, the first [problem] row has 3"),
        ("[problem]\n3 - 7\n", "line 2, cell 3: clue 7 is greater than 3"),
        ("[problem]\n3 -\n- -\n[solution]\nx o\n- -\n", "[solution] cell 'o'"),
        ("pzprv3\nnurikabe\n1\n1\n. \n", "puzzle type 'nurikabe', not slither"),
        ("pzprv3\nslither\n2\n2\n. 3 \n", "ends before clue"),
        ("pzprv3\nslither\n2\nx\n", "line 4: COLS must be a positive number"),
        ("pzprv3\nslither\n1\n2\n. 12 \n", "line 5, item 2: clue 12 is greater than 3"),
        ("+   +   +\n  1   2\n+   +", "line 3, column 9: expected '+'"),
        ("+   +   +\n  1 x 2\n+   +   +", "line 2, column 5: expected '|' or space"),
        ("+   +   +\n  1   2\n+ - +   +", "expected '---' or spaces"),
    ],
)
def test_bad_input_names_the_fault(text: str, message: str) -> None:
    with pytest.raises(PuzzleFormatError) as err:
        Puzzle.parse(text)
    assert message in str(err.value)


def test_answer_bits_checks_length() -> None:
    with pytest.raises(PuzzleFormatError, match="220 bits"):
        answer_from_bits(reference10(), "0101")


def test_render_reproduces_the_pages_final_board() -> None:
    from conftest import SHARED

    from slitherbench.solvers.cpsat_model import solve_exact

    page = SHARED / "reference" / "qubopp_slitherlink_en.txt"
    if not page.exists():
        pytest.skip("shared/reference is not beside this checkout")
    lines = page.read_text().splitlines()
    # The page's last board: the 21 lines after "iteration 12: ..." (its final answer).
    start = next(k for k, ln in enumerate(lines) if ln.startswith("iteration 12:")) + 1
    board = "\n".join(lines[start : start + 21])
    p = reference10()
    answer = solve_exact(p).answer
    assert p.render(answer) == board
    assert Puzzle.parse(board).meta["answer"] == answer


# -- sizes are checked before anything is allocated (a 40-character URL once asked for 10^10
# cells) ---------------------------------------------------------------------------------
BEYOND = 301  # 301 x 300 cells: just past the harness's 90,000 (a 300x300 board)


def _peak_mib(fn) -> float:
    """Peak memory Python allocated while ``fn`` ran (MiB)."""
    import tracemalloc

    tracemalloc.start()
    try:
        fn()
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak / 2**20


def _refused_cheaply(text: str, message: str) -> None:
    def read() -> None:
        with pytest.raises(PuzzleFormatError, match=message) as err:
            Puzzle.parse(text)
        assert "\n" not in str(err.value)  # one line

    # The text itself aside, the reader allocates next to nothing for the declared board.
    assert _peak_mib(read) < 5 + 3 * len(text) / 2**20


HUGE_DECLARED = {
    "puzzlink": ("https://puzz.link/p?slither/99999/99999/", "at most 90000 cells"),
    "puzzlink-short-body": ("https://puzz.link/p?slither/300/300/zz", "covers at most 40 of"),
    "loopy": ("99999x99999t0:a", "at most 90000 cells"),
    "loopy-short-desc": ("300x300t0:zz", "covers at most 52 of"),
    "loopy-other-grid": ("9999x9999t2:a", "at most 90000"),
    "pzprv3": ("pzprv3\nslither\n99999\n99999\n. \n", "at most 90000 cells"),
    "pzprv3-short-file": ("pzprv3\nslither\n300\n300\n", "ends before clue"),
}


@pytest.mark.parametrize("case", sorted(HUGE_DECLARED))
def test_huge_declared_sizes_are_refused_before_allocation(case: str) -> None:
    _refused_cheaply(*HUGE_DECLARED[case])


def test_the_documented_limit_is_a_300x300_board() -> None:
    assert formats.MAX_FACES == 90_000
    largest = Puzzle.from_rows(["." * 300] * 300)
    assert Puzzle.parse(formats.write_puzzlink(largest)) == largest  # read
    with pytest.raises(PuzzleFormatError, match=r"^a 301x300 board has 90300 cells; the "
                       r"harness takes boards of at most 90000 cells \(300x300\)$"):  # fmt: skip
        Puzzle.parse("\n".join(["." * 300] * 301))


@pytest.mark.parametrize("fmt", formats.FORMATS)
def test_every_reader_refuses_boards_beyond_the_limit(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Formats whose size is the text's own (rows, ASCII, janko) as well as declared ones: one
    # row too many, in one line (the limit lowered to 10x10 here, to keep it quick).
    monkeypatch.setattr(formats.base, "MAX_FACES", 100)  # where every reader checks it
    largest = Puzzle.from_rows(["." * 10] * 10)
    text = formats.WRITERS[fmt](largest)
    assert Puzzle.parse(text) == largest  # the limit itself is read
    bigger = {
        "rows": "\n".join([*largest.to_rows(), "." * 10]),
        "ascii": "\n".join(text.splitlines() + text.splitlines()[-2:]),
        "janko": text + " ".join("-" * 10) + "\n",
        "puzzlink": formats.write_puzzlink(largest).replace("/10/10/", "/10/11/") + "z",
        "loopy": formats.write_loopy(largest).replace("10x10", "10x11") + "j",
        "pzprv3": formats.write_pzprv3(largest).replace("\n10\n10\n", "\n11\n10\n", 1),
    }[fmt]
    with pytest.raises(PuzzleFormatError, match=r"has 110 cells; the harness takes boards of "):
        Puzzle.parse(bigger)


@pytest.mark.parametrize("fmt", ["puzzlink", "loopy", "pzprv3"])
def test_fuzzed_declared_sizes_never_allocate_the_declared_board(fmt: str) -> None:
    import random

    rng = random.Random(20)
    body_chars = {
        "puzzlink": "0123456789abcdeghijz.",
        "loopy": "0123abcz",
        "pzprv3": "0123-. ",
    }[fmt]
    for _ in range(150):
        w, h = (rng.choice([1, 2, 7, 300, 301, 4096, 10**5, 10**9]) for _ in range(2))
        body = "".join(rng.choice(body_chars) for _ in range(rng.randint(0, 40)))
        text = {
            "puzzlink": f"https://puzz.link/p?slither/{w}/{h}/{body}",
            "loopy": f"{w}x{h}t0:{body}",
            "pzprv3": f"pzprv3\nslither\n{h}\n{w}\n{body}\n",
        }[fmt]

        def read(text: str = text) -> None:
            try:
                p = Puzzle.parse(text)
            except PuzzleFormatError as exc:
                assert "\n" not in str(exc)
                return
            assert p.num_faces <= 90_000

        assert _peak_mib(read) < 8, text
