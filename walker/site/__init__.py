"""The review site: pages from the pool, notes as Obsidian shows them, one MkDocs build."""
