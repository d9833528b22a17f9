"""Human labels: sheets for annotators, their labels resolved into a labels file, and agreement.

- `spec`: what a task declares for its annotators (`AnnotationSpec`).
- `answers`: an answer as people see it, and how a labelled answer is recognised in a log.
- `sheets`: the sheets people fill (CSV with its instructions file, Label Studio tasks) and reading them back.
- `labels`: resolving one to three annotators' labels (a third settles a disagreement of two), the labels file,
  and which runs' answers a labels file labels.
- `agreement`: a judge against the resolved labels, annotators among themselves (Tables 7
  and 8), and label rates from human labels (Tables 3 and 5).
- `hand_labels`: a run's unread answers labelled by hand and applied to the run as a new log.
"""
