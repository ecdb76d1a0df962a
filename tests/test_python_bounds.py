"""The bounds of a Python file (SPEC §7) at their edges: the token pass runs only where ast cannot
be trusted with the file, so each limit is checked where CPython parses the file and where it
refuses it, and the words of each refusal stay those of the token pass."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spawnlint.parse.python import bounds, parse_python
from spawnlint.parse.python.bounds import MAX_CHAIN, MAX_NESTING, MAX_TOKENS

CALLABLES = ("Agent", "Task")
SPAWN = 'Agent(subagent_type="shop:critic", name="c1", prompt="review it")\n'


def problems(src: str) -> list[str]:
    return [p.finding.message for p in parse_python("x.py", src, CALLABLES).problems]


def read_whole(src: str) -> None:
    parsed = parse_python("x.py", src, CALLABLES)
    assert parsed.problems == ()
    assert [s.name.value for s in parsed.sites if s.name] == ["c1"]


CHAIN = f"file chains more than {MAX_CHAIN} operators in one expression (line "


@pytest.mark.parametrize(
    "chain",  # the source of a chain of n operators
    [
        lambda n: "x = " + "-" * n + "1",
        lambda n: "x = " + "+".join(["1"] * (n + 1)),
        lambda n: "x = " + "not " * n + "y",
        lambda n: "x = " + " < ".join(["a"] * (n + 1)),  # flat in ast: CPython reads any length
        lambda n: "x = " + "a." * n + "b",
        lambda n: "if " + "-" * (n - 2) + "1: pass",  # `if` and `:` are in the chain
        lambda n: "if y: " + "not " * (n - 2) + "z",  # the header runs on into its body
        lambda n: "x = (\n" + "1 +\n" * n + "1)",  # inside one bracket, over many lines
        lambda n: "x = 1; y = " + "-" * n + "1",  # `;` ends the chain before it
    ],
)
def test_an_operator_chain_is_read_up_to_the_limit_and_refused_past_it(chain: Callable[[int], str]) -> None:
    read_whole(SPAWN + chain(MAX_CHAIN) + "\n")
    (message,) = problems(SPAWN + chain(MAX_CHAIN + 1) + "\n")
    assert message.startswith(CHAIN) and message.endswith("), past what can be parsed safely; not checked")


def test_a_long_prompt_full_of_operator_characters_is_read() -> None:
    prompt = "".join(
        f"- **step {i}**: run `x --flag={i}` -> 1+1; see <a href='/p?q=1&r=2'>.\n" for i in range(300)
    )
    src = SPAWN + 'PROMPT = """\n' + prompt + '"""\nTEMPLATE = f"""{PROMPT}\n' + prompt + '"""\n'
    assert src.count("-") > 2 * MAX_CHAIN
    read_whole(src)


def test_brackets_are_read_up_to_the_limit_and_refused_past_it() -> None:
    read_whole(SPAWN + "x = " + "(" * MAX_NESTING + "1" + ")" * MAX_NESTING + "\n")
    assert problems(SPAWN + "x = " + "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1) + "\n") == [
        f"file nests brackets more than {MAX_NESTING} deep (line 2), past what can be parsed safely; not checked"
    ]


def test_tokens_are_read_up_to_the_limit_and_refused_past_it() -> None:
    read_whole(SPAWN + "x = [" + "1, " * (MAX_TOKENS // 2 - 20) + "]\n")
    assert problems(SPAWN + "x = [" + "1, " * (MAX_TOKENS // 2 + 20) + "]\n") == [
        f"file holds more than {MAX_TOKENS} tokens, past what can be parsed safely; not checked"
    ]


@pytest.mark.parametrize(
    "src",
    [
        "x = " + "-" * 3000 + "1\ndef f(:\n    pass\n",
        "def f(:\n    pass\nx = " + "-" * 3000 + "1\n",
    ],
)
def test_the_token_pass_says_why_before_a_syntax_error_does(src: str) -> None:
    (message,) = problems(src)
    assert message.startswith(CHAIN)


def test_a_tree_too_deep_for_ast_without_a_long_chain_is_said_to_be_so() -> None:
    src = "if a:\n    pass\n" + "elif a:\n    pass\n" * 7000  # each `elif` nests the next
    assert problems(src) == ["Python file cannot be parsed (nests too deep to be parsed); not checked"]


def test_an_ordinary_file_is_not_tokenized_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # The token pass costs more than ast itself; once ast guards itself (3.11+) a file within
    # the bounds is only tokenized where a string is read, one literal at a time.
    sources: list[str] = []
    real = bounds.string_tokens

    def counted(text: str) -> list[bounds.StringToken] | None:
        sources.append(text)
        return real(text)

    monkeypatch.setattr(bounds, "string_tokens", counted)
    monkeypatch.setattr("spawnlint.parse.python.read.string_tokens", counted)
    body = "".join(f"def f{i}(a, b):\n    return a + b * {i}\n\n" for i in range(200))
    src = (
        SPAWN + body + 'HOOK = """Use the Task tool:\n- `subagent_type`: `critic`\n- `name`: `hooked`\n"""\n'
    )
    parsed = parse_python("x.py", src, CALLABLES)
    assert [s.name.value for s in parsed.sites if s.name] == ["c1", "hooked"]
    if bounds.AST_GUARDS_ITSELF:
        assert sources and all(len(s) < 100 for s in sources)
    else:  # CPython 3.10 builds a deep tree by unchecked C recursion: the pass comes first
        assert src in sources


@pytest.mark.parametrize("collecting", [True, False])
def test_the_garbage_collector_is_left_as_it_was(collecting: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    # ast.parse runs with the cyclic collector paused (an ast holds no cycles); it must be back as
    # it was however the parse ends, and paused only while ast builds the tree.
    import ast
    import gc

    seen: list[bool] = []
    real = ast.parse

    def parse(source: str, *args: object, **kwargs: object) -> ast.Module:
        seen.append(gc.isenabled())
        return real(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(ast, "parse", parse)
    was = gc.isenabled()
    (gc.enable if collecting else gc.disable)()
    try:
        for src in (SPAWN, "def f(:\n", "x = " + "-" * 3000 + "1\n"):
            parse_python("x.py", src, CALLABLES)
            assert gc.isenabled() is collecting
    finally:
        (gc.enable if was else gc.disable)()
    assert seen and not any(seen)
