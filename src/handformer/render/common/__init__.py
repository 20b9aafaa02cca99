"""What the renderers share: TeX to MathML and its guards, colours, grids, Chinese line breaks."""
