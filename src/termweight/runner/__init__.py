"""Runner code: what runs a step without deciding its bytes. The command line (``cli``, its help
``clihelp``), reading and checking params (``config``), the options and paths the steps share
(``common``), atomic writes and checked reads (``io``), worker pools (``parallel``), the checkout's
own source and DVC's run lock (``checkout``), and the error types that make bad input one line
(``errors``).

No stage of dvc.yaml or rule of workflow/rules lists this folder: an edit here reruns nothing
(tests/test_pipeline.py checks that no stage lists it and that every file a stage's code imports
outside it is listed). What decides the bytes a step writes lives outside it: the formats of
termweight.formats, the settings of termweight.settings, the library.
"""
