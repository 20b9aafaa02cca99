from .text_en import EN

ZH = dict(EN)
