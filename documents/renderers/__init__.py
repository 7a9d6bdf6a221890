"""The renderers: one module per family of printed documents, drawn with ReportLab from the plain
data of ``documents.data``; ``base`` holds what they share (paper, margins, fonts, the render loop).
"""
