"""The commands, one module a verb: each runs the stages (book, checks, render) for one thing a maintainer does."""
