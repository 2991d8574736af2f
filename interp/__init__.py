"""interp: interpretive performance prediction for message-passing Fortran 77 programs.

The four modules of the core paper (Parashar, Hariri, Haupt, Fox 1993) live in
``interp.application`` (AAG/SAAG), ``interp.system`` (SAG), ``interp.engine`` (Ω, Algorithm 2)
and ``interp.output``; ``interp.analysis`` holds the methods of the related papers.
"""

__version__ = "0.1.0"
