// Keeps the graders object library non-empty before any assignment exists.
