"""The block quotes of a rules document (docs/rules/*.md), for tests that check them against
the rule text they quote."""


def block_quotes(doc: str) -> list[str]:
    """Each run of ``>`` lines as one string (the ``>`` and the line breaks removed)."""
    blocks, cur = [], []
    for line in doc.splitlines() + [""]:
        if line.startswith(">"):
            cur.append(line[1:].strip())
        elif cur:
            blocks.append(" ".join(cur))
            cur = []
    return blocks
