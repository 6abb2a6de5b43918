"""The table: each figure, the reference measured beside it in the same run, their ratio, the target and whether
it is met; as aligned text for the terminal and as Markdown for BENCHMARKS.md."""
from dataclasses import dataclass
from typing import Optional


@dataclass
class Row:
    figure: str
    measured: str
    reference: str
    ratio: str
    target: str
    met: Optional[bool]  # None: reported, no target

    @property
    def verdict(self):
        return {True: "met", False: "MISSED", None: "reported"}[self.met]

    def cells(self):
        return [self.figure, self.measured, self.reference, self.ratio, self.target, self.verdict]


HEADERS = ["Figure", "Measured", "Reference (same run)", "Ratio", "Target", ""]


def text(rows):
    table = [HEADERS] + [row.cells() for row in rows]
    widths = [max(len(line[column]) for line in table) for column in range(len(HEADERS))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip() for line in table]
    lines.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(lines)


def markdown(rows):
    def line(cells):
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"
    return "\n".join([line(HEADERS), line(["---"] * len(HEADERS))] + [line(row.cells()) for row in rows])


def fmt_ms(value):
    return f"{value:.1f} ms"


def fmt_us(value):
    return f"{value:,.0f} µs" if value >= 100 else f"{value:.1f} µs"


def fmt_count(value):
    return f"{value:,.0f}"


def fmt_bytes(value):
    if abs(value) >= 1 << 20:
        return f"{value / (1 << 20):,.1f} MiB"
    return f"{value / 1024:,.1f} KiB"


def ratio(numerator, denominator):
    return f"{numerator / denominator:.2f}×" if denominator else "n/a"
