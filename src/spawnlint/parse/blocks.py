"""A fast block scan that reproduces markdown-it's structure for the common shapes, or gives up."""

from __future__ import annotations

import re

from spawnlint import lazy
from spawnlint.parse.text import Block, Structure

# The scan ports markdown-it's commonmark block rules (code, fence, hr, list, html_block, heading,
# lheading, paragraph, and blockquote but for lazy lines) over per-line indents; link reference
# definitions are not ported: meeting one where markdown-it would read it raises _Bail and the
# caller falls back.

_MAX_LEVEL = 20  # deeper documents are left to markdown-it (markdown.MAX_NESTING)
_FENCE = lazy.compile(r"`{3,}|~{3,}")
_HR = lazy.compile(r"(?:\*[ \t]*){3,}\Z|(?:-[ \t]*){3,}\Z|(?:_[ \t]*){3,}\Z")
# A list marker: group 1 holds an ordered item's number, group 2 the first character after the
# marker and its spaces ("" for an empty item).
_MARKER = lazy.compile(r"(?:[*+-]|([0-9]{1,9})[.)])(?=[ \t]|\Z)(?=[ \t]*(.?))")
_HEADING = lazy.compile(r"#{1,6}(?=[ \t]|\Z)")
_UNDERLINE = lazy.compile(r"(?:=+|-+)[ \t]*\Z")
# A "[" line that provably is no link reference definition: the label ends at "]" not followed
# by ":", or meets a second "[", on its first line.
_NOT_REFERENCE = lazy.compile(r"\[(?:\\.|[^\\\[\]])*(?:\[|\](?!:))")
# HTML blocks (CommonMark 0.31 section 4.6): the start conditions of kinds 1-7 and the end of
# kinds 1-5 (6 and 7 end at a blank line). Only kinds 1-6 may interrupt a paragraph.
_HTML_STARTS = tuple(
    re.compile(start, re.IGNORECASE | re.ASCII)
    for start in (
        r"<(?:script|pre|style|textarea)(?=[ \t>]|\Z)",
        r"<!--",
        r"<\?",
        r"<![A-Za-z]",
        r"<!\[CDATA\[",
        r"</?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd"
        r"|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset"
        r"|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol"
        r"|optgroup|option|p|param|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track"
        r"|ul)(?=[ \t]|/?>|\Z)",
        r"(?:<[A-Za-z][A-Za-z0-9-]*"
        r"(?:[ \t]+[A-Za-z_:][A-Za-z0-9:._-]*"
        r"(?:[ \t]*=[ \t]*(?:[^\"'=<>`\x00-\x20]+|'[^']*'|\"[^\"]*\"))?)*"
        r"[ \t]*/?>|</[A-Za-z][A-Za-z0-9-]*[ \t]*>)[ \t]*\Z",
    )
)
_HTML_ENDS = tuple(
    re.compile(end, re.IGNORECASE | re.ASCII)
    for end in (r"</(?:script|pre|style|textarea)>", r"-->", r"\?>", r">", r"\]\]>")
)
# Tag names whose kind changed between CommonMark versions (and so between markdown-it releases).
_HTML_UNSETTLED = lazy.compile(r"</?(?:search|source)(?=[^A-Za-z0-9-]|\Z)", re.IGNORECASE | re.ASCII)
# Whitespace other than space and tab, which markdown-it's HTML patterns (\s) also accept.
_ODD_SPACE = lazy.compile(r"[^\S \t]")
# First characters of a line that may start a block other than a paragraph (or setext heading).
_MAY_START = frozenset("`~>*-_+#<[0123456789")
# First characters of a line that may end a paragraph or underline it; any other line continues it.
_MAY_INTERRUPT = frozenset("`~>*-_+#<=0123456789")


class _Bail(Exception):
    """The document holds a construct the fast scan does not reproduce (the message says which)."""


