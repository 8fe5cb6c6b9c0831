"""gunicorn settings, read by every gunicorn started from the repository root (make run, tests, bench).

A recall query may be 2,000 characters, and percent-encoded CJK text is 9 bytes a character: far
past gunicorn's 4,094-byte default request line, which it refuses with an HTML 414. 0 lifts that
cap (gunicorn allows nothing between 8,190 and unlimited); protomem.middleware still answers an
over-long query string with a JSON 414 (PROTOMEM_MAX_QUERY_BYTES), and POST /api/memory/recall/
takes the query in a body.
"""

import os

limit_request_line = 0

# Each worker touches its heartbeat file on every loop of its accept loop; on a tmpfs that is a
# memory write, not a metadata update on a disk filesystem's journal (gunicorn's own advice).
if os.path.isdir("/dev/shm"):  # noqa: S108 - a fixed system path, not a temp file we create
    worker_tmp_dir = "/dev/shm"  # noqa: S108
