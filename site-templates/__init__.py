"""Theme overrides and static pages for the review site (installed as walker.site_templates)."""
