"""The touchscreen app (Kivy): screens in screens/ (one .py + one .kv each), widgets in
widgets/, plain-Python presenters in presenters/ (tested without Kivy), all words in texts.py.
bootstrap.py builds it from parts; main.run() starts it."""
