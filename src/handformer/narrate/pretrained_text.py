"""The sentences of the pretrained (BERT) walkthrough, in English and Chinese; numbers filled in."""

EN = {
    "overview.title": "A real pretrained model, by hand: {model}",
    "overview.sizes": "The same arithmetic as the tutorial, at full size and with learned weights: "
                      "{layers} layers, d_model = {d_model}, {heads} heads of d_k = {d_k}, "
                      "feed-forward width {d_ff}, a vocabulary of {vocab_size} WordPiece tokens. "
                      "Every number below matches the reference implementation (transformers' "
                      "BertModel) to float64 round-off.",
    "differs.encoder": "Encoder only. There is no decoder and no next word: the model turns a "
                       "sentence into one vector (its embedding), so that sentences with similar "
                       "meanings get nearby vectors.",
    "differs.wordpiece": "WordPiece instead of whole words. The tutorial gives each of its 23 "
                         "words an id; BERT cuts text into pieces from a fixed vocabulary, so "
                         "almost no word is unknown, and frames the sentence with the special tokens "
                         "[CLS] and [SEP].",
    "differs.positions": "Learned positions instead of sines and cosines: row p of a trained "
                         "table E_pos is added at position p.",
    "differs.gelu": "GELU instead of ReLU in the feed-forward: x·Φ(x), smooth, letting small "
                    "negative values through.",
    "differs.pooling": "Pooling at the end: the mean of the last layer's rows over the real "
                       "tokens, scaled to length 1, is the sentence embedding.",
    "wp.title": "WordPiece: text to tokens and ids",
    "wp.words": "The text \"{text}\" is cleaned (lower case, accents removed), then split on "
                "spaces and around punctuation: {words}.",
    "wp.pieces": "Each word is cut greedily into the longest pieces in the vocabulary; a piece "
                 "that continues a word starts with ##. With [CLS] in front and [SEP] at the end, "
                 "the model reads {n} tokens: {tokens}",
    "wp.split": "Cut into pieces: {words}.",
    "wp.unk": "[UNK] stands for a word that cannot be made of pieces in the vocabulary: {words}.",
    "wp.ids": "Their ids (line numbers in vocab.txt): {ids}.",
    "emb.word.title": "Token embeddings",
    "emb.word": "Each of the {n} ids picks its row of the trained table E_word: a matrix of "
                "{n}×{d}. In the tutorial these rows were random; here they were learned.",
    "emb.position.title": "Learned position embeddings",
    "emb.position": "Position p picks row p of the trained table E_pos ({n} rows of {d}). The "
                    "tutorial computes sines and cosines instead; BERT learns these rows, and "
                    "cannot read past its last row.",
    "emb.type.title": "Token-type (segment) embeddings",
    "emb.type": "BERT can read two sentences at once, marking the second with type 1. One "
                "sentence is type 0 throughout, so the same row of E_type is added to all {n} "
                "tokens.",
    "emb.sum.title": "The input: three embeddings added",
    "emb.sum": "Word, position and type embeddings are added, element by element.",
    "emb.ln.title": "Layer norm of the embeddings",
    "emb.ln": "BERT normalizes its input before the first layer (the tutorial does not), with "
              "ε = 1e-12. This is H⁽⁰⁾, the input of layer 1.",
    "ln.first": "The row of {token} has mean {mean} and standard deviation {std} before it is "
                "normalized.",
    "where": "Layer {i} of {layers}: ",
    "qkv.title": "queries, keys and values",
    "qkv": "As in the tutorial, now with biases: {h} heads, each with its own {dk}-column Q, K "
           "and V. Shown: head 1; the other heads are the same computation with other weights.",
    "scores.title": "scores and mask",
    "scores": "S = Q Kᵀ / √d_k with d_k = {dk}, one score for every pair of tokens (head 1).",
    "mask.none": "The padding mask hides the keys that are [PAD]: this sentence has none, so "
                 "nothing is hidden. In a batch of sentences of different lengths the shorter "
                 "ones are padded, and their [PAD] keys get −∞.",
    "mask.pad": "The [PAD] keys get −∞, so no token looks at padding.",
    "pattern.title": "the attention patterns of all {h} heads",
    "pattern": "softmax(S) by row, for each of the {h} heads: row i says how much token i "
               "takes from every token. Unlike a toy with random weights, trained heads show "
               "structure: some look at the next or previous token, many rest on [SEP] or "
               "[CLS] when they have nothing to do.",
    "pattern.kinds": "Where the words look hardest: {told}.",
    "kind.prev": "{heads}: the previous token",
    "kind.next": "{heads}: the next token",
    "kind.self": "{heads}: the token itself",
    "kind.special": "{heads}: [CLS] or [SEP], a resting place",
    "kind.mixed": "{heads}: spread over several tokens",
    "heads": "heads {h}",
    "sep": "; ",
    "comma": ", ",
    "head": "head {h}",
    "z.title": "weighted sum of the values",
    "z": "Z = A V: each token's new vector is the attention-weighted mean of the values "
         "(head 1).",
    "out.title": "heads joined, output projection",
    "out": "The {h} heads' Z are put side by side ({d} columns) and multiplied by W^O (+ b^O).",
    "ln1.title": "add & norm",
    "ln1": "Residual connection and layer norm, after attention (post-norm, as the paper).",
    "ffn.title": "feed-forward with GELU",
    "ffn": "Two linear maps, {d} → {d_ff} → {d}, with GELU between: the tutorial's FFN had one "
           "linear map and ReLU.",
    "gelu": "GELU(x) = x·Φ(x), Φ the standard normal distribution function, computed with erf "
            "exactly. Where ReLU would give 0, GELU lets a little through: {x} becomes {y}.",
    "ln2.title": "add & norm, the layer's output",
    "ln2": "Residual connection and layer norm after the feed-forward: the layer's output.",
    "pool.title": "Mean pooling: one vector for the sentence",
    "pool": "The mean of the last layer's rows over the {n} real tokens ({tokens}); [CLS] and "
            "[SEP] count too, [PAD] does not.",
    "pool.why": "The tutorial predicts a next word from every row; this model needs one vector "
                "for the whole sentence.",
    "l2.title": "L2 normalization: the sentence embedding",
    "l2": "u has length r = ‖u‖ = {norm}; dividing by it gives e, of length 1.",
    "l2.cos": "With every embedding of length 1, the cosine similarity of two sentences is "
              "just the dot product e_a · e_b.",
}

