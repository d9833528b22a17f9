"""figeval's own Inspect model providers: `gguf/` (llama.cpp in process) and `replay/` (recorded outputs). What
the rest of figeval must know of each (in process, answers by logprob, names a file, counts tokens offline, answers
by sample id) is declared in `figeval.providers`, next to the traits of Inspect's providers figeval treats apart."""
