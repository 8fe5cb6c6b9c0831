"""The operator console for memory: Knowledge → Store and the review queue (one module a page).

Thin callers only. Writes go through memory.lifecycle (writes, review, retention); the search
box is the agents' ranked search. Nothing here saves or hard-deletes a Chunk row: "delete" marks
rows for the grace reap (restorable until then, audited), and superseded rows are never reaped.
Hot memory and skills are delivery's pages (delivery/admin.py).
"""

from django.contrib import admin

from memory.admin import review_queue, store  # noqa: F401 - registers the pages

admin.site.site_header = "protomem console"
admin.site.site_title = "protomem console"
admin.site.index_title = "Operator console"
admin.site.enable_nav_sidebar = False  # the review tables need the width
admin.site.site_url = None  # there is no public site behind the console: no "VIEW SITE" link to a 404