ZH = {
    "overview.title": "手算一个真实的预训练模型：{model}",
    "overview.sizes": "与教程相同的运算，只是规模完整、权重是训练好的：{layers} 层，d_model = "
                      "{d_model}，{heads} 个头（每头 d_k = {d_k}），前馈层宽 {d_ff}，词表有 "
                      "{vocab_size} 个 WordPiece 词元。下面每个数都与参考实现（transformers 的 "
                      "BertModel）在 float64 舍入误差内一致。",
    "differs.encoder": "只有编码器。没有解码器，也不预测下一个词：模型把一句话变成一个向量（句向量），"
                       "意思相近的句子得到相近的向量。",
    "differs.wordpiece": "用 WordPiece 代替整词。教程给 23 个词各一个编号；BERT 用固定词表把文本切成"
                         "子词，因此几乎没有未知词，并在句子首尾加上特殊词元 [CLS] 和 [SEP]。",
    "differs.positions": "位置编码是学出来的，而不是正弦余弦：位置 p 加上训练好的表 E_pos 的第 p 行。",
    "differs.gelu": "前馈层用 GELU 代替 ReLU：x·Φ(x)，平滑，并让小的负值通过一部分。",
    "differs.pooling": "最后做池化：对最后一层所有真实词元的行取平均，再缩放到长度 1，即句向量。",
    "wp.title": "WordPiece：从文本到词元和编号",
    "wp.words": "文本 “{text}” 先清洗（转小写、去掉重音符号），再按空格和标点切开：{words}。",
    "wp.pieces": "每个词按贪心法切成词表里最长的子词；接在词中间的子词以 ## 开头。前加 [CLS]、"
                 "后加 [SEP]，模型读入 {n} 个词元：{tokens}",
    "wp.split": "被切开的词：{words}。",
    "wp.unk": "[UNK] 表示无法用词表中的子词拼出的词：{words}。",
    "wp.ids": "它们的编号（vocab.txt 中的行号）：{ids}。",
    "emb.word.title": "词元嵌入",
    "emb.word": "{n} 个编号各取训练好的表 E_word 的一行，得到 {n}×{d} 的矩阵。教程里这些行是随机的，"
                "这里是学出来的。",
    "emb.position.title": "学习得到的位置嵌入",
    "emb.position": "位置 p 取训练好的表 E_pos 的第 p 行（{n} 行，每行 {d} 维）。教程用正弦和余弦计算；"
                    "BERT 学习这些行，因此句子不能超过表的最后一行。",
    "emb.type.title": "词元类型（句段）嵌入",
    "emb.type": "BERT 可以同时读两句话，第二句标为类型 1。这里只有一句，全部是类型 0，所以 {n} 个词元"
                "都加上 E_type 的同一行。",
    "emb.sum.title": "输入：三种嵌入相加",
    "emb.sum": "词元、位置和类型嵌入逐元素相加。",
    "emb.ln.title": "嵌入的层归一化",
    "emb.ln": "BERT 在第一层之前先对输入做层归一化（教程没有这一步），ε = 1e-12。结果是 H⁽⁰⁾，"
              "第 1 层的输入。",
    "ln.first": "{token} 这一行归一化前的均值是 {mean}，标准差是 {std}。",
    "where": "第 {i} 层（共 {layers} 层）：",
    "qkv.title": "查询、键和值",
    "qkv": "与教程相同，只是多了偏置：{h} 个头，每个头有自己的 {dk} 列 Q、K、V。这里显示第 1 个头；"
           "其他头做同样的计算，只是权重不同。",
    "scores.title": "分数与掩码",
    "scores": "S = Q Kᵀ / √d_k，d_k = {dk}，每一对词元一个分数（第 1 个头）。",
    "mask.none": "填充掩码遮住 [PAD] 的键：这句话没有 [PAD]，所以什么也没遮。一批长短不一的句子里，"
                 "短句会被填充，它们的 [PAD] 键得到 −∞。",
    "mask.pad": "[PAD] 的键得到 −∞，所以没有词元会看向填充位置。",
    "pattern.title": "全部 {h} 个头的注意力模式",
    "pattern": "对每个头按行做 softmax(S)：第 i 行表示词元 i 从每个词元取多少。与随机权重的玩具模型"
               "不同，训练过的头有结构：有的看下一个或上一个词元，许多头在无事可做时停在 [SEP] 或 "
               "[CLS] 上。",
    "pattern.kinds": "各个词最看重哪里：{told}。",
    "kind.prev": "{heads}看前一个词元",
    "kind.next": "{heads}看后一个词元",
    "kind.self": "{heads}看自己",
    "kind.special": "{heads}停在 [CLS] 或 [SEP] 上",
    "kind.mixed": "{heads}分散在几个词元上",
    "heads": "第 {h} 个头",
    "sep": "；",
    "comma": "、",
    "head": "第 {h} 个头",
    "z.title": "值的加权和",
    "z": "Z = A V：每个词元的新向量是各个值按注意力加权的平均（第 1 个头）。",
    "out.title": "拼接各头，输出投影",
    "out": "把 {h} 个头的 Z 并排拼起来（{d} 列），再乘以 W^O（加 b^O）。",
    "ln1.title": "残差与归一化",
    "ln1": "注意力之后：残差连接和层归一化（后归一化，与论文相同）。",
    "ffn.title": "带 GELU 的前馈层",
    "ffn": "两个线性变换 {d} → {d_ff} → {d}，中间是 GELU；教程的前馈层只有一个线性变换和 ReLU。",
    "gelu": "GELU(x) = x·Φ(x)，Φ 是标准正态分布函数，用 erf 精确计算。ReLU 会给出 0 的地方，"
            "GELU 让一点点通过：{x} 变成 {y}。",
    "ln2.title": "残差与归一化：本层输出",
    "ln2": "前馈层之后：残差连接和层归一化，即本层的输出。",
    "pool.title": "平均池化：整句一个向量",
    "pool": "对最后一层在 {n} 个真实词元（{tokens}）上的行取平均；[CLS] 和 [SEP] 也算在内，"
            "[PAD] 不算。",
    "pool.why": "教程从每一行预测下一个词；这个模型需要整句话的一个向量。",
    "l2.title": "L2 归一化：句向量",
    "l2": "u 的长度 r = ‖u‖ = {norm}；除以它得到长度为 1 的 e。",
    "l2.cos": "所有句向量长度都是 1，所以两句话的余弦相似度就是点积 e_a · e_b。",
}


EN |= {
    "cos.title": "Cosine similarity",
    "cos": "Each embedding has length 1, so the cosine of the angle between two of them is "
           "their dot product: 1 for the same direction, 0 for unrelated, negative for opposed.",
    "cos.pair": "cos(\"{a}\", \"{b}\") = {cos}.",
}
ZH |= {
    "cos.title": "余弦相似度",
    "cos": "每个句向量长度都是 1，所以两个向量夹角的余弦就是它们的点积：方向相同为 1，无关为 0，"
           "相反为负。",
    "cos.pair": "cos(“{a}”, “{b}”) = {cos}。",
}

TEXTS = {"en": EN, "zh": ZH}
