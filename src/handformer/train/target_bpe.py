"""The target side of a translator as byte-level BPE (`train --target-bpe N`): English kept as
written (cased), and every one of the 256 bytes in the table, so no translation ever holds
`<unk>`: a word the training part never had is spelt from smaller tokens.

The merges are bpe.py's (GPT-2's split, the same counts and the same tie rule, so the same
merges as ``bpe.learn`` on the same lines), learnt here with counts kept up to date after each
merge and a heap of the leading pairs: ``bpe.learn`` counts every pair again for every merge
(and records what its panels show), which takes minutes on 50,000 sentences. The vocabulary is
a ``bpe.BpeVocab``: checkpoints save and read it as any byte-level one.
"""

from __future__ import annotations

import heapq
from collections import Counter, defaultdict

from ..bpe import BpeVocab, byte_symbols, corpus_words, merge_pair, symbols
from ..text import END, PAD, START

MAX_TARGET_MERGES = 32_000


def target_vocab(lines, merges: int) -> BpeVocab:
    """Every byte symbol (in code-point order, bpe.py's numbering), the tokens ``merges``
    merges on ``lines`` make, then <start> <end> <pad>."""
    learnt = learn_merges(lines, merges)
    alphabet = sorted(byte_symbols(), key=ord)
    made = list(dict.fromkeys(a + b for a, b in learnt))
    words = list(dict.fromkeys([*alphabet, *made]))
    return BpeVocab(tuple(words), (START, END, PAD), "bpe", tuple(learnt))


def learn_merges(lines, merges: int) -> list[tuple[str, str]]:
    """``bpe.learn``'s merges (the most frequent pair; ties to the pair of smaller ids), with
    each merge touching only the words that hold its pair."""
    words = corpus_words(lines)
    seqs, freqs = [symbols(w) for w in words], list(words.values())
    rank = {s: i for i, s in enumerate(sorted({s for seq in seqs for s in seq}, key=ord))}
    counts, where = Counter(), defaultdict(set)
    for i, seq in enumerate(seqs):
        for pair in zip(seq, seq[1:], strict=False):
            counts[pair] += freqs[i]
            where[pair].add(i)
    heap = [(-n, rank[a], rank[b], a, b) for (a, b), n in counts.items()]
    heapq.heapify(heap)
    learnt = []
    while len(learnt) < merges:
        best = _pop_best(heap, counts)
        if best is None:
            break
        a, b = best
        learnt.append(best)
        rank.setdefault(a + b, len(rank))
        changed = _merge_everywhere(seqs, freqs, counts, where, a, b)
        for pair in changed:
            if counts[pair] > 0:
                heapq.heappush(heap, (-counts[pair], rank[pair[0]], rank[pair[1]], *pair))
    return learnt


def _pop_best(heap, counts) -> tuple[str, str] | None:
    """The leading pair whose entry is current (an entry of an older count is dropped)."""
    while heap:
        n, _, _, a, b = heapq.heappop(heap)
        if counts.get((a, b), 0) == -n and n < 0:
            return a, b
    return None


def _merge_everywhere(seqs, freqs, counts, where, a: str, b: str) -> set:
    """Merge a b in every word that holds it, the pair counts moved with it; the pairs whose
    counts changed."""
    changed = set()
    for i in where.pop((a, b), ()):
        old = seqs[i]
        new = merge_pair(old, a, b)
        if new == old:
            continue
        for pair in zip(old, old[1:], strict=False):
            counts[pair] -= freqs[i]
            changed.add(pair)
        for pair in zip(new, new[1:], strict=False):
            counts[pair] += freqs[i]
            where[pair].add(i)
            changed.add(pair)
        seqs[i] = new
    counts.pop((a, b), None)
    changed.discard((a, b))
    return changed


def sides_with_bpe_target(pairs, options):
    """One vocabulary per side: the source's words as ``options`` cut them (--min-count,
    --vocab-size), the target's byte-level BPE of ``options.target_bpe`` merges."""
    from ..text import Sides
    from .data import sides_vocab

    source = sides_vocab([(s, s) for s, _ in pairs], options.tokenizer, options.vocab_size,
                         options.min_count).source
    return Sides(source, target_vocab([t for _, t in pairs], options.target_bpe))
