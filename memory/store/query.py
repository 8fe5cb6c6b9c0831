"""Query term weighting: which words of a question are worth looking up.

A question is mostly frame ("When did ... ?", "Would X be interested in ...", "Where does X
work now?"); the words that find the answer are its names and rare terms. Frame words match
thousands of rows that say nothing about the subject, and on the AND -> pairs -> OR plan of
memory.retrieval.search they crowd out the rows holding the subject's terms. So a query loses:

- text_index.fts5.STOPWORDS (articles, pronouns, auxiliaries), as before;
- QUESTION_WORDS: interrogatives, auxiliaries and tense/time filler ("now", "ever", "still");
- FRAME_WORDS: the phrasing of preference and recollection questions ("likely", "interested",
  "remember", "tell"), and the "both" of a comparison ("What have John and Maria both done?":
  each turn that answers says one person's part, not "both"; bench/recall_splits hybrid r@10:
  LoCoMo dev 26/30/41 0.885 -> 0.888 (multi-hop 0.811 -> 0.824), 42/43 0.836 -> 0.838 (multi-hop
  0.750 -> 0.765; all@10 0.706 -> 0.703); ours and memory/evals/recall.jsonl unchanged).

Only when nothing else is left are they kept (a query "what now" still searches for something).
The lists are short on purpose: a word that can carry the answer ("work", "live", "start")
stays, and so do "must" / "should", which rules and policies are written in (dropping "must"
lost a hit on memory/evals/recall.jsonl: "who must approve edits ...").
Both backends use these terms (FTS5 and PostgreSQL's tsvector get the same list).
"""

from __future__ import annotations

QUESTION_WORDS = frozenset(
    "what whats when where which who whom whose why how "
    "do does did done doing is are was were be been being am has have had having "
    "can could would will may might "
    "now ever still currently recently again already just yet "
    "s t d ll ve re m".split()
)

FRAME_WORDS = frozenset(
    "likely probably possibly maybe perhaps "
    "interested tell told remind remember recall know mention mentioned say said "
    "anything something thing things kind sort "
    "about also any some much many very really both".split()
)

FILLER = QUESTION_WORDS | FRAME_WORDS


def weighted_terms(words: list[str], stopwords: frozenset[str]) -> list[str]:
    """`words` (lowercased, deduplicated, in order) without stopwords and filler, if any remain.

    Falls back to dropping stopwords only, then to every word, so a query is never left empty.
    """
    content = [w for w in words if w not in stopwords and w not in FILLER]
    if content:
        return content
    without_stopwords = [w for w in words if w not in stopwords]
    return without_stopwords or words
