"""Engines that write a walk's candidates. The names are here, light, for the command line."""

ENGINES = ("extractive", "llm")
