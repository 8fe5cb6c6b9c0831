"""The chunk add / edit form and its help texts."""

from __future__ import annotations

from django import forms

from memory.lifecycle.erasure import REASON_MAX_CHARS
from memory.lifecycle.guardrail import is_only_reasoning, strip_reasoning
from memory.store.models import Chunk

# ----------------------------------------------------------------------------------------------
# The form


class ChunkAdminForm(forms.ModelForm):
    class Meta:
        model = Chunk
        fields = [
            "heading",
            "content",
            "domain",
            "memory_kind",
            "subject",
            "namespace",
            "delivery_policy",
            "expires_at",
            "agent",
        ]
        widgets = {
            "heading": forms.TextInput(attrs={"size": 90}),
            "content": forms.Textarea(attrs={"rows": 10, "cols": 100}),
        }

    def clean_content(self) -> str:
        raw = self.cleaned_data.get("content") or ""
        if is_only_reasoning(raw, strip_reasoning(raw)) or not strip_reasoning(raw).strip():
            raise forms.ValidationError(
                "Nothing would be stored: the text is empty once reasoning blocks "
                "(<think>, <scratch_pad>) are removed."
            )
        return raw


# ----------------------------------------------------------------------------------------------
# The shared chunk admin


ADD_HELP = {
    "delivery_policy": "Blank: always-on for domain “hot”, retrieved otherwise.",
    "memory_kind": "Blank: derived from the domain.",
    "expires_at": "Optional: the row stays in the store but stops delivering once this passes.",
}
REVISE_HELP = {
    "content": "Saving stores a new, confirmed revision (trust: operator). This row is kept as history "
    "and marked superseded by the new one; nothing is overwritten.",
}


class EraseForm(forms.Form):
    """The reason an operator gives for erasing rows (audited; the content is not kept)."""

    reason = forms.CharField(
        max_length=REASON_MAX_CHARS,
        widget=forms.Textarea(attrs={"rows": 3, "cols": 80}),
        help_text="Why these rows are erased (for example: the user's erasure request, a leaked credential).",
    )
