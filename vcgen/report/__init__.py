"""Verification results as data (``results``) and as GPUVerify-compatible text or JSON
(``render``, with ``templates/verdict.txt.j2``; docs/design.md section 7)."""
