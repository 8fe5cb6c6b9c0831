"""The memory.hot_written signal: the one sanctioned way for others to hear of always-on writes."""

from __future__ import annotations

import django.dispatch

# Sent on commit with chunk_id, actor, path.
hot_written = django.dispatch.Signal()