def fast_structure(lines: list[str]) -> Structure | None:
    """The Structure markdown.build_structure reads from markdown-it, or None where the document
    holds something this scan does not reproduce with certainty."""
    scanned = scan(lines)
    return scanned if isinstance(scanned, Structure) else None


def scan(lines: list[str]) -> Structure | str:
    """The Structure as fast_structure reads it, or why the scan leaves the document to
    markdown-it."""
    text = "\n".join(lines)
    if "\r" in text or "\0" in text or text.count("\n") != max(len(lines) - 1, 0):
        return "a carriage return, NUL or line feed inside a line"
    try:
        return _Scan(lines, "\t" in text).run()
    except _Bail as bail:
        return str(bail)


class _Scan:
    """markdown-it's StateBlock, reduced to what the ported rules read."""

    def __init__(self, lines: list[str], tabs: bool) -> None:
        self.lines = lines
        t = [len(x) - len(x.lstrip(" \t")) for x in lines]
        ends = list(map(len, lines))
        n = len(lines)
        if n and t[n - 1] >= ends[n - 1]:
            n -= 1  # markdown-it counts no final line of only spaces
        self.n = n
        self.t = t[:n] + [0]  # first non-space character (tabs not expanded); a fake last line
        self.ends = ends[:n] + [0]
        self.s = list(self.t)  # columns of the indent, tabs expanded
        for i in range(n) if tabs else ():
            if "\t" in lines[i][: t[i]]:
                self.s[i] = len(lines[i][: t[i]].expandtabs(4))
        self.blk = 0  # blkIndent
        self.list_indent = -1
        self.level = 0
        self.quotes = 0  # how many blockquotes hold the current line
        self.line = 0
        self.blocks: list[Block] = []
        self.headings: list[tuple[int, int, str]] = []
        self.leads: list[tuple[Block, list[tuple[int, int]]]] = []
        self.tops: list[int] = []
        self.after_paragraph: Block | None = None  # the last token closed this paragraph

    def run(self) -> Structure:
        self.tokenize(0, self.n)
        leads = tuple((block, tuple(items)) for block, items in self.leads)
        return Structure(self.lines, tuple(self.blocks), tuple(self.headings), leads, tuple(self.tops))

    def _empty(self, i: int) -> bool:
        return self.t[i] >= self.ends[i]

    def _open(self, start: int) -> None:
        """A token that opens at this level (or stands alone) starting at line `start`."""
        if self.level == 0:
            self.tops.append(start + 1)
        self.after_paragraph = None

    def tokenize(self, line: int, end: int) -> None:
        """Blocks from `line` until `end` while they are indented at least blkIndent; self.line
        ends on the line that stops them (blank lines are skipped up to the document's end)."""
        n, t, s, ends, lines, blk = self.n, self.t, self.s, self.ends, self.lines, self.blk
        while line < end:
            while line < n and t[line] >= ends[line]:
                line += 1
            if line >= end or s[line] < blk:
                break
            if self.level >= _MAX_LEVEL:
                raise _Bail("blocks nested past the fast scan's depth")
            if s[line] - blk < 4 and lines[line][t[line]] not in _MAY_START:
                self._paragraph(line)  # what most blocks are: skip the rule chain
            else:
                self._block(line, end)
            line = self.line
            if line < end and t[line] >= ends[line]:
                line += 1  # one blank line after a block: the rest are skipped only while < end
        self.line = line

    def _block(self, start: int, end: int) -> None:
        """The rule chain at a block start; each rule sets self.line past its block."""
        if self.s[start] - self.blk >= 4:
            return self._code(start, end)
        text = self.lines[start]
        ts = self.t[start]
        c = text[ts]
        if c in "`~" and self._fence(start, end):
            return None
        if c == ">":
            return self._blockquote(start, end)
        if c in "*-_" and _HR.match(text, ts):
            self._open(start)
            self.line = start + 1
            return None
        if (c in "*+-" or "0" <= c <= "9") and self._list(start, end):
            return None
        if c == "[" and not _NOT_REFERENCE.match(text, ts):
            raise _Bail("perhaps a link reference definition")
        if c == "<" and self._html(start, end):
            return None
        if c == "#":
            m = _HEADING.match(text, ts)
            if m:
                self._open(start)
                self.headings.append((start, m.end() - ts, _atx_content(text[m.end() :])))
                self.line = start + 1
                return None
        return self._paragraph(start)

    def _code(self, start: int, end: int) -> None:
        last = nxt = start + 1
        while nxt < end:
            if self._empty(nxt):
                nxt += 1
            elif self.s[nxt] - self.blk >= 4:
                nxt += 1
                last = nxt
            else:
                break
        self._open(start)
        self.blocks.append(Block("code", start, last, None))
        self.line = last

    def _fence(self, start: int, stop: int) -> bool:
        text = self.lines[start]
        m = _fence_open(text, self.t[start])
        if m is None:
            return False
        markup = m.group()
        marker, length = markup[0], len(markup)
        lines, t, s, ends, blk = self.lines, self.t, self.s, self.ends, self.blk
        nxt = start
        closed = False
        while True:
            nxt += 1
            if nxt >= stop:
                break
            ti = t[nxt]
            if ti >= ends[nxt]:
                if nxt + 1 == len(lines):
                    break  # markdown-it reads past the text's end here (a quote's last ">")
                continue
            if s[nxt] < blk:
                break  # a line indented less than the list item ends the item and the fence
            line = lines[nxt]
            if line[ti] != marker or s[nxt] - blk >= 4:
                continue
            run = _FENCE.match(line, ti)
            if run is None or run.end() - ti < length or line[run.end() :].strip(" \t"):
                continue
            closed = True
            break
        end = nxt + 1 if closed else nxt
        self._open(start)
        # as build_structure reads a fence token's map
        whole = end - start >= 2 and lines[end - 1].strip().startswith(markup)
        self.blocks.append(Block("fence", start + 1, end - 1 if whole else end, start))
        self.line = end
        return True

    def _html(self, start: int, stop: int) -> bool:
        lines, t, s, ends, blk = self.lines, self.t, self.s, self.ends, self.blk
        kind = _html_kind(lines[start], t[start])
        if kind < 0:
            return False
        on_blank = kind >= 5
        end = _HTML_ENDS[kind] if not on_blank else None
        nxt = start + 1
        if end is None or not end.search(lines[start], t[start]):
            while nxt < stop:
                blank = t[nxt] >= ends[nxt]
                if s[nxt] < blk:
                    if on_blank or not blank:
                        break
                    # (older markdown-it releases end the comment here, newer ones do not)
                    raise _Bail("an HTML comment in a list item meets an outdented blank line")
                if on_blank and blank:
                    break
                if end is not None and end.search(lines[nxt], t[nxt]):
                    nxt += 1
                    break
                nxt += 1
        self._open(start)
        self.blocks.append(Block("html", start, nxt, None))
        self.line = nxt
        return True

    def _blockquote(self, start: int, stop: int) -> None:
        """markdown-it's blockquote rule for quotes whose every line starts with ">": a lazy
        continuation line, or a block that ends the quote without a blank line, is not ported."""
        lines, t, s, ends = self.lines, self.t, self.s, self.ends
        saved: list[tuple[int, int, int]] = []
        nxt = start
        last_empty = False
        while nxt < stop:
            text, ti = lines[nxt], t[nxt]
            if nxt > start:
                if ti >= ends[nxt]:
                    break
                if text[ti] != ">" or s[nxt] < self.blk:
                    if last_empty:
                        break
                    raise _Bail("a lazy continuation line, or a block ending a blockquote")
            if "\t" in text:
                # (markdown-it's bsCount: a tab after ">" counts its width from the quote's column)
                raise _Bail("a tab in a blockquote")
            pos = ti + 2 if text[ti + 1 : ti + 2] == " " else ti + 1
            content = ends[nxt] - len(text[pos:].lstrip(" "))
            last_empty = content >= ends[nxt]
            saved.append((nxt, ti, s[nxt]))
            t[nxt], s[nxt] = content, content - pos
            nxt += 1
        old_blk = self.blk
        self.blk = 0
        self._open(start)
        self.level += 1
        self.quotes += 1
        self.tokenize(start, nxt)
        self.quotes -= 1
        self.level -= 1
        self.after_paragraph = None
        for i, ti, si in saved:
            t[i], s[i] = ti, si
        self.blk = old_blk

    def _paragraph(self, start: int) -> None:
        """markdown-it's lheading rule and, when it finds no underline, its paragraph rule: both
        scan the same lines and stop at the same one."""
        t, ends = self.t, self.ends
        nxt = start + 1
        level = 0
        if t[nxt] < ends[nxt]:  # (a blank line, or the fake one after the last, ends most)
            lines, s, blk, n = self.lines, self.s, self.blk, self.n
            while nxt < n:
                ti = t[nxt]
                if ti >= ends[nxt]:
                    break
                si = s[nxt]
                if si - blk > 3:
                    nxt += 1
                    continue
                c = lines[nxt][ti]
                if c in _MAY_INTERRUPT:
                    if c in "=-" and si >= blk and _UNDERLINE.match(lines[nxt], ti):
                        level = 1 if c == "=" else 2
                        break
                    if self._interrupts(nxt, c):
                        break
                nxt += 1
        if self.level == 0:
            self.tops.append(start + 1)
        if level:
            self.headings.append((start, level, self._setext_content(start, nxt)))
            self.after_paragraph = None
            self.line = nxt + 1
            return
        block = Block("paragraph", start, nxt, None)
        self.blocks.append(block)
        self.line = nxt
        self.after_paragraph = block

    def _setext_content(self, start: int, stop: int) -> str:
        lines, t = self.lines, self.t
        if self.quotes and stop - start > 1:
            # (getLines reads the later lines from after their ">")
            raise _Bail("a setext heading of several lines in a blockquote")
        parts = []
        for j in range(start, stop):
            if "\t" in lines[j][: t[j]]:
                raise _Bail("a tab in the indent of a setext heading")  # getLines expands it partly
            parts.append(lines[j][t[j] if j == start else min(t[j], self.blk) :])
        return _trimmed("\n".join(parts))

    def _interrupts(self, i: int, c: str) -> bool:
        """Whether line i (non-empty, indented less than code) ends a paragraph: markdown-it's
        paragraph terminators fence, blockquote, hr, list, html_block and heading."""
        text, ti = self.lines[i], self.t[i]
        if c in "`~":
            return _fence_open(text, ti) is not None
        if c == ">":
            return True  # a blockquote
        if c in "*-_" and _HR.match(text, ti):
            return True
        if c in "*+-" or "0" <= c <= "9":
            return self._list_interrupts(i)
        if c == "<":
            return 0 <= _html_kind(text, ti) <= 5
        return c == "#" and _HEADING.match(text, ti) is not None

    def _list_interrupts(self, i: int) -> bool:
        """markdown-it's list rule in validation mode inside a paragraph."""
        si = self.s[i]
        if self.list_indent >= 0 and si - self.list_indent >= 4 and si < self.blk:
            return False
        m = _MARKER.match(self.lines[i], self.t[i])
        if m is None:
            return False
        if si < self.blk:
            return True
        number = m.group(1)
        return (number is None or int(number) == 1) and m.group(2) != ""

    def _list(self, start: int, stop: int) -> bool:
        lines, t, s, ends = self.lines, self.t, self.s, self.ends
        outer, list_indent, level = self.blk, self.list_indent, self.level
        if list_indent >= 0 and s[start] - list_indent >= 4 and s[start] < outer:
            return False
        text = lines[start]
        m = _MARKER.match(text, t[start])
        if m is None:
            return False
        after = m.end()
        marker = text[after - 1]
        items: list[tuple[int, int]] = []
        if self.after_paragraph is not None:
            self.leads.append((self.after_paragraph, items))
        self._open(start)
        # What markdown-it sets around each item and restores after it, set once: only the item's
        # own blocks read it.
        self.level = level + 2
        self.list_indent = outer
        nxt = start
        while True:
            text, end = lines[nxt], ends[nxt]
            initial = col = s[nxt] + after - t[nxt]
            pos = after
            while pos < end:
                ch = text[pos]
                if ch == " ":
                    col += 1
                elif ch == "\t":
                    col += 4 - col % 4
                else:
                    break
                pos += 1
            # the item's content indent: one column past the marker when the item is empty or
            # starts with indented code
            blk = initial + 1 if pos >= end or col - initial > 4 else col
            self.blk = blk
            self.after_paragraph = None
            old_t, old_s = t[nxt], s[nxt]
            t[nxt], s[nxt] = pos, col
            if pos >= end:
                if t[nxt + 1] >= ends[nxt + 1]:
                    self.line = min(nxt + 2, stop)  # an empty item ends at a blank line
                else:
                    self.tokenize(nxt, stop)
            elif col - blk < 4 and text[pos] not in _MAY_START and level + 2 < _MAX_LEVEL:
                self._paragraph(nxt)  # the item's first block, as tokenize would find it
                line = self.line
                if line < stop and t[line] >= ends[line]:
                    line += 1
                if line < stop and not (s[line] < blk and t[line] < ends[line]):
                    self.tokenize(line, stop)  # (which would stop at once on an outdented line)
                else:
                    self.line = line
            else:
                self.tokenize(nxt, stop)
            t[nxt], s[nxt] = old_t, old_s
            self.after_paragraph = None
            line = self.line
            items.append((nxt, line))
            nxt = line
            after = self._next_marker(nxt, stop, marker, outer)
            if after < 0:
                break
        self.blk, self.list_indent, self.level = outer, list_indent, level
        self.after_paragraph = None
        self.line = nxt
        return True

    def _next_marker(self, i: int, stop: int, marker: str, blk: int) -> int:
        """Where the marker of the list's next item ends on line i, or -1 where line i ends the
        list (markdown-it's checks after an item: fence, blockquote and hr end it)."""
        if i >= stop or self.t[i] >= self.ends[i] or self.s[i] < blk or self.s[i] - blk >= 4:
            return -1
        text, ti = self.lines[i], self.t[i]
        c = text[ti]
        if (
            c == ">"
            or (c in "`~" and _fence_open(text, ti) is not None)
            or (c in "*-_" and _HR.match(text, ti))
        ):
            return -1
        m = _MARKER.match(text, ti)  # (an ordered list's "." or ")" is no bullet's marker)
        return m.end() if m is not None and text[m.end() - 1] == marker else -1


def _html_kind(text: str, at: int) -> int:
    """Which HTML block (0-6 for CommonMark's kinds 1-7) the line starts at `at`, or -1."""
    if _ODD_SPACE.search(text) or _HTML_UNSETTLED.match(text, at):
        raise _Bail("an HTML line with whitespace other than space and tab, or a tag of changed kind")
    for kind, start in enumerate(_HTML_STARTS):
        if start.match(text, at):
            return kind
    return -1


def _fence_open(text: str, at: int) -> re.Match[str] | None:
    m = _FENCE.match(text, at)
    if m is None or (text[at] == "`" and "`" in text[m.end() :]):
        return None
    return m


def _atx_content(raw: str) -> str:
    """An ATX heading's text after its opening hashes, without a closing sequence."""
    body = raw.rstrip(" \t")
    bare = body.rstrip("#")
    if len(bare) < len(body) and bare and bare[-1] in " \t":
        body = bare
    return _trimmed(body)


def _trimmed(text: str) -> str:
    """Text trimmed as markdown-it trims it; other whitespace at an edge is not ported."""
    out = text.strip(" \t\n")
    if out and (out[0].isspace() or out[-1].isspace()):
        raise _Bail("heading text with whitespace other than space and tab at an edge")
    return out
