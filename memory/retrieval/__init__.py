"""Recall: from a free-text query to ranked chunk rows.

Sits between memory.lifecycle (who may read what) and memory.store (rows, text index, vectors):
it parses the query (dates, speakers), asks the keyword index and the vectors for candidates,
fuses and reranks them. memory.store never imports it.
"""
