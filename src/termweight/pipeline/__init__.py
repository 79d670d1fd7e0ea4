"""The pipeline layer: the workflow's steps declared once, and what both tools derive from them.

The library (every other module of ``termweight``) never imports this package.
"""
