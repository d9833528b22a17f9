"""Prompts of the Turkish idiom benchmark (Cavusoglu and Coltekin, Appendix A), asked in English as in the paper.

`en` is Appendix A as printed, with its placeholders [S], [P], [H] as format fields. Section 4: "Prompts are
given to all models in English. We experimented changing the prompting language to Turkish ... However, the
basic prompts presented in Appendix A worked best". The `tr` prompts are a Turkish translation WRITTEN FOR THIS
PROJECT (the paper does not print its Turkish ones), kept as a named option. Bump PROMPT_VERSION with any change
to a prompt or to how answers are read: every log records it.
"""

from typing import Literal

PROMPT_VERSION = "tr-idioms-v4"

# Appendix A, second prompt (idiom detection).
# The languages every prompt is written in (`-T prompt_lang=...`), the keys of each prompt table.
PromptLanguage = Literal["en", "tr"]

DETECTION_PROMPT = {
    "en": (
        'Does the following Turkish sentence contain an idiom which is used figuratively? Answer only with "yes" '
        'or "no".\n'
        "Sentence: {sentence}\n"
        "Answer:"
    ),
    # Written for this project (not from the paper).
    "tr": (
        "Aşağıdaki Türkçe cümle mecaz anlamda kullanılmış bir deyim içeriyor mu? Yalnızca \"evet\" ya da "
        "\"hayır\" ile cevap verin.\n"
        "Cümle: {sentence}\n"
        "Cevap:"
    ),
}

# Appendix A, first prompt (entailment).
ENTAILMENT_PROMPT = {
    "en": (
        "I will provide you with a pair of sentences in Turkish consisting of a premise and a hypothesis. Is there "
        "a contradiction or entailment between the premise and hypothesis? Answer only with \"contradiction\" or "
        "\"entailment\".\n"
        "Premise: {premise}\n"
        "Hypothesis: {hypothesis}\n"
        "Label:"
    ),
    # Written for this project (not from the paper).
    "tr": (
        "Size bir öncül ve bir hipotezden oluşan bir Türkçe cümle çifti vereceğim. Öncül ile hipotez arasında "
        "çelişki mi yoksa gerektirme mi var? Yalnızca \"çelişki\" ya da \"gerektirme\" ile cevap verin.\n"
        "Öncül: {premise}\n"
        "Hipotez: {hypothesis}\n"
        "Etiket:"
    ),
}

ANNOTATION_INSTRUCTIONS = (
    "Turkish idioms: these answers could not be read automatically (first and last word were not a label).",
    "Read each output and write in 'label' what the model answered: {labels}.",
    "Write the model's answer, not the correct one. Do not edit other columns.",
)
