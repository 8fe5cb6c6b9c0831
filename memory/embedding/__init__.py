"""Text -> vector: the embedding backends (gateway, local all-MiniLM-L6-v2), its tokenizer and ONNX export.

The lowest layer: it knows no Django model; memory.store keeps the vectors it returns.
"""
