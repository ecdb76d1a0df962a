"""The spawn forms of SPEC §3, one module each (f1_call.py ... f10_python.py), and the registry
that runs them in claim order (registry.py). The package itself imports nothing: the guard reads
vocabulary.py and agent definitions without compiling every form's patterns."""
