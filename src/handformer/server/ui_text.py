"""The app's own words, English and Chinese, in one table (to be folded into the i18n tables).

Words the i18n tables already have are taken from there, so the page says "loss", "epoch",
"Decoding" as the walkthrough and `handformer train` do.
"""

from __future__ import annotations

from .. import i18n
from ..config import PRESETS
from ..render.html import PHASE_KEYS
from ..text import TUTORIAL_DATASET, TUTORIAL_SRC, TUTORIAL_TGT

UI = {
    "en": {
        "title": "handformer: a Transformer computed by hand, live",
        "src": "Source sentence", "tgt": "Target sentence",
        "corpus": "Corpus (one sentence per line; its words are the vocabulary)",
        "preset": "Preset", "d_model": "d_model (embedding width)", "heads": "heads",
        "d_k": "d_k (query/key width per head)", "d_ff": "d_ff (feed-forward width)",
        "layers": "layers (encoder and decoder)", "ffn": "feed-forward",
        "ffn.default": "as the preset", "ffn.single": "one linear + ReLU (tutorial)",
        "ffn.paper": "two linears (paper)", "scale_embeddings": "embeddings × √d_model",
        "scale.default": "as the preset", "scale.on": "yes (paper)", "scale.off": "no (tutorial)",
        "seed": "seed", "model": "Model", "sentences": "Sentences",
        "train": "Train", "epochs": "epochs", "train_button": "Train {n} epochs",
        "stop": "Stop", "translate": "Translate", "translate_button": "Translate",
        "backward": "Walk backward (one training step's gradients)",
        "forward_only": "Forward only",
        "pin": "Pin this run", "unpin": "Unpin", "compare": "Compare with the pinned run",
        "pinned": "Pinned: {what}", "identical": "The two runs are identical in every number.",
        "first_part": "The runs part at step {step}: {changed} of {total} steps changed.",
        "step": "step", "max_diff": "largest |Δ|", "cells": "numbers changed",
        "reshaped": "different shape", "pinned_col": "pinned", "current_col": "current",
        "delta_col": "Δ (current − pinned)",
        "change_hint": "Or change the current run's model by one weight or by training steps:",
        "edit_param": "weight (parameter)", "edit_index": "index (row, column)",
        "edit_value": "new value", "train_steps": "training steps (SGD, lr 0.1)",
        "computing": "computing…", "ready": "ready",
        "state.running": "training", "state.done": "done", "state.cancelled": "stopped",
        "state.failed": "failed",
        "progress": "epoch {done} / {total}, loss {loss}",
        "final": "token accuracy {acc}, exact match {exact}",
        "output": "Output", "no_model": "Train a model first.",
        "network": "The server did not answer: {error}",
        "contents": "Contents", "language": "Language",
        "error_prefix": "",
        "corpus_file": "or read the corpus from a file:",
        "file_too_big": "The file {name} is too large ({size}); a corpus may have at most "
                        "{max} characters.",
        "file_unreadable": "The file {name} could not be read.",
        "err.odd_d_model": "d_model {d_model} is odd: the positional encoding fills columns in "
                           "sin/cos pairs, so d_model must be even (for example {d_model_up}).",
        "err.not_divisible": "d_model {d_model} cannot be split evenly over {heads} heads; "
                             "choose heads that divide d_model, or set d_k.",
        "err.unknown_src": "The source sentence has words that are not in the vocabulary: "
                           "{words}. Add a sentence with them to the corpus.",
        "err.unknown_tgt": "The target sentence has words that are not in the vocabulary: "
                           "{words}. Add a sentence with them to the corpus.",
        "err.over_cap": "{name} is {value}, more than this server allows ({cap}).",
        "err.too_many_weights": "This model would have {value} weights, more than this server "
                                "allows ({cap}); choose smaller sizes.",
        "err.too_long.words": "{name} has {value} words; at most {cap} are allowed.",
        "err.too_long.characters": "{name} has {value} characters; at most {cap} are allowed.",
        "err.too_long.lines": "{name} has {value} lines; at most {cap} are allowed.",
        "engine_said": "The engine said:",
    },
    "zh": {
        "title": "handformer：手算 Transformer，实时",
        "src": "源句", "tgt": "目标句",
        "corpus": "语料（每行一句；其中的词构成词表）",
        "preset": "预设", "d_model": "d_model（嵌入宽度）", "heads": "头数",
        "d_k": "d_k（每个头的查询/键宽度）", "d_ff": "d_ff（前馈层宽度）",
        "layers": "层数（编码器与解码器）", "ffn": "前馈层",
        "ffn.default": "同预设", "ffn.single": "一个线性层 + ReLU（教程）",
        "ffn.paper": "两个线性层（论文）", "scale_embeddings": "嵌入乘以 √d_model",
        "scale.default": "同预设", "scale.on": "是（论文）", "scale.off": "否（教程）",
        "seed": "随机种子", "model": "模型", "sentences": "句子",
        "train": "训练", "epochs": "轮", "train_button": "训练 {n} 轮",
        "stop": "停止", "translate": "翻译", "translate_button": "翻译",
        "backward": "反向走一遍（一次训练步的梯度）",
        "forward_only": "只看前向",
        "pin": "固定这次运行", "unpin": "取消固定", "compare": "与固定的运行比较",
        "pinned": "已固定：{what}", "identical": "两次运行的每个数字都相同。",
        "first_part": "两次运行从第 {step} 步开始不同：{total} 步中有 {changed} 步改变。",
        "step": "步骤", "max_diff": "最大 |Δ|", "cells": "改变的数字",
        "reshaped": "形状不同", "pinned_col": "固定的", "current_col": "当前的",
        "delta_col": "Δ（当前 − 固定）",
        "change_hint": "或者只改当前运行的模型：改一个权重，或训练几步：",
        "edit_param": "权重（参数）", "edit_index": "下标（行，列）",
        "edit_value": "新值", "train_steps": "训练步数（SGD，学习率 0.1）",
        "computing": "计算中…", "ready": "就绪",
        "state.running": "训练中", "state.done": "完成", "state.cancelled": "已停止",
        "state.failed": "失败",
        "progress": "第 {done} / {total} 轮，损失 {loss}",
        "final": "词元准确率 {acc}，整句完全正确 {exact}",
        "output": "输出", "no_model": "请先训练一个模型。",
        "network": "服务器没有回应：{error}",
        "contents": "目录", "language": "语言",
        "error_prefix": "无法计算（引擎的英文说明）：",
        "corpus_file": "或者从文件读取语料：",
        "file_too_big": "文件 {name} 太大（{size}）；语料最多 {max} 个字符。",
        "file_unreadable": "无法读取文件 {name}。",
        "err.odd_d_model": "d_model {d_model} 是奇数：位置编码按 sin/cos 成对填列，"
                           "所以 d_model 必须是偶数（例如 {d_model_up}）。",
        "err.not_divisible": "d_model {d_model} 不能平均分给 {heads} 个头；"
                             "请选能整除 d_model 的头数，或设置 d_k。",
        "err.unknown_src": "源句中有不在词表里的词：{words}。请在语料中加入含有这些词的句子。",
        "err.unknown_tgt": "目标句中有不在词表里的词：{words}。请在语料中加入含有这些词的句子。",
        "err.over_cap": "{name} 为 {value}，超过了本服务器允许的上限（{cap}）。",
        "err.too_many_weights": "这个模型会有 {value} 个权重，超过了本服务器允许的上限（{cap}）；"
                                "请选更小的尺寸。",
        "err.too_long.words": "{name} 有 {value} 个词；最多允许 {cap} 个。",
        "err.too_long.characters": "{name} 有 {value} 个字符；最多允许 {cap} 个。",
        "err.too_long.lines": "{name} 有 {value} 行；最多允许 {cap} 行。",
        "engine_said": "引擎的英文原文：",
    },
}


def bundle(limits) -> dict:
    """Everything the page needs to start: words in both languages, defaults and limits."""
    words = {lang: dict(UI[lang], **_shared(lang)) for lang in UI}
    return {"text": words, "defaults": {"src": TUTORIAL_SRC, "tgt": TUTORIAL_TGT,
                                        "corpus": "\n".join(TUTORIAL_DATASET)},
            "limits": {"max_epochs": limits.max_epochs, "max_body": limits.max_body,
                       "max_corpus_chars": limits.max_corpus_chars},
            "presets": PRESETS}


def _shared(lang: str) -> dict:
    table = i18n.table(lang)
    words = {"loss": table["train.loss"], "epoch": table["train.epoch"],
             "acc": table["train.acc"], "curve": table["train.title"],
             "show_all": table["page.show_all"], "show_corners": table["page.show_corners"],
             "show_first": table["page.show_first"]}
    return words | {f"phase.{k}": table[key] for k, key in PHASE_KEYS.items()}
