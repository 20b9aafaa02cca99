"""Every English sentence handformer shows, by key; {names} are numbers read off the tape."""

TEXT = {
    "step_prefix": "Step {n} · ",
    "tutorial_step": "the tutorial's step {n}",
    "note.tutorial": "the tutorial's value",
    # 1–3
    "dataset.title": "Define the dataset",
    "dataset.p1": "Everything starts from a dataset. ChatGPT learned from hundreds of gigabytes of "
                  "text; to compute every number by hand we use {count} sentences:",
    "dataset.licence": "These sentences come from {name}, licensed {licence} ({url}).",
    "dataset.more": "  … and {more} more.",
    "dataset.p2": "Lower-cased, without “.” and “,”, they hold {words} words. The model will "
                  "read “{src}” and should learn to answer “{tgt}”.",
    "dataset.p2.tokens": "Cut by the “{tokenizer}” tokenizer they hold {words} tokens, where "
                         "splitting at spaces finds {spaced} words: 1 token ≈ {per} spaced "
                         "words (the tutorial's “1 token ≈ 0.75 words” is a rule of thumb for "
                         "GPT's English sub-words, not a law). The model will read “{src}” and "
                         "should learn to answer “{tgt}”.",
    "vocab.distinct": "set(words)",
    "vocab.title": "Compute the vocabulary size",
    "vocab.p1": "The vocabulary is the set of distinct words: splitting the dataset into words "
                "and removing the repeats leaves N = {N}.",
    "vocab.p2": "The model also needs {k} markers, {specials}, so that it knows where a "
                "sentence starts and ends: it works with {V} tokens in all.",
    "vocab.sides": "{src} (source) and {tgt} (target)",
    "vocab.sides_p": "Each side has its own vocabulary here: the source's {src} tokens for the "
                     "encoder, the target's {tgt} for the decoder and the output layer; the "
                     "counts below are the target's.",
    "vocab.rule": "The tutorial sizes the embedding with the rule n > 8.33·log N. It does not "
                  "say which logarithm; read as ln, for N = {N} that asks for n > {rule}. This "
                  "model uses d_model = {d}.",
    "vocab.rule_ok": "d_model = {d} satisfies the rule comfortably.",
    "D18": "n > 8.33·log N is a rule of thumb, not something from the paper. Read as ln it asks "
           "n > {rule}; read as log₁₀, n > {rule10}: either way the tutorial's own choice breaks "
           "it ({d}). It does not matter for a toy: the width only "
           "has to be large enough to keep the words apart. The paper uses 512 for a "
           "vocabulary of about 37 000 tokens.",
    "encoding.title": "Encoding: every word gets a number",
    "encoding.p1": "Each word gets an id in the order it first appears in the dataset, and the "
                   "special tokens come last:",
    "encoding.more": "… {more} more",
    "encoding.p2": "The source sentence “{src}” becomes these {n} ids. From here on the model "
                   "only sees numbers.",
    # 4–6 and 11
    "embed.title.src": "Compute the embedding",
    "embed.title.tgt": "Embedding of the decoder input",
    "embed.p1.tgt": "The decoder has its own embedding table ({shape}): as for the source, each "
                    "id picks its row of {d} numbers.",
    "embed.p1.src": "The embedding table E has one row of {d} numbers per token ({shape}). An id "
                "simply picks its row: no arithmetic happens in this step.",
    "embed.p2.trained": "“{tok}” becomes [{row}]. These numbers were learned: training moved "
                        "them from their random start so that the predictions came out right.",
    "embed.p2": "“{tok}” becomes [{row}]. These numbers start random and are what "
                "training will change so that words with related roles end up close together.",
    "embed.p3": "The paper uses 512 numbers per word; {d} is enough to watch every number.",
    "D14.embed": "Like the tutorial, this preset draws every weight uniformly from [0, 1) (here "
                 "from {lo} to {hi}): all positive, centred on 0.5, and the embeddings are not "
                 "multiplied by √d_model. Real models start from Xavier-type weights centred on "
                 "0. All-positive weights make the attention scores large, and the softmax "
                 "then saturates: you will see it in the attention weights.",
    "scale.title": "Scale the embedding by √d_model",
    "scale.p1": "As in the paper, the embeddings are multiplied by √d_model = √{d} = {root}, so "
                "that they are not drowned by the positional encoding added next.",
    "pos.title": "Positional encoding",
    "pos.title.tgt": "Positional encoding of the decoder input",
    "pos.p1": "Attention on its own has no idea of word order, so every position gets a fixed "
              "pattern of sines and cosines. Columns 2i and 2i+1 hold the sine and the cosine "
              "of the same angle pos / 10000^(2i/d_model): i counts pairs of columns, so each "
              "pair turns at its own speed.",
    "pos.tgt": "The same fixed table as for the source, for the decoder's {n} positions: it "
               "depends only on the position, so its rows equal the source's first {n} rows.",
    "pos.p2": "At position 0 (“{tok}”) every sine is 0 and every cosine is 1. The values do "
              "not depend on the words, only on where they stand.",
    "D6": "The tutorial's step 5 says “i 从 0 到 5” (i from 0 to 5): it counts i over the "
          "six columns, where 10000^(2i/d) needs the pair index (i = 0, 1, 2). Its table is an "
          "image, so the tutorial's numbers here are our reconstruction of that reading: at "
          "position 1 (“{tok}”), column 2 (index 1), it gives {theirs}, where the pair index "
          "gives cos(1/10000^0) = cos(1) = {ours}. The gap grows towards the right-hand "
          "columns, where the column-index angles barely move.",
    "input.title": "The encoder input: embedding + position (an addition)",
    "input.title.tgt": "The decoder input: embedding + position",
    "input.p1.src": "The tutorial's heading says “concatenating”, but the two matrices are "
                    "added number by number: X keeps its shape {n}×{d}. This X is the input of "
                    "the encoder.",
    "input.p1.tgt": "As for the source, embedding and positional encoding are added: Y ({n}×{d}) is "
                    "the input of the decoder.",
    "input.p2": "For example “{tok}”, column d0: {a} + {b} = {c}.",
    # 7, 7b, 12, 12b
    "where.enc": "encoder layer {layer}",
    "where.self": "decoder layer {layer}",
    "where.cross": "decoder layer {layer}",
    "where.head": ", head {h}",
    "where.encoder": "encoder layer {layer}",
    "where.decoder": "decoder layer {layer}",
    "attn.title.enc": "Multi-head attention ({where})",
    "attn.title.self": "Masked multi-head attention ({where})",
    "attn.title.cross": "Cross-attention: the decoder reads the encoder ({where})",
    "attn.intro.enc": "Attention lets every word gather information from the other words of "
                      "its sentence. Each head projects X three ways: queries (what a word looks "
                      "for), keys (what it offers) and values (what it passes on).",
    "attn.intro.self": "The decoder first attends over its own input, but position i may only "
                       "look at positions 0…i: it must predict word i+1 without seeing it.",
    "attn.intro.cross": "Now the decoder looks at the source sentence. Its queries come from "
                        "the decoder, while the keys and values come from the encoder's "
                        "output, the memory M: each target position asks which source words "
                        "matter to it.",
    "why.scale": "Why √d_k: if the numbers of a query and a key are independent with variance "
                 "1, their dot product adds up d_k products, so its variance is d_k and its "
                 "typical size √d_k; dividing by √d_k keeps the scores' spread the same for any "
                 "head width, so wider heads do not push the softmax into saturation.",
    "why.heads": "Why several heads: one softmax gives each word one way to share out its "
                 "attention. h heads of width d_model/h cost about as much as one wide head, "
                 "but each can look for something else (the previous word, the subject, …); "
                 "W^O then joins what they found.",
    "why.sines": "Why sines and cosines: moving k positions along turns each pair of columns "
                 "(sin, cos) by the same angle wherever it starts, so PE(pos + k) is a fixed "
                 "linear map (a rotation) of PE(pos), which a linear layer reads easily; and the "
                 "table goes on past any sentence length seen in training.",
    "why.shift": "Why shift right: position t must predict word t+1 from the words before it. "
                 "Feeding “<start>” and then the target without its last word lines every input "
                 "up with the word it should predict, and the causal mask stops a position from "
                 "reading its own answer.",
    "why.ffn": "What the feed-forward network adds: attention only takes weighted averages of "
               "value rows, a linear mix of V. The FFN applies a nonlinearity (ReLU) to each "
               "position on its own, so the layer can compute features that are not averages; "
               "most of a Transformer's parameters sit here.",
    "attn.sizes": "Here h = {h}: each head has queries and keys of width d_k = {dk} and "
                  "values of width d_v = {dv}, for {n} positions of width d_model = {d}.",
    "attn.more_heads": "The first {shown} of the {h} heads are shown one by one; the others "
                       "compute the same way with their own weights, and all of them are "
                       "joined in the last panel of this step.",
    "D11": "The tutorial says LLaMA uses 32 heads “in its encoder”. LLaMA is decoder-only: it "
           "has no encoder at all, and its heads sit in masked self-attention like the decoder's.",
    "D8.self": "The tutorial calls the mask optional and skips it. In the decoder's "
               "self-attention it is never optional: without it, position i could read the "
               "very word it is being trained to predict.",
    "D2": "The tutorial feeds the encoder output in as query and key, and takes the value from "
          "the decoder. That is backwards: the query comes from the decoder, key and value from "
          "the encoder. The tutorial's wiring only works when both sentences have the same "
          "length; here they have {n} and {m} tokens.",
    "proj.title.q": "Queries Q = {x}·W^Q ({where})",
    "proj.title.k": "Keys K = {x}·W^K ({where})",
    "proj.title.v": "Values V = {x}·W^V ({where})",
    "proj.q": "Each row of the input ({d} numbers for one word) is multiplied by W^Q "
              "({d}×{w}) and becomes that word's query, {w} numbers saying what it looks for. "
              "“{tok}” gets [{row}].",
    "proj.k": "The same input times another weight matrix, W^K, gives the keys: what each "
              "word offers to the queries. “{tok}” gets [{row}].",
    "proj.v": "A third weight matrix, W^V, gives the values: the content a word hands over "
              "once it is attended to. “{tok}” gets [{row}].",
    "proj.k.cross": "The keys come from the memory M, the encoder's output, one row per "
                    "source word: M times W^K gives what each source word offers to the "
                    "decoder's queries. “{tok}” gets [{row}].",
    "proj.v.cross": "The values come from the memory M too: M times W^V gives the content a "
                    "source word hands over once it is attended to. “{tok}” gets [{row}].",
    "attn.cross.nomask": "There is no causal mask here: the whole source sentence is known "
                         "before the decoder starts, so every target position may read every "
                         "source word.",
    "D10.forward": "The tutorial's closing says masking helps against overfitting. It is not a "
                   "regularizer: the mask enforces left-to-right causality, so that position i "
                   "learns to predict a word it cannot see.",
    "norm.eps": "ε = {eps} only keeps the division safe when a row is constant.",
    "loss.col.p": "p(target)",
    "loss.col.nll": "−log p",
    "D7": "The tutorial writes its words as columns and multiplies a transposed matrix. Here "
          "every matrix has one row per token from the start, so X·W needs no transpose.",
    "scores.title": "Attention scores Q·Kᵀ / √d_k ({where})",
    "scores.p1": "Every query is compared with every key by a dot product; a large score means "
                 "“this word matters to me”. The scores are divided by √d_k = √{dk} = {root}, "
                 "so that they do not grow with the width of the heads.",
    "scores.p2": "Row “{tok}” scores highest against “{best}” ({val}). The scores range from "
                 "{lo} to {hi}.",
    "D1": "The tutorial's text divides by the embedding size {d} (the caption of one of its "
          "figures even says 5) instead of √d_k = {root}, so its scores are {ratio} times ours. "
          "Its matrices are images, so the tutorial's numbers shown here are our "
          "reconstruction, its rule applied to these weights: for “{tok}” against “{other}” "
          "it gives {theirs} where √d_k gives {ours}.",
    "D8.enc": "The tutorial calls the mask optional. In the encoder only padding is masked, "
              "and this sentence has no padding, so every word may see every other word.",
    "D8.pad": "The tutorial calls the mask optional. Here it hides the padding: without it, "
              "real words would give part of their attention to <pad> tokens that mean nothing.",
    "mask.title": "The mask ({where})",
    "mask.causal": "Position i may only see positions 0…i. The {k} scores above the diagonal "
                   "become −∞, so that the softmax gives them weight 0: “{first}” sees only "
                   "itself, “{last}” sees all {n}.",
    "mask.pad": "Padding tokens are not words: their {k} scores become −∞ so that no position "
                "attends to them.",
    "pattern.title": "Softmax: attention weights ({where})",
    "pattern.p1": "The softmax turns each row of scores into weights that are positive and add "
                  "up to 1.",
    "pattern.random": "Read this pattern as arithmetic, not as meaning: the weights are random. "
                      "All-positive random projections make one key score high against every "
                      "query, so the rows pile onto the same word; which word is luck. Random "
                      "weights can mix the rows of V, but they cannot choose what is relevant: "
                      "that choice is what training puts into W^Q and W^K.",
    "pattern.p2": "“{tok}” gives {pct}% of its attention to “{best}”; “{tok2}” gives {pct2}% to "
                  "“{best2}”.",
    "D14.softmax": "Most rows are nearly one-hot (on average the largest weight of a row is "
                   "{top}). With all-positive uniform [0, 1) weights the scores are large and "
                   "the softmax saturates, so almost no gradient flows through it. Xavier "
                   "initialization and √d_model scaling, as in the paper, avoid this.",
    "z.title": "Weighted sum of the values Z = A·V ({where})",
    "z.p1": "Each word's output is the average of the value rows weighted by its attention: "
            "{dv} numbers per word that mix in what the attended words carry.",
    "z.p2": "“{tok}” takes {pct}% of “{best}”'s value, and becomes [{row}].",
    "attn.out.title.enc": "Join the heads: Concat · W^O ({where})",
    "attn.out.title.self": "Join the heads: Concat · W^O ({where}, masked self-attention)",
    "attn.out.title.cross": "Join the heads: Concat · W^O ({where}, cross-attention)",
    "attn.out.p1": "The {h} head outputs ({n}×{dv} each) are placed side by side ({n}×{width}) "
                   "and multiplied by W^O ({width}×{d}). This brings the width back to "
                   "d_model = {d}, so the result can be added to the layer's input next.",
    "attn.out.one": "With a single head there is nothing to place side by side: Z ({n}×{dv}) "
                    "is multiplied by W^O ({width}×{d}) directly. This brings the width back to "
                    "d_model = {d}, so the result can be added to the layer's input next.",
    "attn.out.same": "This layer computes its h = {h} heads exactly as the first layer did, "
                     "with its own weights; here is the joined result.",
    # 8–10
    "resid.title": "Add: the residual connection ({where})",
    "resid.p1": "The sublayer's output is added back onto its input, so each word keeps its "
                "original information and the gradient has a direct path back. For “{tok}”, "
                "column d0: {a} + {b} = {c}.",
    "norm.title": "Add & norm: layer normalization ({where})",
    "norm.p1": "Each row is normalized on its own: subtract the row's mean μ and divide by "
               "√(σ² + ε), so every word's numbers have mean 0 and spread 1 whatever the "
               "layer before did.",
    "norm.p2": "Row “{tok}” has μ = {mu} and √(σ² + ε) = {sd}, so its first number becomes "
               "({x} − {mu}) / {sd} = {y}.",
    "norm.gamma_start": "γ starts at 1 and β at 0, so the output is the plain normalized row; "
                        "training will learn how to scale and shift it.",
    "norm.gamma": "Then each column is scaled by γ and shifted by β, two learned vectors.",
    "norm.memory": "This is the encoder's output: the memory M that every decoder layer reads "
                   "in its cross-attention.",
    "D5": "The tutorial divides by (σ + ε), with ε outside the square root, and has no γ or β. "
          "(x − μ)/(σ + ε) is a common variant, not an error: where the two differ most here "
          "(“{tok}”, column {col}, our reconstruction of the tutorial's way) it gives {theirs} "
          "and √(σ² + ε), the paper's and torch's form, gives {ours}: {diff} apart. They part "
          "only when σ is near √ε. What matters more is γ and β: without them a layer could "
          "never undo the normalization.",
    "final_norm.title.encoder": "Final layer normalization of the encoder",
    "final_norm.title.decoder": "Final layer normalization of the decoder",
    "final_norm.encoder": "torch.nn.Transformer adds one more layer normalization after the "
                          "last encoder layer; its output is the memory M the decoder reads.",
    "final_norm.decoder": "One more layer normalization after the last decoder layer, as "
                          "torch.nn.Transformer does, before the prediction.",
    "ffn.title.pre": "Feed-forward network: the linear layer ({where})",
    "ffn.title.relu": "Feed-forward network: ReLU ({where})",
    "ffn.title.out": "Feed-forward network: output ({where})",
    "ffn.pre": "Attention mixed the words; the feed-forward network now works on each word "
               "alone. Every row ({d} numbers) is multiplied by W₁ ({d}×{w}) and the bias b₁ "
               "is added.",
    "ffn.relu": "ReLU keeps positive numbers and sets negative ones to 0: {k} of the {total} "
                "numbers are set to 0 here.",
    "ffn.out": "A second linear layer, W₂ ({w}×{d}) plus b₂, brings the width back to {d}.",
    "ffn.same": "This layer's feed-forward network computes as the first layer's did, with its "
                "own weights.",
    "D4.single": "The tutorial's feed-forward network is a single linear layer with ReLU, and this "
                "preset follows it. The paper's has two linear layers with ReLU between, widening "
                "to d_ff = 4·d_model and back.",
    "D4.paper": "The tutorial uses a single linear layer with ReLU here. This model, like the "
                "paper, has two linear layers with ReLU between, widening from {d} to "
                "d_ff = {dff} and back.",
    # 11
    "ids.input": "input",
    "ids.target": "target",
    "dec.title": "The decoder and its input",
    "dec.p1": "The decoder gets the target sentence shifted right by one: it reads “{inp}” and "
              "at each of its {n} positions should predict the next word, “{target}”.",
    "dec.p2": "So at position 0 it sees “{first}” and should predict “{want}”. The encoder's "
              "work is done: its output is read by every decoder layer.",
    "D9.forward": "The tutorial says the decoder takes one token at a time. That is how it "
                  "runs at inference, when the next word is not known yet. In training, all "
                  "{n} positions go in at once (teacher forcing) and the causal mask (the tutorial's step 12) "
                  "keeps each position from seeing its answer: one pass, same result.",
    "D17": "The text of the tutorial's step 11 keeps “the” (“when you play the game of "
           "thrones”); only one of its figures there, an image, shows the encoder input "
           "without it. The encoder input stays the same {n} tokens throughout: “{src}”.",
    # 13–14
    "logits.title": "Compute the predicted word: logits",
    "logits.p1": "One linear layer turns each position's {d} numbers into {V} scores, one per "
                 "token of the vocabulary, for all {n} positions at once.",
    "D3": "The tutorial flattens the last decoder matrix into one vector ({n}×{d} = {flat} "
          "numbers) before one linear layer. That mixes the positions and ties the layer to one "
          "sentence length. The same W_out is applied to every position (row) instead.",
    "D16": "The tutorial's output layer scores only the dataset's words, yet decoding stops "
           "when the model predicts <end>, so <end> must be a possible output. Here the output "
           "vocabulary has {V} = {N} words + {specials}.",
    "probs.title": "Probabilities: softmax over the vocabulary",
    "probs.p1": "The softmax turns each row of {V} logits into probabilities that add up to 1.",
    "probs.p2": "After “{tok}” the most likely token is “{word}” with p = {p}; a model that "
                "knew nothing would give every token {uniform}.",
    "pred.title": "The predicted word at each position",
    "pred.p1": "The prediction is the token with the highest probability (argmax p). The table "
               "shows, for each position, the probability of the right word y and of the chosen "
               "one ŷ.",
    "pred.first": "After “{tok}” the model picks “{word}” (p = {p}); the right word is “{want}” "
                  "(p = {pw}).",
    "pred.score": "{k} of {n} positions are right; the model says “{words}”.",
    "pred.untrained": "These weights are random and untrained, so what they pick is chance, "
                      "not knowledge: a position can come out right by luck (a blind guess among "
                      "{V} tokens is right about once in {V}), but nothing makes it right on "
                      "purpose, and the same weights would pick the same words for any meaning. "
                      "Training moves the weights, step by step, until the right word wins at "
                      "every position for a reason.",
    "pred.trained": "Every position is right: these weights have learned this sentence.",
    "pred.score_trained": "Not every position is right yet: these weights have not learned "
                          "this sentence (or never saw it in training).",
    "pred.checkpoint": "These weights come from {path}, trained for {epochs} epochs. Before "
                       "training, the same model (its initial weights) gave “{want}” after "
                       "“{tok}” the probability {before}; after training, {after}.",
    "beside.title": "Random weights beside trained weights",
    "beside.p": "p(y)",
    "beside.untrained": "Everything above used this checkpoint's trained weights ({epochs} "
                        "epochs). Here the same model before training, its initial random weights "
                        "drawn from the same seed, reads the same sentence: its first attention "
                        "pattern A with the random weights θ₀, A′ with the trained ones θ, and "
                        "p(y), the probability of the right next word, at each position under "
                        "both.",
    "beside.trained": "Everything above used random weights. Here a copy of them, trained on the "
                      "corpus's {pairs} sentence pairs for {epochs} epochs (Adam, learning rate "
                      "{lr}; the training loss fell from {first} to {last}), reads the same "
                      "sentence: the first attention pattern A with the random weights θ₀, A′ with "
                      "the trained copy θ, and p(y), the probability of the right next word, at "
                      "each position under both.",
    "beside.pattern": "Random weights make an attention pattern too: every score is a dot product "
                      "of two random projections, so some rows single out one word by chance. "
                      "Nothing in such a pattern was learnt, and it says nothing about the "
                      "sentence's meaning. Training changes W_Q and W_K so that the pattern helps "
                      "predict the training targets; what a trained pattern means is read off its "
                      "effect on the prediction, not off its looks.",
    "beside.predicted": "The prediction: with random weights the positions pick “{random}” ({k_r} "
                        "of {n} right, mean p(y) {pr}); trained, they pick “{trained}” "
                        "({k_t} of {n} right, mean p(y) {pt}). Random weights can be right "
                        "at a position by chance (one word in the vocabulary is always someone's "
                        "argmax); they cannot be right on purpose.",
    "beside.seen": "This sentence pair is one of the pairs the copy was trained on: the "
                   "comparison shows what training does to the numbers, not that the model would "
                   "translate a sentence it has never seen.",
    "pred.col.target": "p(y)",
    "pred.col.picked": "p(ŷ)",
    "loss.title": "The loss: cross-entropy",
    "loss.p1": "The loss measures how surprised the model is by the right words: the mean of "
               "−log p(target) over the {n} positions, L = {L}.",
    "loss.p2": "The worst position is after “{tok}”: the right word “{want}” gets only p = {p}, "
               "which costs −log p = {nl}.",
    "loss.uniform": "A model that spread its probability evenly over the {V} tokens would score "
                    "ln {V} = {lnV}; training drives L towards 0.",
    "loss.q": "In the formula q_t is the target at position t: 1 for the right word and 0 "
              "for every other token, so the sum keeps only −log p(right word).",
    "loss.smoothing": "With label smoothing ε = {eps} the target q also puts a little weight on "
                      "every other token: 1 − ε + ε/V on the right word and ε/V on each other.",
    # 15–16
    "grad.title": "Gradient of {what}: ∂L/∂{sym}",
    "grad.intro": "Now the same steps backwards. ∂L/∂{name} says how much the loss L would "
                  "change if each number of {name} were nudged up a little; the chain rule "
                  "carries it from each step to the step before.",
    "grad.p1": "Its largest entry is {max}{where}.",
    "grad.at": " (row “{row}”, column “{col}”)",
    "grad.at.head": " (head {h}, row “{row}”, column “{col}”)",
    "grad.sign.pos": "A positive gradient means that nudging this number up would raise the "
                      "loss, so the update will move it down; a negative one, the other way. "
                      "The size says how strongly the loss reacts: entries near 0 hardly matter "
                      "for this sentence.",
    "grad.cell": "Worked out for one cell, ∂L/∂{sym}{where}: {shares}. In all: {v}.",
    "grad.share.and": "; plus ",
    "grad.share.copy": "{use} passes its gradient back unchanged, {v}",
    "grad.share.relu": "{use} lets it through only where its input was positive: "
                       "{g} × [{x} > 0] = {g} × {on} = {v}",
    "grad.share.seen": "the mask lets this position through, {v}",
    "grad.share.masked": "the mask hides this position, so nothing comes back: 0",
    "grad.share.softmax": "through the softmax {use}, a·(g − Σ a·g) over the row's {k} weights: "
                          "{a}·({g} − ({terms})) = {v}",
    "grad.share.loss": "from the loss, (p − q) / |T| = ({p} − {q}) / {n} = {v}",
    "grad.share.norm": "through the layer norm {use}, (ĝ − mean ĝ − x̂·mean(ĝ⊙x̂)) / √(σ²+ε) "
                       "with ĝ = γ ⊙ ∂L/∂Y and x̂ = (x − μ) / √(σ²+ε): "
                       "({gh} − {mg} − {xh}·{mgx}) / {sd} = {v}",
    "grad.share.dot": "from {use}, {k} products added up: {terms} = {v}",
    "grad.share.scaled": "from {use}, {k} products added up and times 1/√d_k = {f}: "
                         "({terms})·{f} = {v}",
    "grad.op.linear": "Through a linear layer the gradient goes back through Wᵀ to the input "
                      "{x}, and the weights get {x}ᵀ·∂L/∂{y}: each weight's share of the blame.",
    "grad.op.head_proj": "The projection passes the gradient back to its input and gives "
                         "{w} its gradient, {x}ᵀ·∂L/∂{sym}, head by head.",
    "grad.op.softmax": "The softmax's gradient is large only where the weights are neither 0 "
                       "nor 1: a saturated softmax lets almost nothing through.",
    "grad.op.scores": "The gradient of the scores is shared between the queries and the keys, "
                      "divided by √d_k as in the forward pass.",
    "grad.op.attend": "Z = A·V sends its gradient both to the attention weights and to the "
                      "values.",
    "grad.op.layer_norm": "Layer normalization passes back only the part of the gradient that "
                          "does not just shift or stretch the row; γ and β get their own "
                          "gradients.",
    "grad.op.relu": "ReLU lets the gradient through where its input was positive and blocks "
                    "it where it was set to 0.",
    "grad.op.identity": "This is the gradient at the output of a whole layer. Inside the layer the chain "
                       "rule runs through the same steps as in the first layer, shown below; every number "
                       "is kept on the tape.",
    "grad.op.add": "An addition copies the gradient to both of its inputs: this is why the "
                   "residual connection gives the gradient a direct path back.",
    "grad.op.embed": "Only the rows of the embedding table that the sentence used get a "
                     "gradient; every other word's row stays as it is.",
    "grad.logits": "For the cross-entropy after a softmax, ∂L/∂logits = (p − q) / {n}, where q "
                   "is the target: 1 for the right word and 0 for the others. "
                   "At position 0 the right word “{word}” has p = {p}, so its gradient is "
                   "({p} − 1) / {n} = {g}: negative, which pushes that logit up.",
    "D9.backward": "All {n} positions received their gradient from one forward pass: teacher "
                   "forcing trains every position of the sentence at once. The tutorial's "
                   "one-token-at-a-time decoder belongs to inference.",
    "D14.backward": "The scores' gradient is tiny here (largest entry {max}): the saturated "
                    "softmax lets almost nothing through, so W^Q and W^K barely learn from this "
                    "sentence. That is the price of the all-positive uniform [0, 1) start.",
    "D10": "The {k} masked scores get gradient {zero}: the mask cuts every path from a position "
           "to the words after it. It enforces left-to-right causality. The tutorial says it "
           "helps against overfitting; it is not a regularizer.",
    "update.title": "Updating {what}",
    "update.first": "One step of plain gradient descent moves every parameter against its "
                    "gradient: θ ← θ − η·g with learning rate η = {lr}. For a small enough η, the "
                    "loss of the same sentence is then a little lower.",
    "update.embed": "Only the {k} rows of the words in the sentence have a gradient, so only "
                    "they move (shown here); the other {rest} rows of the table stay as they are.",
    "update.p1": "The largest gradient of {name} is at [{at}]: {before} − {lr}·({g}) = {after}.",
    "update.loss": "Before the update the loss is L = {before}; a second forward pass of the "
                   "same sentence with every updated parameter gives L = {after}.",
    "update.moved": "Which way the step moved the prediction: each position's probability of "
                    "its right word, before → after the update: {items}. It rose at {k} of the "
                    "{n} positions.",
    "update.moved.item": "after “{inp}”, p({word}) {before} → {after}",
    "update.moved.sep": "; ",
    "update.moved.up": "The update moved the prediction after “{inp}” most: p({word}) rose from "
                       "{before} to {after}.",
    "update.moved.down": "The update moved the prediction after “{inp}” most: p({word}) fell "
                         "from {before} to {after}.",
    "shards.title": "Many machines: the gradient of shards",
    "shards.p1": "Training on many machines cuts every batch into data shards, one per process: "
                 "each process computes the gradient of its own shard, and the gradients are "
                 "then averaged. Here the same is done in one process. The batch is the "
                 "corpus's first {B} sentence pairs, with n = {n} target tokens; cut into N = {N} "
                 "equal shards ({k} of the pairs in each), the shards hold nₖ = {counts} "
                 "target tokens.",
    "shards.weights": "The loss is the mean over all n = {n} target tokens, and each shard's "
                      "loss is the mean over its own nₖ tokens, so a shard counts nₖ/n of the "
                      "whole. The gradient is linear in the loss, hence ḡ = Σₖ (nₖ/n)·gₖ "
                      "is the gradient of the whole batch.",
    "shards.equal": "Here every shard holds the same count of tokens, so every weight is 1/N "
                    "and ḡ is the plain mean of the shards' gradients: what "
                    "DistributedDataParallel takes.",
    "shards.unequal": "DistributedDataParallel takes the plain mean (1/N)·Σₖ gₖ, which is "
                      "this sum only when the shards hold equal counts of tokens. Here they do "
                      "not, and the plain mean would miss the whole batch's gradient by up to "
                      "{plain}.",
    "shards.result": "Shown for {name}: each shard's gradient gₖ, their weighted sum ḡ and the "
                     "gradient g of the whole batch, all computed by the same NumPy engine. ḡ "
                     "and g differ by at most {max} (at [{at}]): float round-off, nothing more.",
    "shards.torch": "Across real processes, handformer hands this to PyTorch: one process per share, "
                   "each computing its share of every batch and scaling its loss by N/n, so that DistributedDataParallel's "
                   "plain mean of the gradients is this weighted sum. The step is the whole batch's, "
                   "and the checkpoint it writes is walked by hand like this model.",
    "list.sep": ", ",
    "name.at": "{what} ({where})",
    "param.embed": "the embedding table {sym}",
    "param.embed.src": "the source embedding table {sym}",
    "param.embed.tgt": "the target embedding table {sym}",
    "param.w_out": "the output layer's weights {sym}",
    "param.b_out": "the output layer's bias {sym}",
    "param.w_ffn": "the feed-forward weights {sym}",
    "param.b_ffn": "the feed-forward bias {sym}",
    "param.w_q": "the query weights {sym}",
    "param.w_k": "the key weights {sym}",
    "param.w_v": "the value weights {sym}",
    "param.w_o": "the weights joining the heads {sym}",
    "param.b_qkv": "the projection's bias {sym}",
    "param.gamma": "the layer norm's scale {sym}",
    "param.beta": "the layer norm's shift {sym}",
    "name.logits": "the logits",
    "name.probs": "the probabilities",
    "name.attn_out": "the joined heads",
    "name.concat": "the heads side by side",
    "name.z": "the weighted sum of the values",
    "name.pattern": "the attention weights",
    "name.scores": "the attention scores",
    "name.q": "the queries",
    "name.k": "the keys",
    "name.v": "the values",
    "name.norm": "the layer normalization",
    "name.resid": "the residual sum",
    "name.ffn_pre": "the feed-forward linear layer",
    "name.ffn_act": "the feed-forward ReLU",
    "name.ffn_out": "the feed-forward output",
    "name.layer_out": "the layer's output",
    "name.input": "the input (embedding + position)",
    "name.tok": "the embedding",
    "place.self_attn": ", self-attention",
    "place.cross_attn": ", cross-attention",
    "place.ffn": ", feed-forward",
    # the decoder-only (GPT) walkthrough
    "gpt.beside.trained": "Everything above used random weights. Here a copy of them, trained on "
                          "the dataset's {pairs} lines for {epochs} Adam steps as `handformer "
                          "train --family gpt` trains (each step reads every line; learning rate "
                          "{lr}; the training loss fell from {first} to {last}), reads the same "
                          "text: the first layer's masked self-attention pattern of head 1, A "
                          "with the random weights θ₀ and A′ with the trained copy θ, and p(y), "
                          "the probability of the right next word, at each position under both.",
    "gpt.beside.pattern": "Random weights make an attention pattern too: every score is a dot "
                          "product of two random projections, so some rows single out one earlier "
                          "word by chance. Under both weights the pattern is zero above the "
                          "diagonal: the mask, not training, keeps each position from reading the "
                          "words after it. Nothing in the random pattern was learnt; training "
                          "changes W_Q and W_K so that the pattern helps predict each next word of "
                          "the lines, and what a trained pattern means is read off its effect on "
                          "the prediction, not off its looks.",
    "gpt.beside.untrained": "Everything above used this checkpoint's trained weights ({epochs} "
                            "Adam steps over its lines). Here the same model before training, "
                            "its initial random weights drawn from the same seed, reads the same "
                            "text: the first layer's masked self-attention pattern of head 1, A "
                            "with the random weights θ₀ and A′ with the trained ones θ, and p(y), "
                            "the probability of the right next word, at each position under both.",
    "gpt.beside.seen": "This text is one of the lines the copy was trained on: the comparison "
                       "shows what training does to the numbers, not that the model would "
                       "continue a text it has never seen.",
    "gpt.overview.title": "The big picture: a decoder-only Transformer (GPT-style), by hand",
    "gpt.overview.p1": "This walkthrough computes one decoder-only Transformer by hand, the kind "
                       "GPT and LLaMA are: {layers} layer(s), every token a row of d_model = {d} "
                       "numbers, {h} heads of d_k = {dk}, a feed-forward width d_ff = {dff}, and "
                       "a vocabulary of {V} tokens.",
    "gpt.overview.p2": "It reads one text, “{text}”, as {n} tokens after <start>, and at every "
                       "position predicts the next token.",
    "gpt.changed.memory": "What changed from the encoder-decoder: there is no memory M. Nothing "
                          "is encoded first and read later; the only thing a position can "
                          "consult is the tokens before it.",
    "gpt.changed.stack": "One stack instead of two: the tutorial's question and its answer, "
                         "“when you play the game of thrones” and “you win or you die”, are one "
                         "text. The prompt is simply where the text starts; answering is "
                         "continuing it.",
    "gpt.changed.mask": "So the causal mask does all the work. In the encoder-decoder it only "
                        "kept the decoder from reading its answer; here it is the whole "
                        "difference between reading and predicting: position i sees tokens 0…i "
                        "and is trained to predict token i+1, all positions in one pass.",
    "gpt.changed.pre": "Layer norm comes before each sublayer (pre-norm, as GPT-2): "
                       "X + MHA(LN(X)). The residual stream X itself is never normalized inside "
                       "the stack, which lets deep stacks train without a warm-up; one last "
                       "layer norm comes after the stack. The paper's post-norm (layer norm "
                       "after each residual sum) is one switch away.",
    "gpt.changed.post": "Layer norm comes after each residual sum (post-norm, as the paper and "
                        "GPT-1): LN(X + MHA(X)). GPT-2 moved it before each sublayer "
                        "(pre-norm, the default here).",
    "gpt.changed.tied": "The output layer has no weights of its own: it is the embedding table "
                        "transposed, W_out = Eᵀ (the paper's §3.4, GPT-2). E is used twice, and "
                        "its gradient is the sum of the two uses.",
    "gpt.changed.untied": "The output layer has its own weights W_out (the embeddings are not "
                          "tied).",
    "gpt.changed.steps": "What the tutorial's step 11 adds, the decoder's own input and its "
                         "cross-attention, has no counterpart here: after the layers comes the "
                         "prediction, as in the tutorial's step 13.",
    "gpt.arch.embed": "Text: embedding + positional encoding",
    "gpt.arch.stack": "Decoder-only stack × {n}",
    "gpt.arch.generator": "Linear with Eᵀ + softmax",
    "gpt.text.title": "The dataset, read as plain text",
    "gpt.text.p1": "The tutorial's {count} sentences, read as plain text: a language model has "
                   "no source and no target, only text to continue.",
    "gpt.text.p2": "The example is the tutorial's sentence pair read as one text: “{prompt}” "
                   "and then “{rest}”. The encoder-decoder reads the first and writes the "
                   "second; this model reads both, one token after the other.",
    "gpt.text.trained": "These weights are not random: they come from the checkpoint {path}, "
                        "trained for {steps} Adam steps on these lines (the mean loss ended at "
                        "{loss}). Every number below is the trained model's.",
    "gpt.ids.title": "Encoding, and the target: the input shifted by one",
    "gpt.ids.p1": "The model reads <start> and the words, {n} tokens. At every position it "
                  "should predict the token that comes next, so the target is the input "
                  "shifted left by one, ending with <end>: one text gives {n} lessons at once.",
    "gpt.ids.p2": "Position 0 sees “{first}” and should predict “{want}”; the last position, "
                  "{last}, sees “{tok}” and should predict “{end}”.",
    "gpt.embed.tied": "Keep this table in mind: the output layer at the end uses the same E, "
                      "transposed.",
    "gpt.embed.untied": "The output layer at the end has its own weights; this table is used "
                        "only here.",
    "gpt.pos.why": "GPT-2 learns a table of positions instead. The fixed sines keep this "
                   "input exactly the encoder-decoder's, so that what differs is the stack alone.",
    "gpt.arch.norm": "Layer norm {k}",
    "gpt.input.title": "The input: embedding + position",
    "gpt.input.p1": "Embedding and positional encoding are added number by number: X "
                    "({n}×{d}) is the only input of the stack; there is no second sentence.",
    "prenorm.title.attn": "Layer norm before the attention ({where})",
    "prenorm.title.ffn": "Layer norm before the feed-forward network ({where})",
    "prenorm.title.cross": "Layer norm before the cross-attention ({where})",
    "prenorm.p1": "Pre-norm: the sublayer reads the normalized rows, but the residual sum "
                    "after it adds the sublayer's output to X itself, not to LN(X).",
    "prenorm.resid": "With pre-norm this sum is not normalized: it is the residual stream, "
                     "which carries every layer's contribution, added up, to the end.",
    "gpt.ffn.relu": "GPT-2 uses GELU here, a smooth ReLU; ReLU keeps every number easy to check.",
    "gpt.final.title": "Final layer normalization",
    "gpt.final.p1": "With pre-norm nothing has normalized the residual stream yet: one last "
                    "layer norm (GPT-2's ln_f) gives the output layer rows of a steady size.",
    "gpt.final.title.rms": "Final RMSNorm",
    "gpt.final.p1.rms": "With pre-norm nothing has normalized the residual stream yet: one last "
                        "RMSNorm (Llama's model.norm, γ only) gives the output layer rows of a "
                        "steady size.",
    "logits.tied": "W_out is not a new matrix: it is the embedding table transposed, "
                       "Eᵀ ({d}×{V}). The row that placed a word in the embedding now scores how well "
                       "each position's vector matches that word. Sharing it saves {saved} "
                       "numbers.",
    "gpt.logits.untied": "W_out ({d}×{V}) has its own numbers, apart from the embedding table.",
    "tied.and": "; ",
    "tied.plus": " + ",
    "tied.what.src": "the source sentence",
    "tied.what.tgt": "the decoder's input",
    "tied.what.text": "the text",
    "tied.title": "Backward: the tied table E, one gradient from {k} uses",
    "tied.p1": "E was used {k} times: {uses}. The reverse pass adds what each use sends back: "
               "∂L/∂E = the rows of each lookup's ∂L/∂X_tok added into the rows of their "
               "tokens, plus (∂L/∂W_out)ᵀ.",
    "tied.use.lookup": "to look up the {n} tokens of {what} (step {step})",
    "tied.use.out": "transposed, as W_out (step {step})",
    "tied.term.lookup": "{v} from the lookup of {what}",
    "tied.term.out": "{v} from the output layer",
    "tied.p2": "For “{word}” (row {row}), column {col}: {terms} = {c}.",
    "tied.p3": "The {rest} tokens that are not in the input get a gradient too, from the "
               "output layer alone: every word's score took part in the softmax.",
    "gpt.recap.computed": "What was computed: {steps} steps on the tape, from the {n} ids of the "
                          "text to {V} probabilities at each of its {n} positions.",
    "gpt.recap.lesson": "The same lesson as the encoder-decoder's, told by its other half: one "
                        "stack, no memory, and a causal mask that turns reading into "
                        "predicting.",
    # the parts of today's LLMs in the decoder-only walkthrough: RoPE, RMSNorm, SwiGLU, GQA
    "gpt.changed.rope": "Positions are rotary (RoPE, as Llama): nothing is added to the input. "
                        "Inside attention each head's queries and keys are turned, pair of "
                        "columns by pair of columns, by an angle proportional to their "
                        "position, so a score sees how far apart two tokens are.",
    "gpt.changed.rms": "Every norm is RMSNorm (as Llama): each row is divided by its root mean "
                       "square and scaled by γ; no mean is subtracted and there is no β.",
    "gpt.changed.swiglu": "The feed-forward network is SwiGLU (as Llama): a gate SiLU(X W_gate) "
                          "multiplies X W_up number by number, then W_down maps the {dff} "
                          "hidden numbers back.",
    "gpt.changed.gqa": "The {h} query heads share {kv} key/value heads (grouped-query "
                       "attention): fewer keys and values to store for every token.",
    "gpt.arch.embed.rope": "Text: embedding (no positional encoding)",
    "gpt.arch.heads.kv": "h = {h}, {kv} K/V heads, d_k = {dk}",
    "gpt.arch.swiglu": "SwiGLU {d}→{dff}→{d}",
    "gpt.arch.final_rms": "Final RMSNorm",
    "gpt.arch.rms": "RMSNorm {k}",
    "gpt.embed.rope.title": "The input: the embedding alone",
    "gpt.embed.rope": "Nothing is added for the positions: with rotary positions (RoPE) the "
                      "order of the tokens enters inside attention, where each head's queries "
                      "and keys are turned by their position (step 7). X = E[ids] is the "
                      "stack's whole input.",
    "rope.angles.title": "Rotary positions: the angles ({where})",
    "rope.angles.p1": "RoPE turns each head's query and key rows, pair of columns by pair of "
                      "columns, by an angle: pair i at position m turns by m·θ_i. The values "
                      "are not turned.",
    "rope.angles.p2": "With d_k = {dk} each head has {half} pair(s); θ_i = base^(−2i/d_k) with "
                      "base {base}: θ = {thetas}. The first pair turns fastest, the last the "
                      "slowest.",
    "rope.angles.p3": "The table m·θ_i has a row per position: “{tok}”, at position {m}, turns "
                      "its first pair by {a} radians. Its cosine and sine are what the rotation "
                      "uses.",
    "rope.pairs.half": "The pairs here are Hugging Face's (rotate_half): column i with column "
                       "i + d_k/2 of each head, that is {labels}.",
    "rope.pairs.adjacent": "The pairs here are the RoFormer paper's (and GGUF's): neighbouring "
                           "columns 2i and 2i + 1 of each head, that is {labels}.",
    "rope.turn.title": "Rotary positions: Q and K turned ({where})",
    "rope.turn.p1": "Each row of this head's Q and K is turned by its own position: {half} "
                    "pair(s) of columns out of d_k = {dk}, each a 2-D rotation. The scores "
                    "read the turned Q̃ and K̃.",
    "rope.turn.worked": "By hand, “{tok}” at position {m}, pair (column {a}, column {b}), angle "
                        "{angle}: {xa}·cos − ({xb})·sin = {xa}·{cos} − ({xb})·{sin} = {ya}, and "
                        "{xb}·{cos} + {xa}·{sin} = {yb}.",
    "rope.turn.norm": "A rotation keeps lengths: the query of “{tok}” has length {before} "
                      "before and {after} after.",
    "rope.rel.title": "Rotary positions: the score sees only the distance ({where})",
    "rope.rel.p1": "A check computed beside the walk: head 1's query of “{tok}” (position {m}) "
                   "and key of “{other}” (position {n}), before turning.",
    "rope.rel.p2": "Turned at positions ({m}, {n}) their dot product is {first} (the walk's "
                   "score there, times {root}, is {tape}); moved both by {s} it is {moved}: the "
                   "same, to {diff}. A rotation by mθ then by −nθ is a rotation by (m − n)θ.",
    "rope.rel.p3": "Moving the query alone, to position {m} (distance {d} instead of {d0}), "
                   "gives {one}: the score changes with the distance, not with where the pair "
                   "sits.",
    "rope.rel.row": "q̃·k̃",
    "rope.pairs.title": "Rotary positions: two ways to pair the columns ({where})",
    "rope.pairs.p1": "A trap when weights move between programs. Hugging Face pairs column i "
                     "with i + d_k/2 (rotate_half, the default here); the RoFormer paper and "
                     "GGUF files pair neighbours 2i and 2i + 1. Both are RoPE, but the same "
                     "W_Q and W_K give different scores under the other pairing.",
    "rope.pairs.p2": "Converting is a permutation of W_Q's and W_K's output columns, inside "
                     "each head (W is d_model × heads·d_k, and X W): this head's columns in the "
                     "order {order} (d_k = {dk}).",
    "rope.pairs.p3": "Computed on this walk, over every head and every position the mask keeps: "
                     "with the columns permuted the scores change by at most {same}; loaded "
                     "without the permutation they change by up to {off}. The second table "
                     "is head 1's scores computed that wrong way.",
    "rope.pairs.one": "With d_k = 2 each head has one pair, which both conventions form from "
                      "the same two columns: here the two agree, and at d_k = 4 or more they "
                      "do not.",
    "gqa.title": "Grouped-query attention: heads sharing keys and values ({where})",
    "gqa.p1": "{h} query heads, but only {kv} key/value heads: each K and V head is shared by "
              "a group of {g} query heads, which compute their own scores against it.",
    "gqa.groups": "{groups}.",
    "gqa.group": "K/V head {g} serves query heads {heads}",
    "gqa.p2": "W_K and W_V have d_model × {kv}·d_k columns instead of d_model × {h}·d_k: "
              "{wk} numbers each instead of {wk_mha}. A decoder keeps every past token's keys "
              "and values (the KV cache): {cache} numbers per token and layer instead of "
              "{cache_mha}, {ratio} times fewer.",
    "gqa.mqa": "With one key/value head for every query head this is multi-query attention.",
    "gqa.note": "shared by heads {heads}",
    "gqa.row.cache": "KV cache per token, layer",
    "gqa.col.this": "{kv} K/V heads",
    "gqa.col.mha": "{h} heads (MHA)",
    "gqa.served": "This is K/V head {g}: query heads {heads} all read it.",
    "rms.title": "Add & norm: RMSNorm ({where})",
    "rms.title.attn": "RMSNorm before the attention ({where})",
    "rms.title.ffn": "RMSNorm before the feed-forward network ({where})",
    "rms.title.cross": "RMSNorm before the cross-attention ({where})",
    "rms.p1": "RMSNorm divides each row by its root mean square, RMS = √(mean of x² + ε), "
              "then multiplies by γ.",
    "rms.p2": "Row “{tok}” has RMS = {rms}, so its first number becomes {x} / {rms} · {g} = "
              "{y}.",
    "rms.vs_layer": "Unlike layer normalization, no mean is subtracted (a row is only scaled, "
                    "never shifted) and there is no β: one statistic and half the parameters.",
    "rms.prenorm": "Pre-norm: the sublayer reads the normalized rows, but the residual sum "
                   "after it adds the sublayer's output to X itself, not to RMSNorm(X).",
    "rms.gamma_start": "γ starts at 1, so at first the norm only rescales each row.",
    "swiglu.title.gate": "SwiGLU: the gate G = X·W_gate ({where})",
    "swiglu.title.up": "SwiGLU: the values U = X·W_up ({where})",
    "swiglu.title.silu": "SwiGLU: SiLU of the gate ({where})",
    "swiglu.title.act": "SwiGLU: the gate times the values ({where})",
    "swiglu.p1": "SwiGLU has three matrices and no biases: W_gate and W_up each map the {d} "
                 "numbers of a row to {w} hidden numbers; W_down maps them back.",
    "swiglu.rule": "Llama's rule for the hidden width: 2/3 of 4·d_model, so that three "
                   "matrices hold about as many numbers as the two of a 4·d_model ReLU network: "
                   "⌈2/3·4·{d}⌉ = {raw}, rounded up to a multiple of {k}: {rule}.",
    "swiglu.rule.kept": "This walk uses that width, {w}.",
    "swiglu.rule.set": "This walk's width, {w}, was set by hand instead.",
    "swiglu.up": "The same row, through another matrix: U carries what the gate lets pass.",
    "swiglu.silu": "SiLU(x) = x·σ(x) is a smooth ReLU: “{tok}”'s gate {j} is {g}, σ = {sig}, "
                   "so SiLU = {s}, almost shut. {k} of the {total} gate numbers are negative; "
                   "unlike ReLU they still let a little through.",
    "swiglu.act": "Number by number: the gate decides how much of each value passes. For "
                  "“{tok}”, hidden number 0: {s} × {u} = {h}.",
    "swiglu.down": "H W_down brings the {w} hidden numbers back to {d}. The three matrices "
                   "hold {params} numbers; a ReLU network 4·d_model wide holds {relu}.",
    "name.q_rot": "the turned queries (RoPE)",
    "name.k_rot": "the turned keys (RoPE)",
    "name.k_shared": "the keys shared by each group",
    "name.v_shared": "the values shared by each group",
    "name.gate": "SwiGLU's gate",
    "name.up": "SwiGLU's up projection",
    "name.silu": "SiLU of the gate",
    "name.swiglu_act": "the gate times the values",
    "name.rms": "the RMSNorm",
    "grad.op.rms_norm": "RMSNorm passes back the gradient scaled by 1/RMS, less the part "
                        "that would only stretch the whole row; γ gets its own gradient.",
    "grad.op.rope": "A rotation is undone by the opposite rotation: the gradient of each pair "
                    "is turned back by −mθ_i.",
    "grad.op.repeat_kv": "A key/value head read by a group of query heads gets the sum of "
                         "their gradients.",
    "grad.op.silu": "SiLU passes back σ(x)·(1 + x·(1 − σ(x))) times the gradient: nearly all "
                    "of it for large x, a little for negative x.",
    "grad.op.mul": "A product sends each factor the gradient times the other factor: the gate "
                   "gets it times U, U gets it times the gate.",
    # the pretrained (BERT) walkthrough
    "bert.arch.embed": "Embeddings: word + position + type, layer norm",
    "bert.arch.pooling": "Mean pooling: one sentence vector",
    "bert.overview.title": "A real pretrained model, by hand: {model}",
    "bert.overview.sizes": "The same arithmetic as the tutorial, at full size and with learned weights: "
                           "{layers} layers, d_model = {d_model}, {heads} heads of d_k = {d_k}, "
                           "feed-forward width {d_ff}, a vocabulary of {vocab_size} WordPiece tokens. "
                           "Every number below matches the reference implementation (transformers' "
                           "BertModel) to float64 round-off.",
    "bert.differs.encoder": "Encoder only. There is no decoder and no next word: the model turns a "
                            "sentence into one vector (its embedding), so that sentences with similar "
                            "meanings get nearby vectors.",
    "bert.differs.wordpiece": "WordPiece instead of whole words. The tutorial gives each of its 23 "
                              "words an id; BERT cuts text into pieces from a fixed vocabulary, so "
                              "almost no word is unknown, and frames the sentence with the special tokens "
                              "[CLS] and [SEP].",
    "bert.differs.positions": "Learned positions instead of sines and cosines: row p of a trained "
                              "table E_pos is added at position p.",
    "bert.differs.gelu": "GELU instead of ReLU in the feed-forward: x·Φ(x), smooth, letting small "
                         "negative values through.",
    "bert.differs.pooling": "Pooling at the end: the mean of the last layer's rows over the real "
                            "tokens, scaled to length 1, is the sentence embedding.",
    "bert.wp.title": "WordPiece: text to tokens and ids",
    "bert.wp.words": "The text \"{text}\" is cleaned (lower case, accents removed), then split on "
                     "spaces and around punctuation: {words}.",
    "bert.wp.pieces": "Each word is cut greedily into the longest pieces in the vocabulary; a piece "
                      "that continues a word starts with ##. With [CLS] in front and [SEP] at the end, "
                      "the model reads {n} tokens: {tokens}",
    "bert.wp.split": "Cut into pieces: {words}.",
    "bert.wp.unk": "[UNK] stands for a word that cannot be made of pieces in the vocabulary: {words}.",
    "bert.wp.ids": "Their ids (line numbers in vocab.txt): {ids}.",
    "bert.emb.word.title": "Token embeddings",
    "bert.emb.word": "Each of the {n} ids picks its row of the trained table E_word: a matrix of "
                     "{n}×{d}. In the tutorial these rows were random; here they were learned.",
    "bert.emb.position.title": "Learned position embeddings",
    "bert.emb.position": "Position p picks row p of the trained table E_pos ({n} rows of {d}). The "
                         "tutorial computes sines and cosines instead; BERT learns these rows, and "
                         "cannot read past its last row.",
    "bert.emb.type.title": "Token-type (segment) embeddings",
    "bert.emb.type": "BERT can read two sentences at once, marking the second with type 1. One "
                     "sentence is type 0 throughout, so the same row of E_type is added to all {n} "
                     "tokens.",
    "bert.emb.sum.title": "The input: three embeddings added",
    "bert.emb.sum": "Word, position and type embeddings are added, element by element.",
    "bert.emb.ln.title": "Layer norm of the embeddings",
    "bert.emb.ln": "BERT normalizes its input before the first layer (the tutorial does not), with "
                   "ε = 1e-12. This is H⁽⁰⁾, the input of layer 1.",
    "bert.ln.first": "The row of {token} has mean {mean} and standard deviation {std} before it is "
                     "normalized.",
    "bert.where": "Layer {i} of {layers}: ",
    "bert.qkv.title": "queries, keys and values",
    "bert.qkv": "As in the tutorial, now with biases: {h} heads, each with its own {dk}-column Q, K "
                "and V. Shown: head 1; the other heads are the same computation with other weights.",
    "bert.scores.title": "scores and mask",
    "bert.scores": "S = Q Kᵀ / √d_k with d_k = {dk}, one score for every pair of tokens (head 1).",
    "bert.mask.none": "The padding mask hides the keys that are [PAD]: this sentence has none, so "
                      "nothing is hidden. In a batch of sentences of different lengths the shorter "
                      "ones are padded, and their [PAD] keys get −∞.",
    "bert.mask.pad": "The [PAD] keys get −∞, so no token looks at padding.",
    "bert.pattern.title": "the attention patterns of all {h} heads",
    "bert.pattern": "softmax(S) by row, for each of the {h} heads: row i says how much token i "
                    "takes from every token. Unlike a toy with random weights, trained heads show "
                    "structure: some look at the next or previous token, many rest on [SEP] or "
                    "[CLS] when they have nothing to do.",
    "bert.pattern.kinds": "Where the words look hardest: {told}.",
    "bert.kind.prev": "{heads}: the previous token",
    "bert.kind.next": "{heads}: the next token",
    "bert.kind.self": "{heads}: the token itself",
    "bert.kind.special": "{heads}: [CLS] or [SEP], a resting place",
    "bert.kind.mixed": "{heads}: spread over several tokens",
    "bert.heads": "heads {h}",
    "bert.sep": "; ",
    "bert.comma": ", ",
    "bert.head": "head {h}",
    "bert.z.title": "weighted sum of the values",
    "bert.z": "Z = A V: each token's new vector is the attention-weighted mean of the values "
              "(head 1).",
    "bert.out.title": "heads joined, output projection",
    "bert.out": "The {h} heads' Z are put side by side ({d} columns) and multiplied by W^O (+ b^O).",
    "bert.ln1.title": "add & norm",
    "bert.ln1": "Residual connection and layer norm, after attention (post-norm, as the paper).",
    "bert.ffn.title": "feed-forward with GELU",
    "bert.ffn": "Two linear maps, {d} → {d_ff} → {d}, with GELU between: the tutorial's FFN had one "
                "linear map and ReLU.",
    "bert.gelu": "GELU(x) = x·Φ(x), Φ the standard normal distribution function, computed with erf "
                 "exactly. Where ReLU would give 0, GELU lets a little through: {x} becomes {y}.",
    "bert.ln2.title": "add & norm, the layer's output",
    "bert.ln2": "Residual connection and layer norm after the feed-forward: the layer's output.",
    "bert.pool.title": "Mean pooling: one vector for the sentence",
    "bert.pool": "The mean of the last layer's rows over the {n} real tokens ({tokens}); [CLS] and "
                 "[SEP] count too, [PAD] does not.",
    "bert.pool.why": "The tutorial predicts a next word from every row; this model needs one vector "
                     "for the whole sentence.",
    "bert.l2.title": "L2 normalization: the sentence embedding",
    "bert.l2": "u has length r = ‖u‖ = {norm}; dividing by it gives e, of length 1.",
    "bert.l2.cos": "With every embedding of length 1, the cosine similarity of two sentences is "
                   "just the dot product e_a · e_b.",
    "bert.cos.title": "Cosine similarity",
    "bert.cos": "Each embedding has length 1, so the cosine of the angle between two of them is "
                "their dot product: 1 for the same direction, 0 for unrelated, negative for opposed.",
    "bert.cos.pair": "cos(\"{a}\", \"{b}\") = {cos}.",
    # walk --pretrained --backward: one fine-tuning step on two sentences
    "bert.pair.title": "Two sentences, one fine-tuning step",
    "bert.pair.p1": "This walk takes one step of fine-tuning. A = \"{a}\" and B = \"{b}\" are to "
                    "mean nearly the same, so their embeddings should point the same way. The "
                    "loss measures how far apart they are, the backward pass finds how every "
                    "weight moved it, and one update moves every weight a little to pull A and B "
                    "together.",
    "bert.pair.p2": "B is cut into pieces the same way: {tokens}. The two go through the model "
                    "at once, as a batch padded with [PAD] to {n} tokens; the padding mask keeps "
                    "every token from looking at [PAD], and the mean pooling leaves [PAD] out.",
    "bert.pair.p3": "The steps below show sentence A (the first row of the batch); B goes "
                    "through the same steps, and its numbers sit beside A's on the tape.",
    "bert.loss.title": "The loss: 1 − cosine similarity",
    "bert.loss.p1": "L = 1 − cos(u_A, u_B) is 0 when the two embeddings point the same way, 1 "
                    "when they are at right angles and 2 when they point in opposite ways. "
                    "Lowering it pulls the two sentences together.",
    "bert.loss.p2": "Both embeddings have length 1, so the cosine is their dot product, a sum of "
                    "{d} products: cos = {cos}, and L = {L}.",
    "bert.loss.p3": "The largest product is in column {col}: {a} · {b} = {ab}.",
    "bert.grad.intro": "Now backwards, from L to every weight. ∂L/∂x says how much L would change if x were "
                      "nudged up a little; the chain rule carries it from each step to the step before. "
                      "The gradients are small numbers, often below a thousandth: more decimals show more "
                      "of their digits.",
    "bert.grad.e.title": "Gradient of the sentence embeddings: ∂L/∂e, each pulled toward the other",
    "bert.grad.e": "L = 1 − e_A · e_B, so ∂L/∂e_A = −e_B and ∂L/∂e_B = −e_A (column d0: {g} = "
                   "−({e})). Gradient descent moves e_A against its gradient, toward e_B, and "
                   "e_B toward e_A.",
    "bert.grad.u.title": "Gradient of the mean vector, through the normalization: ∂L/∂u",
    "bert.grad.u": "e = u / r, with r = ‖u_A‖ = {r}. Making u longer would not change e, so the "
                   "normalization passes back only the part of the pull that turns u, divided "
                   "by r.",
    "bert.grad.u.along": "The pull along e_A was e_A · ∂L/∂e_A = {before}; after the "
                         "normalization it is u_A · ∂L/∂u_A = {after}, zero up to round-off.",
    "bert.grad.pool.title": "Gradient of the last layer's output, through the mean pooling: ∂L/∂H_{layers}",
    "bert.grad.pool": "u is the mean of {n} token rows, so the row of each real token gets 1/{n} "
                      "of ∂L/∂u: in column d0, {gu} / {n} = {g}.",
    "bert.grad.pool.pad": "The {k} [PAD] rows were left out of the mean: their gradient is 0.",
    "bert.back.ln2.title": "gradient of the residual sum before the last layer norm: ∂L/∂R₂",
    "bert.back.w2.title": "gradient of the feed-forward's GELU output: ∂L/∂G",
    "bert.back.gelu.title": "gradient of the feed-forward's hidden layer, through GELU: ∂L/∂F",
    "bert.back.gelu": "GELU's slope is Φ(x) + x·φ(x): about 1 for large x, about 0 for very "
                      "negative x, and small but not 0 in between, where ReLU would pass nothing "
                      "at all.",
    "bert.back.gelu.at": "At F = {x} (token {token}, column {col}): ∂L/∂G = {ga} times the slope "
                         "{slope} gives ∂L/∂F = {gf}.",
    "bert.back.w1.title": "gradient of the feed-forward's input: ∂L/∂H′",
    "bert.back.resid": "H′ was used twice, by the feed-forward and by the residual connection "
                       "around it, so ∂L/∂H′ is the sum of the two paths.",
    "bert.back.ln1.title": "gradient of the residual sum after attention: ∂L/∂R₁",
    "bert.back.wo.title": "gradient of the joined heads: ∂L/∂Z",
    "bert.back.z.title": "gradient of the attention weights and the values: ∂L/∂A, ∂L/∂V",
    "bert.back.softmax.title": "gradient of the attention scores, through the softmax and the padding mask: ∂L/∂S",
    "bert.back.mask": "A [PAD] key had weight 0, and its score −∞: its score gets gradient 0, so "
                      "no gradient flows into padding ({a} [PAD] keys in A, {b} in B).",
    "bert.back.scores.title": "gradient of the queries and the keys: ∂L/∂Q, ∂L/∂K",
    "bert.back.qkv.title": "gradient of the layer's input, through the projections",
    "bert.back.qkv": "H_{k}, the layer's input, was used four times: to make Q, K and V, and "
                     "along the residual connection. Its gradient is the sum of the four: each "
                     "projection sends back ∂L/∂Q·(W^Q)ᵀ (likewise for K and V) and gives W^Q "
                     "its gradient H_{k}ᵀ·∂L/∂Q, all heads at once.",
    "bert.back.layer.title": "Gradient of the output of layer {k}: ∂L/∂H_{k}",
    "bert.back.input.title": "Gradient of the input of layer 1: ∂L/∂H_{k}",
    "bert.back.layer": "Back through layer {layer} by the same steps as layer {last} above, the "
                       "gradient reaches its input H_{k}. Every number of those steps is on the "
                       "tape. Its largest entry is {max} (row “{token}”, column “{col}”).",
    "bert.back.emb.title": "Gradient of the embeddings' sum, through their layer norm: ∂L/∂X_sum",
    "bert.back.emb": "The layer norm of the embeddings goes backwards like the others, and γ, β "
                     "of the embeddings get their gradients. X_sum = X_word + X_pos + X_type "
                     "then hands ∂L/∂X_sum unchanged to each of the three lookups.",
    "bert.back.word.title": "Gradient of the word embedding table E_word (a scatter-add)",
    "bert.back.word": "Row w of E_word gets the sum of ∂L/∂X_word over every position that read "
                      "token w, in A and in B. “{token}” was read {k} times: in column {col}, "
                      "{terms} = {total}. The other {rest} rows get 0.",
    "bert.back.pos.title": "Gradient of the position and token-type tables E_pos, E_type",
    "bert.back.pos": "Row p of E_pos gets the gradients of position p in both sentences: row 1, "
                     "column {col}: {a} + {b} = {c}. Only rows 0 to {last} were read; the other "
                     "{rest} rows get 0.",
    "bert.back.type": "Every token read row 0 of E_type, so row 0 gets the sum of the gradients "
                      "of all {k} real tokens of A and B; row 1, the second segment, was not "
                      "read and gets 0.",
    "bert.update.title": "Update: every parameter, one step",
    "bert.update.first": "One step of plain gradient descent moves every parameter against its "
                         "gradient: θ ← θ − η·g with learning rate η = {lr}.",
    "bert.update.count": "All {k} parameter tensors ({total} numbers) move. The table gives the "
                         "size of each gradient, ‖g‖ (the square root of the sum of its "
                         "squares), for every weight of every layer and for the embeddings.",
    "bert.update.table": "The largest is {sym} of layer {layer}.",
    "bert.update.b_k": "b^K gets no gradient in any layer (at most {max}, round-off): adding "
                       "the same b^K to every key adds the same number q·b^K to every score of "
                       "a row, and the softmax does not change when a whole row is shifted.",
    "bert.update.loss": "Before the update L = {before} (cos = {cos}); a second forward pass of "
                        "A and B with the updated weights gives L = {after} (cos = "
                        "{cos_after}): the step pulled them together.",
    "bert.update.loss.not": "Before the update L = {before} (cos = {cos}); with the updated weights L = {after} "
                           "(cos = {cos_after}): not lower. The gradient says which way is down only for small "
                           "steps, and a step of η = {lr} went too far; a smaller learning rate would not.",
    "bert.layer": "layer {i}",
    "bert.update.word.title": "Update: the rows of E_word that A and B used",
    "bert.update.word": "Only the {k} rows of the tokens in A and B have a gradient, so only "
                        "they move (shown here); the other {rest} rows of the table stay as they "
                        "are.",
    # translate --explain
    "decode.intro.title": "Translating “{src}”",
    "decode.intro.p1": "At inference there is no target to copy: the decoder writes one word at a "
                       "time. The encoder runs once; its output, the memory M ({n}×{d}), is what "
                       "every decoding step's cross-attention reads.",
    "decode.intro.greedy": "Greedy search: at each step the most probable word is taken.",
    "decode.intro.beam": "Beam search: the {beam} most probable prefixes are kept at each step; a "
                         "finished one is scored log P(Y) / lp(Y) with lp(Y) = ((5 + |Y|) / 6)^α, "
                         "α = {alpha} (GNMT), so longer answers are not unfairly penalized.",
    "decode.intro.cache": "Each step computes the newest position only. Under the causal mask the "
                          "earlier positions never see it, so their keys and values in every "
                          "decoder layer's self-attention are the ones already computed: they are "
                          "kept in a cache and the new position's key and value appended. The "
                          "cross-attention's keys and values are projections of M, which never "
                          "changes: computed once. Every other step works row by row, so the "
                          "numbers equal those of a full pass over the prefix (tested to 1e-12); the "
                          "work shrinks, from the whole prefix per step to one row.",
    "decode.d9": "In training the whole shifted target enters at once under the causal mask "
                 "(teacher forcing); only here, at inference, does the decoder take one token at a "
                 "time, its own previous outputs.",
    "decode.step.title": "Decoding step {t}: choosing word {t}",
    "decode.step.p1": "The decoder's input so far is “{prefix}”, under the causal mask: the "
                      "newest position, {pos} (counted from 0, as in the walk), sees every token "
                      "before it and nothing after it.",
    "decode.step.p2": "The newest position's cross-attention (decoder layer {layer}, each head a "
                      "row) shows which source words it draws on; then logits = Y W_out + b_out "
                      "and p = softmax(logits) for its row.",
    "decode.step.greedy": "The most probable word is “{word}” (p = {p:.3f}); it is appended.",
    "decode.step.end": "The most probable word is <end> (p = {p:.3f}): decoding stops.",
    "decode.step.beam": "Beam: the best continuations, by total log-probability:",
    "decode.step.hyps": "The beam holds {k} hypotheses, run as one batch; the matrices show the "
                        "first, “{prefix}”.",
    "decode.hyp.col": "log P",
    "decode.hyp.done": "{text} (finished)",
    "decode.top": "top {k} of p",
    "decode.head": "head {h}",
    "decode.cross": "cross-attention of position {n}",
    "decode.result.title": "Translation",
    "decode.result.p1": "“{src}” → “{out}”",
    "decode.result.greedy": "log P = {score:.4f} (the sum of the log-probabilities of the chosen "
                            "words, <end> included).",
    "decode.result.beam": "score = log P / lp = {score:.4f}: the best finished hypothesis.",
    "decode.limit": "No <end> within {n} tokens: decoding stopped at the length limit.",
    # train: progress, summary, loss curve (also its figure labels)
    "train.start": "training {preset} model ({shape}, {init} init) on {pairs} pairs"
                   "{held_out}, {optimizer} {lr}, {dtype}",
    "train.setup": "{test} pairs for testing; {tokenizer} tokens, {vocab} in the vocabulary; "
                   "engine {engine}, {world} process(es)",
    "train.tokenizer_bpe_target": "{tokenizer} (source) and byte-level BPE of {merges} merges (target)",
    "train.held_out": ", {n} held out",
    "train.lr": "lr {lr}",
    "train.peak_lr": "peak lr {peak:.2e}",
    "train.dtype_tutorial": "{dtype} (the default for the tutorial's pairs)",
    "train.dtype_corpus": "{dtype} (the default with --dataset or --pairs; --dtype float64 for "
                          "exact comparisons)",
    "train.small_model": "warning: a d_model {d_model} model learns little from {pairs:,} pairs; "
                         "docs/translator.md's recipe is 128 wide (--preset small --d-model 128 "
                         "--heads 4 --d-ff 512 --layers 2)",
    "train.schedule": "the paper's warm-up schedule: lr factor {factor:.4g}, {warmup} warm-up steps, "
                      "peak rate {peak:.2e} at step {warmup}",
    "train.interrupted": "\ninterrupted; the checkpoint {path} holds epoch {epoch}, the last one "
                         "saved; continue with `handformer train --resume {path}`",
    "train.interrupted_unsaved": "\ninterrupted before an epoch was saved; {path} was not written",
    "train.wrote": "wrote {path}",
    "train.epoch": "epoch",
    "train.loss": "loss",
    "train.acc": "token accuracy",
    "train.val": "validation",
    "train.title": "Training loss and accuracy",
    "train.after": "after {epochs} epochs: training loss {loss:.4f}, token accuracy {acc:.1%}, "
                   "exact match {exact:.1%} (teacher forcing)",
    "train.after_subset": "after {epochs} epochs, on the first {n:,} of the {total:,} training "
                          "pairs: training loss {loss:.4f}, token accuracy {acc:.1%}, exact "
                          "match {exact:.1%} (teacher forcing)",
    "train.valid": "validation: loss {loss:.4f}, token accuracy {acc:.1%}",
    "train.saved": "saved {path}; try: handformer translate --checkpoint {path} \"{src}\"",
    "train.tps": "{rate:,.0f} tokens/s",
    "train.test": "test ({n} pairs): loss {loss:.4f}, token accuracy {acc:.1%}, {scores}",
    "train.scores": "BLEU {bleu:.2f} (sacrebleu, cased, {tokenize}) · chrF2 {chrf:.2f} · "
                    "BLEU lower-cased {lower:.2f}",
    "train.examples": "test sentences, translated (greedy):",
    "train.stopped": "stopped early after epoch {epoch}: no better validation loss for "
                     "{patience} epochs; the best weights are in {best}",
    "train.stopped_bleu": "stopped early after epoch {epoch}: no better validation BLEU for "
                          "{patience} epochs; the best weights are in {best}",
    # Markdown
    "md.title": "handformer: a Transformer by hand",
    "md.row": "row",
    "md.token": "token",
    "md.seed": "The seed tutorial",
    # the HTML page: its chrome, buttons and legends
    "lang.name": "English",
    "page.contents": "Contents",
    "page.phase.text": "Before the model: the data",
    "page.phase.forward": "Forward pass",
    "page.phase.loss": "Loss",
    "page.phase.backward": "Backward pass",
    "page.phase.update": "Update",
    "page.phase.decode": "Decoding",
    "page.phase.recap": "Recap",
    "page.foot": "Numbers rounded to {precision} decimals; computed in float64 by handformer. "
                 "Keys: ← → or j k move between steps.",
    "page.theme": "light / dark",
    "page.prev": "previous step",
    "page.next": "next step",
    "page.link": "link to this step",
    "page.scale": "colour scale",
    "page.show_all": "show all",
    "page.show_corners": "show corners",
    "page.show_first": "show corners (now showing the first {block})",
    "page.corners": "corners of {shape}: every value is kept in the tape file (JSON)",
    "page.show_numbers": "show numbers",
    "page.first": " (first {cut})",
    "page.hover": "hover a cell for its weight; click a head for its numbers",
    "page.seed": "the seed tutorial",
    "page.tutorial": "tutorial",
    "page.pos": "pos {i}",
    "gloss.title": "Glossary",
    "gloss.qkv.term": "Q, K, V (queries, keys, values)",
    "gloss.qkv.match": "queries|keys|values|Q, K and V",
    "gloss.qkv.def": "Three projections of every token. Its query says what it looks for; every token's key says what it offers; the values are what gets mixed, each weighted by how well its key matches the query.",
    "gloss.d_model.term": "d_model",
    "gloss.d_model.match": "d_model",
    "gloss.d_model.def": "The length of every token's vector between the sub-layers: the width of the embeddings, of each sub-layer's output and of the memory.",
    "gloss.d_k.term": "d_k",
    "gloss.d_k.match": "d_k",
    "gloss.d_k.def": "The length of one head's queries and keys. The scores are divided by √d_k, because a dot product of d_k random terms grows with d_k.",
    "gloss.logits.term": "logits",
    "gloss.logits.match": "logits",
    "gloss.logits.def": "The raw scores the last linear layer gives every word of the vocabulary at each position; softmax turns them into probabilities.",
    "gloss.residual.term": "residual connection",
    "gloss.residual.match": "residual",
    "gloss.residual.def": "A sub-layer's input added back to its output, x + sublayer(x): the signal, and in the backward pass its gradient, can go around the sub-layer.",
    "gloss.layer_norm.term": "layer norm",
    "gloss.layer_norm.match": "layer normalization|layer norm",
    "gloss.layer_norm.def": "Each token's vector shifted to mean 0 and scaled to variance 1, then multiplied by γ and shifted by β, both learned.",
    "gloss.teacher_forcing.term": "teacher forcing",
    "gloss.teacher_forcing.match": "teacher forcing",
    "gloss.teacher_forcing.def": "In training the decoder reads the right previous words (the target shifted right), not its own guesses, so every position is learned in one pass.",
    "gloss.memory.term": "memory (M)",
    "gloss.memory.match": "memory",
    "gloss.memory.def": "M, the encoder's output: every decoder layer's cross-attention takes its keys and values from it.",
    "gloss.tape.term": "tape",
    "gloss.tape.match": "tape",
    "gloss.tape.def": "The record of every step computed, in order, with its inputs, its output and its formula; the backward pass walks it in reverse.",
    "gloss.softmax.term": "softmax",
    "gloss.softmax.match": "softmax",
    "gloss.softmax.def": "e^x divided by the sum of e^x over its row: positive numbers that add up to 1, the largest score getting the most.",
    "gloss.embedding.term": "embedding",
    "gloss.embedding.match": "embedding",
    "gloss.embedding.def": "A learned table with one row of d_model numbers per word of the vocabulary; a word's id picks its row.",
    "gloss.positional_encoding.term": "positional encoding",
    "gloss.positional_encoding.match": "positional encoding",
    "gloss.positional_encoding.def": "Sines and cosines of each position, added to the embeddings so that the model can tell word order apart.",
    "page.map": "map of the model: the step being read is lit",
    "page.from": "← from step {step}",
    "page.hidden": "{rows} rows and {cols} columns not shown (⋮ ⋯)",
    "page.hidden_rows": "{rows} rows not shown (⋮)",
    "page.hidden_cols": "{cols} columns not shown (⋯)",
    "page.tutorial_step": "the tutorial's step {n}",
    "page.erratum": "the seed tutorial differs here",
    "page.reads": "Reads:",
    "page.feeds": "Goes to:",
    "page.tap": "tap a cell for its weight; tap a head for its numbers",
    "page.cell_hint": "click a cell: the row and column that make it light up",
    # the spreadsheet (walk --format xlsx)
    "xlsx.input": "input: change it and every number after it recomputes",
    "xlsx.targets": "the target words' ids (input)",
    "xlsx.per_position": "−log p(target) at each position = log Σ exp(logits) − logit of the "
                         "target",
    "xlsx.argmax": "the predicted word: the column with the largest probability in each row",
    "xlsx.predicted_col": "predicted",
    "xlsx.title": "handformer · the whole forward pass, every number a formula",
    "xlsx.hint": "Blue numbers are inputs (embeddings, weights, biases, ids). Change one and "
                 "every formula after it recomputes, down to the predicted words. Hover a "
                 "block's name for its explanation.",
    "xlsx.sentence": "source → target",
    "xlsx.reads": "the decoder reads",
    "xlsx.predicts": "and predicts the next word",
    "xlsx.sheet": "sheet",
    "xlsx.block": "block",
    "xlsx.shape": "shape",
    "xlsx.step": "step",
    "xlsx.replaced": "Note: characters no workbook can hold (control characters, lone "
                     "surrogates, U+FFFE) are shown as ␀…␟ or �.",
    "xlsx.cut": "Note: {cut} text(s) longer than a cell holds (32,767 characters) end in "
                "'… [cut: …]'.",
    # the overview (first) and the recap (last)
    "overview.title": "The big picture: the model computed here",
    "overview.credit": "The example and its steps come from Fareed Khan's tutorial “Solving "
                       "Transformer by Hand: A Step-by-Step Math Example” (Level Up Coding, "
                       "2023; the link is in README.md), retold in Chinese as the comic 手把手漫画数学公式推导Transform教程; "
                       "“the tutorial” below means it.",
    "overview.p1": "This walkthrough computes one encoder-decoder Transformer by hand: "
                   "encoder layers: {enc}, decoder layers: {dec}, every word a row of "
                   "d_model = {d} numbers, and a vocabulary of {V} tokens.",
    "overview.p2": "The encoder reads “{src}” ({n} tokens) once. The decoder reads “{tgt}” "
                   "({m} tokens) and, at every position, predicts the next word.",
    "overview.pre_norm": "Pre-norm: each sublayer reads LN(X) and its output is added to X itself, X + Sublayer(LN(X)), "
                        "instead of the paper's LN(X + Sublayer(X)). The Annotated Transformer and GPT-2 "
                        "do this (it trains deep stacks more stably); torch.nn.Transformer calls it norm_first=True.",
    "overview.pre_norm.no_final": "This run has no final layer norm, so nothing normalizes the residual stream before "
                                 "the output layer: its numbers grow layer by layer. Pre-norm models end with one "
                                 "more LayerNorm.",
    "overview.tied": "Tied embeddings (§3.4 of the paper): one table E ({V}×{d}) is the source embedding, "
                    "the target embedding and, transposed, the output layer's weights, W_out = Eᵀ; that "
                    "is {saved} numbers fewer. Its gradient in the backward pass is the sum of what its "
                    "three uses send back.",
    "overview.paper_count": "Parameters: {here} in this run (a vocabulary of {V}). With the "
                            "paper's shared vocabulary of about {vocab} tokens this "
                            "configuration has {tied} parameters ({m_tied}M) with tied "
                            "embeddings and {untied} ({m_untied}M) without. Table 3 gives 65M "
                            "for the base model; the paper does not say what it counted, and "
                            "the tied count reaches 65M at a vocabulary of about {at_65m} "
                            "tokens.",
    "overview.heads": "The tutorial gives the encoder {enc} head and the decoder {dec}, to show "
                      "both cases: one head alone, and several heads side by side joined by "
                      "W^O. The paper uses the same number (8) everywhere.",
    "overview.map": "The map below is the order of the walkthrough: each block names the step that computes "
                   "it.",
    "overview.steps": "The steps, one line each",
    "arch.src_embed": "Source: embedding + positional encoding",
    "arch.tgt_embed": "Target (shifted right): embedding + positional encoding",
    "arch.shape": "{n}×{d}",
    "arch.encoder": "Encoder × {n}",
    "arch.decoder": "Decoder × {n}",
    "arch.layer": "Layer {i}",
    "arch.self_attn": "Self-attention",
    "arch.masked_attn": "Masked self-attention",
    "arch.cross_attn": "Cross-attention (keys, values from M)",
    "arch.heads": "h = {h}, d_k = {dk}",
    "arch.norm": "Add & norm",
    "arch.ffn.label": "Feed-forward",
    "arch.ffn": "{d}→{dff}→{d}",
    "arch.ffn.single": "{d}→{d}, one layer",
    "arch.final_norm": "Final layer norm",
    "arch.generator": "Linear + softmax",
    "arch.prediction": "Predicted words",
    "arch.short.src": "Source",
    "arch.short.tgt": "Target (shifted)",
    "arch.short.embed": "Embedding",
    "arch.short.self": "Self-attention",
    "arch.short.masked": "Masked attention",
    "arch.short.cross": "Cross-attention",
    "arch.short.linear": "Linear + softmax",
    "arch.short.words": "Predicted words",
    "arch.short.pool": "Pooling",
    "recap.title": "Recap",
    "recap.computed": "What was computed: {steps} steps on the tape, from the {n} ids of the "
                      "source sentence to {V} probabilities at each of the decoder's {m} "
                      "positions.",
    "recap.prediction": "The prediction: “{words}”, {k} of {n} positions right. After “{tok}” "
                        "the model picks “{word}” (p = {p}); the target “{want}” has p = {pw}.",
    "recap.said": "The prediction: “{words}”.",
    "recap.loss": "The loss was L = {before}; after one update with η = {lr} the same sentence "
                  "scores L = {after}.",
    "recap.uniform": "Guessing every one of the {V} tokens with the same probability would score "
                     "ln {V} = {u}: these weights did worse than that before the update, because "
                     "random weights are confidently wrong, not merely unsure.",
    "recap.uniform.better": "Guessing every one of the {V} tokens with the same probability would "
                            "score ln {V} = {u}: the model already does better than that.",
    "recap.uniform.worse": "Guessing every one of the {V} tokens with the same probability would "
                           "score ln {V} = {u}: on this sentence the trained weights do worse "
                           "than that.",
    "recap.shapes": "The shapes along the way: the source's {n} tokens become a {n}×{d} matrix, and the encoder hands the decoder M, {n}×{d}; the target's {m} tokens become {m}×{d}, every decoder layer keeps that shape, and the last linear layer turns it into {m}×{V} logits, one row of scores per position, then {m}×{V} probabilities.",
    "recap.col.before": "before the step",
    "recap.col.after": "after the step",
    "recap.col.untrained": "untrained",
    "recap.col.trained": "trained",
    "recap.table": "The table: each position's probability of its right word, {before} (weights {a}) and {after} (weights {b}).",
    "recap.words": "Predicted words, {before}: “{words_before}”; {after}: “{words_after}”.",
    "recap.loss.trained": "The loss of this sentence pair: {before} untrained, {after} trained.",
    "recap.takeaways": "The tutorial closes with three takeaways; here they are, corrected:",
    "recap.takeaway.1": "1. “The example is simplified and shows no epochs”: true; training runs many epochs "
                       "over the data, and a trained model can be walked step by step just like this one.",
    "recap.takeaway.2": "2. “It only shows training, not evaluation or testing”: translating a sentence shows "
                       "inference, one token at a time, and the backward pass shows the training step itself: "
                       "the loss, every gradient and one update.",
    "recap.takeaway.3": "3. “Masked attention keeps the model from peeking, which helps against "
                        "overfitting”: the first half is right, the second is not (D10). The "
                        "mask enforces left-to-right causality; it is not a regularizer.",
    "recap.next": "What to try next",
    "recap.next.backward": "The loss, every gradient and one update:",
    "recap.next.backward.run": "handformer walk --backward",
    "recap.next.beside": "A copy trained on the spot, beside these weights:",
    "recap.next.beside.run": "handformer walk --beside-trained",
    "recap.next.html": "This walkthrough as one offline page:",
    "recap.next.html.run": "handformer walk --format html -o walk.html",
    "recap.next.train": "Train the model, then walk it trained:",
    "recap.next.train.run": "handformer train && handformer walk --checkpoint handformer.ckpt",
    "gpt.recap.next.backward": "The loss, every gradient and one update:",
    "gpt.recap.next.backward.run": "handformer walk --family gpt --backward",
    "gpt.recap.next.html": "This walkthrough as one offline page:",
    "gpt.recap.next.html.run": "handformer walk --family gpt --format html -o gpt.html",
    "gpt.recap.next.generate": "Train the model, then let it continue a text:",
    "gpt.recap.next.generate.run": "handformer generate \"when you play the game of thrones\"",
    "flow.next": "Next: {where}.",
    "place.encoder": "Encoder",
    "place.decoder": "Decoder",
    "place.head": "Head {h}",
    "place.loss": "Loss",
    "place.backward": "Backward",
    "place.update": "Update",
    "place.norm": "Add & norm {k}",
    "told.before": "(Explained in “{where}”.)",
    # errata: the one line shown in a step, opening to the full text
    "erratum.numbers": "⚠ the tutorial differs here: {theirs} vs {ours}",
    "D1.summary": "⚠ the tutorial divides by d_model, not √d_k",
    "D2.summary": "⚠ the tutorial swaps the inputs of cross-attention",
    "D3.summary": "⚠ the tutorial flattens the matrix before the last layer",
    "D4.summary": "⚠ the tutorial's feed-forward network has one layer",
    "D5.summary": "⚠ the tutorial's layer norm: ε outside the root (a variant), no γ, β",
    "D6.summary": "⚠ the tutorial counts i over columns, not pairs",
    "D7.summary": "⚠ the tutorial writes words as columns",
    "D8.summary": "⚠ the tutorial calls the mask optional",
    "D9.summary": "⚠ the tutorial feeds the decoder one token at a time",
    "D10.summary": "⚠ the tutorial says masking helps against overfitting",
    "D11.summary": "⚠ the tutorial says LLaMA has an encoder",
    "D14.summary": "⚠ the tutorial draws every weight from [0, 1)",
    "D16.summary": "⚠ the tutorial's output layer cannot say <end>",
    "D17.summary": "⚠ a figure of the tutorial drops “the” from the encoder input",
    "D18.summary": "⚠ the tutorial's size rule is a rule of thumb",
    # settings of this language, not text: the HTML lang tag, CSS and figure fonts
    "lang.tag": "en",
    "lang.font": "",
    "figure.fonts": "DejaVu Sans, Noto Sans CJK SC",
    "lang.wrap": "",  # CSS for how lines break (Chinese: only between words, render/common/breaks.py)
    # The web app's own words (handformer serve): server/ui_text.py drops "app.".
    "app.title": "handformer: a Transformer computed by hand, live",
    "app.src": "Source sentence",
    "app.tgt": "Target sentence",
    "app.corpus": "Corpus (one sentence per line; its words are the vocabulary)",
    "app.preset": "Preset",
    "app.d_model": "d_model (embedding width)",
    "app.heads": "heads",
    "app.d_k": "d_k (query/key width per head)",
    "app.d_ff": "d_ff (feed-forward width)",
    "app.layers": "layers (encoder and decoder)",
    "app.ffn": "feed-forward",
    "app.ffn.default": "as the preset",
    "app.ffn.single": "one linear + ReLU (tutorial)",
    "app.ffn.paper": "two linears (paper)",
    "app.scale_embeddings": "embeddings × √d_model",
    "app.scale.default": "as the preset",
    "app.scale.on": "yes (paper)",
    "app.scale.off": "no (tutorial)",
    "app.family": "model family",
    "app.family.transformer": "encoder-decoder (the tutorial's)",
    "app.family.gpt": "decoder-only (GPT-style)",
    "app.family.note": "Decoder-only: the source sentence is the prompt and the target its "
                       "continuation, read as one text. Training and translating below are the "
                       "encoder-decoder's: choose it to use them.",
    "app.norm": "layer norm",
    "app.norm.default": "as the family",
    "app.norm.post": "after the sum (paper)",
    "app.norm.pre": "before the sublayer (GPT-2)",
    "app.tie_embeddings": "tied embeddings (W_out = Eᵀ)",
    "app.tie.default": "as the family",
    "app.tie.on": "yes (paper §3.4)",
    "app.tie.off": "no",
    "app.seed": "seed",
    "app.model": "Model",
    "app.sentences": "Sentences",
    "app.train": "Train",
    "app.epochs": "epochs",
    "app.lr": "learning rate",
    "app.optimizer": "optimizer",
    "app.tokenizer": "tokenizer",
    "app.tokenizer.tutorial": "the tutorial's (spaces; drops . and ,)",
    "app.tokenizer.words": "words (spaces; punctuation apart)",
    "app.tokenizer.char": "characters (each Chinese character a token)",
    "app.tokenizer.jieba": "jieba (Chinese words)",
    "app.tokenizer.bpe": "byte-level BPE, 20 merges learnt (decoder-only)",
    "app.tokenizer.no_jieba": "jieba is not installed on this server (pip install -e '.[corpus]' in handformer's checkout), so it cannot be chosen.",
    "app.pairs": "Training pairs",
    "app.pairs_hint": "What Train trains on: the corpus's lines cut at their tab, else their first comma (, or ，). Edit, add or remove pairs before training; changing the corpus fills the list again.",
    "app.pair_src": "source",
    "app.pair_tgt": "target",
    "app.pair_add": "Add a pair",
    "app.pair_remove": "Remove",
    "app.pair_empty": "Pair {n} needs words on both sides.",
    "app.pairs_none": "There is no pair to train on.",
    "app.trained_says": "The trained model translates the source sentence as:",
    "app.beside.target": "target word",
    "app.beside.random": "random weights",
    "app.beside.trained": "trained ({epochs} epochs)",
    "app.beside.picked": "picks",
    "app.beside.loss": "mean −ln p(target)",
    "app.train_button": "Train {n} epochs",
    "app.stop": "Stop",
    "app.pause": "Pause",
    "app.resume": "Resume",
    "app.step_one": "One epoch",
    "app.speed": "speed (epochs per second)",
    "app.paused": "paused",
    "app.upd.title": "Epoch {epoch}, its last update (batch {batch}): the weight with the largest gradient",
    "app.upd.weight": "weight",
    "app.upd.theta": "θ: its value before",
    "app.upd.g": "g: its gradient ∂L/∂θ",
    "app.upd.lr": "η: the learning rate",
    "app.upd.m_hat": "m̂: the running mean of g (bias-corrected)",
    "app.upd.v_hat": "v̂: the running mean of g² (bias-corrected)",
    "app.upd.velocity": "v: the velocity μ·v + g (μ = {mu})",
    "app.upd.new": "θ′: its value after",
    "app.upd.check": "By hand:",
    "app.pause_limit": "paused for {s} s: stopped so that it does not hold a training slot (its model so far is kept)",
    "app.translate": "Translate",
    "app.translate_button": "Translate",
    "app.backward": "Walk backward (one training step's gradients)",
    "app.pin": "Pin this run",
    "app.unpin": "Unpin",
    "app.compare": "Compare with the pinned run",
    "app.pinned": "Pinned: {what}",
    "app.pinned_before": "Pinned: the trained model before training (its initial weights), on {what}",
    "app.identical": "The two runs are identical in every number.",
    "app.first_part": "The runs part at {step}: {changed} of {total} steps changed.",
    "app.step_n": "step {n} · {title}",
    "app.loss_change": "Loss L: A {a} → B {b} (Δ {delta})",
    "app.step": "step",
    "app.max_diff": "largest |Δ|",
    "app.cells": "numbers changed",
    "app.reshaped": "different shape",
    "app.pinned_col": "pinned",
    "app.current_col": "current",
    "app.delta_col": "Δ (current − pinned)",
    "app.changed_col": "changed (pinned → current)",
    "app.cmp_head": "head",
    "app.words_changed": "other words",
    "app.change_hint": "Or change the current run's model by one weight or by training steps:",
    "app.edit_param": "weight (parameter)",
    "app.edit_index": "index (row, column)",
    "app.edit_value": "new value",
    "app.train_steps": "training steps (SGD, lr 0.1)",
    "app.show_run": "Walkthrough of:",
    "app.run_a": "A: as configured",
    "app.run_b": "B: with this change",
    "app.cmp_b": "B is",
    "app.cmp_b.changed": "the current run (changed below)",
    "app.cmp_b.trained": "the trained model",
    "app.computing": "computing…",
    "app.ready": "ready",
    "app.copy_link": "Copy link",
    "app.edit_form": "Edit ▾",
    "app.link_copied": "link copied",
    "app.state.running": "training",
    "app.state.done": "done",
    "app.state.cancelled": "stopped",
    "app.state.failed": "failed",
    "app.progress": "epoch {done} / {total}, loss {loss}",
    "app.final": "token accuracy {acc}, exact match {exact}",
    "app.output": "Output",
    "app.no_model": "Train a model first.",
    "app.network": "The server did not answer: {error}",
    "app.contents": "Contents",
    "app.error_prefix": "",
    "app.corpus_file": "or read the corpus from a file:",
    "app.file_too_big": "The file {name} is too large ({size}); a corpus may have at most {max} characters.",
    "app.file_unreadable": "The file {name} could not be read.",
    "app.file_not_utf8": "The file {name} is not UTF-8 text; save it as UTF-8 and choose it again.",
    "app.err.odd_d_model": "d_model {d_model} is odd: the positional encoding fills columns in sin/cos pairs, so d_model must be even (for example {d_model_up}).",
    "app.err.not_divisible": "d_model {d_model} cannot be split evenly over {heads} heads; choose heads that divide d_model, or set d_k.",
    "app.err.unknown_src": "The source sentence has words that are not in the vocabulary: {words}. Add a sentence with them to the corpus.",
    "app.err.unknown_tgt": "The target sentence has words that are not in the vocabulary: {words}. Add a sentence with them to the corpus.",
    "app.err.over_cap": "{name} is {value}, more than this server allows ({cap}).",
    "app.err.too_many_weights": "This model would have {value} parameters, more than this server allows ({cap}); choose smaller sizes.",
    "app.err.too_long.words": "{name} has {value} words; at most {cap} are allowed.",
    "app.err.too_long.characters": "{name} has {value} characters; at most {cap} are allowed.",
    "app.err.too_long.lines": "{name} has {value} lines; at most {cap} are allowed.",
    "app.err.empty": "{name} is empty: type at least one word.",
    "app.err.at_least": "{name} must be at least {min} (it is {value}).",
    "app.preset.tutorial": "tutorial",
    "app.preset.small": "small",
    "app.preset.paper": "paper",
    # The switches a family declares (families/<name>/options.py), as the app's form shows them.
    "app.preset.llama": "llama (RoPE, RMSNorm, SwiGLU, GQA)",
    "app.ffn.swiglu": "SwiGLU (Llama; decoder-only)",
    "app.opt.pos": "positions",
    "app.opt.pos.sinusoidal": "sinusoids added to the input (paper)",
    "app.opt.pos.rope": "rotary, q and k turned (RoPE, Llama)",
    "app.opt.rope_base": "RoPE base",
    "app.opt.rope_pairs": "RoPE pairs",
    "app.opt.rope_pairs.half": "i with i + d_k/2 (Hugging Face)",
    "app.opt.rope_pairs.adjacent": "2i with 2i+1 (RoFormer, GGUF)",
    "app.opt.norm_kind": "normalisation",
    "app.opt.norm_kind.layer": "LayerNorm (γ, β)",
    "app.opt.norm_kind.rms": "RMSNorm (γ only, Llama)",
    "app.opt.kv_heads": "key/value heads",
    "app.opt.default": "as the preset",
    "app.speed.max": "max",
    "app.speed.20": "20/s",
    "app.speed.5": "5/s",
    "app.speed.1": "1/s",
    "app.beam.greedy": "greedy",
    "app.beam.2": "beam 2",
    "app.beam.3": "beam 3",
    "app.beam.4": "beam 4",
    "app.cmp_beside": "The chosen step side by side is under its panel: {step}",
    "app.err.no_separator": "Line {line} of the corpus (“{text}”) has no tab or comma between a source and a target: add one, or remove the line.",
    "app.err.bad_answer": "The server's answer could not be read (HTTP {status}); reload the page, or try again in a moment.",
    "app.err.offline": "The server could not be reached; is `handformer serve` still running?",
    "app.err.job_gone": "The training job in this page's address is not on the server (it ended with an earlier server, or the address was changed); train again.",
    "app.engine_said": "The engine said:",
    # exercises (handformer exercises, and "check yourself" on the page)
    "ex.title": "Exercises from your own run",
    "ex.intro": "Every number below comes from this run of the model. Work each question out "
                "by hand from the numbers it gives; rows, columns and positions count from 0, "
                "as on the tape; heads count from 1, as in the walkthrough. Each answer is accepted within the tolerance it states.",
    "ex.run": "The run: {run}.",
    "ex.question": "Question {n}",
    "ex.kind": "kind: {kind} · step {step} · cell {cell}",
    "ex.given": "Given",
    "ex.formula": "Formula",
    "ex.tolerance": "Answer within ±{tol}.",
    "ex.exact": "Answer exactly.",
    "ex.blank": "Your answer",
    "ex.key": "Answer key",
    "ex.answer": "Answer",
    "ex.ask.token_id": "What is the id of the word “{word}” (position {pos} of its sentence)? "
                       "The words get their ids from 0 in the order they first appear in the "
                       "dataset, lower-cased, without “.” and “,”.",
    "ex.ask.token_id_window": "What is the id of the token “{word}” (position {pos} of its "
                              "sentence)? The vocabulary from a known id on is given, in order.",
    "ex.ask.positional": "What is the positional encoding PE({pos}, {j})?",
    "ex.ask.input": "What is the model's input X = X_tok + PE at cell {cell}?",
    "ex.ask.residual": "What is the residual sum at cell {cell}?",
    "ex.ask.score": "What is the attention score of head {head} at row {i}, column {j}?",
    "ex.ask.scale": "Given the dot product, what is the scaled attention score of head {head} "
                    "at row {i}, column {j}?",
    "ex.ask.mask": "After the mask, what is the score of head {head} at row {i}, column {j}? "
                   "(Type -inf for −∞.)",
    "ex.ask.softmax": "What is the attention weight of head {head} at row {i}, column {j}?",
    "ex.ask.weighted_sum": "What is the attention output of head {head} at row {i}, column {j}?",
    "ex.ask.ln_mean": "What is the mean μ of row {i} of the layer norm's input?",
    "ex.ask.ln_std": "What is σ of row {i} of the layer norm's input?",
    "ex.ask.ln_norm": "What is the layer norm's output at row {i}, column {j}?",
    "ex.ask.relu": "What is the ReLU's output at row {i}, column {j}?",
    "ex.ask.ffn_unit": "What is the feed-forward output at row {i}, column {j}: the linear step, "
                       "then the ReLU?",
    "ex.ask.logit": "What is the logit of “{word}” (column {j}) at position {t}?",
    "ex.ask.probability": "What is the probability of “{word}” (column {j}) at position {t}?",
    "ex.ask.loss": "What is the loss L, the mean over the {count} positions?",
    "ex.ask.position_loss": "What is the loss ℓ_t at position {t}, where the target is “{word}”?",
    "ex.ask.grad_logit": "What is the gradient ∂L/∂z of the logit of “{word}” (column {j}) at "
                         "position {t}?",
    "ex.ask.sgd_update": "After one SGD step, what is the parameter {param} at cell {cell}?",
    "ex.hint.token_id": "Number the words as they first appear: {first}.",
    "ex.hint.positional": "First the pair index and the angle: {first}.",
    "ex.hint.sum": "Add the numbers; the first one is {first}.",
    "ex.hint.score": "Multiply the two rows term by term and add; the first term is {first}; "
                     "then divide by √d_k.",
    "ex.hint.scale": "Divide the dot product by {first}.",
    "ex.hint.mask": "Look up the mask: {first}.",
    "ex.hint.softmax": "Exponentiate every entry of the row and divide by their sum; the first "
                       "is {first} (−∞ gives 0).",
    "ex.hint.dot": "Multiply term by term and add; the first term is {first}.",
    "ex.hint.ln_norm": "Centre, then divide by σ: the first step is {first}.",
    "ex.hint.relu": "Keep a positive number, make a negative one 0: {first}.",
    "ex.hint.loss": "Take −log of each target probability and average; the first is {first}.",
    "ex.hint.position_loss": "Take −log of the target's probability: {first}.",
    "ex.hint.grad_logit": "q is 1 at the target word, 0 elsewhere (with label smoothing "
                          "(1 − ε)·q + ε/V): {first}.",
    "ex.hint.sgd_update": "Step against the gradient: {first}.",
    "ex.given.dataset": "the dataset",
    "ex.given.first_id": "the id of the first word below",
    "ex.given.words": "the vocabulary from that id on, in order",
    "ex.given.pos": "the position",
    "ex.given.column": "the column",
    "ex.given.d_model": "the embedding width",
    "ex.given.term": "a term of the sum",
    "ex.given.q_row": "row i of Q",
    "ex.given.k_row": "row j of K",
    "ex.given.d_k": "the width of a query",
    "ex.given.dot": "the dot product",
    "ex.given.score": "the score before the mask",
    "ex.given.mask_row": "row i of the mask (1: may be seen, 0: hidden)",
    "ex.given.score_row": "row i of the scores",
    "ex.given.a_row": "row i of the attention weights",
    "ex.given.ln_row": "row i of the input",
    "ex.given.mean": "the row's mean",
    "ex.given.eps": "the small ε under the root",
    "ex.given.x": "the input value",
    "ex.given.std": "the row's σ",
    "ex.given.gamma": "the scale γ of column j",
    "ex.given.beta": "the shift β of column j",
    "ex.given.pre": "the value before the ReLU",
    "ex.given.x_row": "row i of the input",
    "ex.given.w_column": "column j of the weights",
    "ex.given.bias": "the bias of column j",
    "ex.given.y_row": "row t of the last layer's output",
    "ex.given.logit_row": "row t of the logits",
    "ex.given.logit": "the logit",
    "ex.given.exp_sum": "the sum of e^z over the row",
    "ex.given.target_probs": "each position's probability of its target word",
    "ex.given.target_prob": "the probability of the target word at this position",
    "ex.given.row_mean_log": "the mean log-probability over the vocabulary at this position",
    "ex.given.smoothing": "the label smoothing",
    "ex.given.mean_log": "each position's mean log-probability",
    "ex.given.prob": "the probability",
    "ex.given.is_target": "1 if this word is the target, else 0",
    "ex.given.positions": "the number of positions",
    "ex.given.vocab_size": "the vocabulary size",
    "ex.given.theta": "the parameter before the step",
    "ex.given.grad": "its gradient",
    "ex.given.lr": "the learning rate",
    "ex.check.title": "Check yourself",
    "ex.check.button": "Check",
    "ex.check.hint": "Hint",
    "ex.check.show": "Show the answer",
    "ex.check.right": "Right: within ±{tol} of the answer.",
    "ex.check.wrong": "Not this: check your work and try again.",
    "ex.check.nan": "Type a number (or -inf).",
    "ex.where": "step and cell",
    "ex.ask.gelu": "What is the GELU's output at row {i}, column {j}?",
    "ex.hint.gelu": "Start from h/√2 for the erf: {first}.",
    # exercises on the parts of today's LLMs (RoPE, RMSNorm, SwiGLU)
    "ex.ask.rope_pair": "What is head {h}'s number at position {i}, column {j} after RoPE turns "
                        "it?",
    "ex.hint.rope_pair": "Its pair turns by the angle mθ_i: the first term is {first}.",
    "ex.ask.rms_value": "What is the RMSNorm's output at row {i}, column {j}?",
    "ex.hint.rms_value": "First the mean of the squares: {first}.",
    "ex.ask.swiglu_unit": "What is SwiGLU's product H at row {i}, column {j}?",
    "ex.hint.swiglu_unit": "SiLU(g) = g·σ(g), with {first}.",
    "ex.given.rope_x": "the number before turning",
    "ex.given.rope_partner": "the other number of its pair",
    "ex.given.rope_angle": "the angle of its pair at this position",
    "ex.given.gate": "the gate g",
    "ex.given.up": "the value u",
    "ex.check.right_exact": "Right: exactly the answer.",
    "app.quiz": "Quiz",
    "app.quiz.start": "Ask me 6 questions on this model",
    "app.quiz.on": "on",
    "app.quiz.configured": "the model as configured",
    "app.quiz.trained": "the trained model",
    "app.quiz.check": "Check",
    "app.quiz.reveal": "Show the answer",
    "app.quiz.right": "Right.",
    "app.quiz.wrong": "Not this: try again.",
    "app.quiz.score": "Score: {right} right of {answered} answered ({asked} asked)",
    "app.quiz.answer": "The answer: {answer} (within ±{tol} counts as right)",
    "app.quiz.tolerance": "right within ±{tol}",
    "app.quiz.exact": "only the exact number is right",
    "app.quiz.answer_exact": "The answer: {answer} (exactly)",
    "app.quiz.where": "Show it in the walkthrough: cell {cell}",
    "app.keys.button": "?",
    "app.keys.button_label": "Keys",
    "app.keys.title": "Keys",
    "app.keys.next": "next step",
    "app.keys.prev": "previous step",
    "app.keys.help": "this list of keys",
    "app.keys.close": "close this list",
    "app.keys.send": "in a sentence: compute now (else when typing pauses)",
    "app.keys.back": "the browser's Back / Forward: the previous / next edit",
    "app.keys.outside": "The step keys work outside the form's fields.",
    "app.keys.close_button": "Close",
    # --- byte-level BPE (walk --family gpt --tokenizer bpe): families/gpt/bpe_story.py ---
    "gpt.bpe.bytes.title": "Byte-level BPE: the corpus as bytes",
    "gpt.bpe.bytes.split": "This model's vocabulary is learnt from its corpus by byte-level "
                           "BPE (byte-pair encoding), the tokenizer of GPT-2 and of most "
                           "language models since. First each line is cut where GPT-2 cuts it: "
                           "a run of letters, of digits or of other marks, each keeping the one "
                           "space before it (“ you” is one piece), so no token will ever span "
                           "two words. The {lines} lines give {total} pieces, {distinct} of "
                           "them distinct.",
    "gpt.bpe.bytes.rule": "Each piece becomes its UTF-8 bytes, and each byte one printable "
                          "symbol (GPT-2's table): the bytes of ! … ~, ¡ … ¬ and ® … ÿ stand "
                          "for themselves; the 68 others (control codes, the space, DEL, the "
                          "no-break space, the soft hyphen) take the characters from U+0100 on, "
                          "in byte order. So the space, byte 32, is Ġ, and a newline, byte 10, "
                          "is Ċ: a token that begins with Ġ begins with a space.",
    "gpt.bpe.bytes.wide": "A Chinese character is {k} bytes in UTF-8: {char} = {hex} = "
                          "{symbols}, {k} symbols, so {k} tokens before any merge. That is why "
                          "byte-level tokenizers split one Chinese character into several "
                          "tokens: only a merge learnt from a corpus that holds the character "
                          "often enough puts its bytes back together.",
    "gpt.bpe.bytes.wide_absent": "The corpus holds no Chinese; if it did, a character such as "
                                 "{char} would be {k} bytes in UTF-8: {char} = {hex} = "
                                 "{symbols}, {k} symbols, so {k} tokens before any merge. That "
                                 "is why byte-level tokenizers split one Chinese character into "
                                 "several tokens.",
    "gpt.bpe.bytes.words": "Every distinct piece, how often it occurs, and its symbols:",
    "gpt.bpe.bytes.alphabet": "The corpus uses {n} distinct byte symbols. Numbered by their "
                              "characters' code points (the order in which Hugging Face's "
                              "BPE trainer numbers them), they are the vocabulary's first {n} "
                              "ids: {alphabet}",
    "gpt.bpe.merge.title": "Byte-level BPE: merge {k} of {n}, {a} + {b} → {token}",
    "gpt.bpe.merge.how": "Count every adjacent pair of symbols in every piece, each piece "
                         "weighted by how often it occurs: c(a, b) is the sum over the pieces "
                         "w of f(w), the piece's count, times n_w(a, b), how often a is "
                         "followed by b in it. The most frequent pair becomes one new token, "
                         "every occurrence of it is rewritten as that token, and the pairs are "
                         "counted again.",
    "gpt.bpe.merge.chosen": "Before merge {k} the leading pairs are in the table: “{a} {b}” "
                            "occurs {count} times, the most, so it becomes the token “{token}” "
                            "(id {id}).",
    "gpt.bpe.merge.tie": "{others} other pair(s) also occur {count} times. The tie is broken "
                         "as Hugging Face's BPE trainer breaks it: the pair with the smaller "
                         "ids wins, the left symbol's id first, then the right one's (byte "
                         "symbols are numbered by code point, merged tokens after them in the "
                         "order they were made). “{a}” is id {ida} and “{b}” id {idb}; the "
                         "next pair, “{c} {d}”, has ids {idc} and {idd}.",
    "gpt.bpe.merge.reads": "Its {k} bytes spell “{text}” in UTF-8: from here on “{text}” is "
                           "one token, no longer {k}.",
    "gpt.bpe.col.count": "count",
    "gpt.bpe.col.next": "next best",
    "gpt.bpe.col.ties": "tied pairs",
    "gpt.bpe.table.title": "Byte-level BPE: all {n} merges",
    "gpt.bpe.table.p1": "Each row is one merge, in the order learnt: the pair and the token it "
                        "makes, its count when chosen, the count of the best pair behind it, "
                        "and how many other pairs had the same count (the smaller ids won, as "
                        "told above). The first {shown} of the {n} merges are told one panel "
                        "each above.",
    "gpt.bpe.stopped": "The corpus ran out of pairs after {done} merges (every piece is one "
                       "token by then): {asked} were asked for.",
    "gpt.bpe.vocab.title": "Byte-level BPE: the vocabulary",
    "gpt.bpe.vocab.p1": "The vocabulary is the {bytes} byte symbols the corpus uses, the "
                        "{merged} tokens the merges made, and the {k} markers {specials}: "
                        "{V} tokens. GPT-2 keeps all 256 byte symbols, so that it can read any "
                        "text; here only the corpus's bytes are kept, so that the embedding "
                        "table stays small enough to show by hand, and a text with a byte the "
                        "corpus never had is refused by name.",
    "gpt.bpe.vocab.made": "The merged tokens and their ids: {tokens}",
    "gpt.bpe.text.title": "Byte-level BPE: the text, token by token",
    "gpt.bpe.text.pieces": "The text is cut the same way, into {n} pieces: {pieces}. As bytes "
                           "that is {m} symbols: {symbols}",
    "gpt.bpe.text.how": "Then the merges are applied as GPT-2 applies them: again and again, the "
                        "earliest-learnt merge whose pair is still present is applied "
                        "everywhere in the text (never across two pieces), until no learnt "
                        "pair is left:",
    "gpt.bpe.text.step": "  merge {rank} ({a} + {b} → {token}): {tokens}",
    "gpt.bpe.text.more": "  … and {more} more merges.",
    "gpt.bpe.text.none": "No learnt pair occurs in this text: every byte stays a token.",
    "gpt.bpe.encoding": "Each token's id is its place in the vocabulary: the byte symbols by "
                        "code point, then the merged tokens in the order they were made, then "
                        "the markers:",
    "gpt.bpe.text.done": "{m} bytes have become {n} tokens; with <start> in front they are the "
                         "model's input. Their ids:",
    # walk --family gpt --generate N (families/gpt/generation_story.py)
    "gen.place": "Generation",
    "gen.place.token": "Token {t}",
    "gen.how.greedy": "Each token is chosen greedily: the most likely one (temperature 0; the lowest id among equals), so no random number is drawn.",
    "gen.how.sample": "Each token is sampled: logits ÷ T with T = {T}, softmax, the {k} most likely kept (top-k), then the fewest of them whose probabilities reach {p} (top-p), renormalised, and one uniform number u from NumPy's default_rng({seed}) per token picks one.",
    "gen.intro.p1": "Now the model writes. With --generate the walk's text was the prompt alone, “{prompt}” (--tgt is not read): the model continues it with up to {n} tokens of its own, one at a time, each fed back as the next input.",
    "gen.intro.cache": "Under the causal mask a position reads the earlier ones only through their keys and values, and a later token never changes them. So the prompt's pass above has already computed what every later step needs: each layer's K and V for its {n} positions, kept as the key/value cache. A new token then costs one row, not a pass over the whole sequence.",
    "gen.intro.rope": "With rotary positions the cache keeps K after its turn: a key's angle depends only on its own position, so it is turned once, when it is computed.",
    "gen.intro.sinusoidal": "Positions were added to the input (sinusoidal), so a new token's row carries its own position PE_m before any layer reads it.",
    "gen.intro.size": "Per token the cache holds 2 × {layers} layers × {kv} key/value heads × d_k {dk} = {per} numbers.",
    "gen.intro.gqa": "Grouped-query attention: {h} query heads share {kv} key/value heads, so the cache is {saved} times smaller than with one key/value head per query head ({full} numbers per token); each cached head is repeated for its group only when the scores read it.",
    "gen.cache.title": "The key/value cache the prompt's pass filled (layer 1)",
    "gen.embed.title": "Token {t}: the embedding of “{word}”",
    "gen.embed.p1": "For token {t} the model first reads the one the previous step chose, “{word}”, at position {m}: one row goes through the model.",
    "gen.embed.sinusoidal": "Its row of E plus row {m} of the positional encoding PE: the same two tables as the prompt's rows, read at one more position.",
    "gen.embed.rope": "Its row of E alone: with rotary positions, position {m} turns its query and key inside attention instead.",
    "gen.kv.title": "Token {t}, layer {layer}: its query, key and value; the cache grows by one row",
    "gen.kv.p1": "Layer {layer} projects the one new row (“{word}”) into its query q, key k and value v, then appends k and v as row {m} of the cache: it now holds {n} positions (the marked row is the new one; the others were computed earlier and are only read).",
    "gen.kv.rope": "Its q and k are turned by the angles of position {m} (start = the cache's length), so the new key sits in the cache exactly as a full pass would have turned it.",
    "gen.kv.plain": "No position is added here: it came in with the embedding.",
    "gen.kv.gqa": "The cache keeps the {kv} key/value heads; the {h} query heads read them repeated per group.",
    "gen.attn.title": "Token {t}, layer {layer}: the new query against every cached key",
    "gen.attn.p1": "One row of scores per head: the new query against the {n} cached keys, ÷ √d_k, then softmax. No mask is needed: every cached key is of an earlier position or this one.",
    "gen.attn.p2": "Head 1 looks most at “{word}” (weight {a}).",
    "gen.attn.p3": "The weights mix the cached values into z, one row per head; the heads are joined and multiplied by W_O, then the residual sum, the norm and the feed-forward network work on the one row as they did on every row of the prompt.",
    "gen.logits.title": "Token {t}: the next-token logits",
    "gen.logits.p1": "The last row through the output layer: one logit for each of the {V} tokens, what the model would put after “{word}”.",
    "gen.scaled.title": "Token {t}: logits ÷ T, then softmax",
    "gen.scaled.from": "The logits for token {t} are the last row of {name}.",
    "gen.scaled.greedy": "Temperature 0 is greedy: the softmax p is shown, and the largest wins.",
    "gen.scaled.p1": "Divided by the temperature T = {T} and passed through softmax: p.",
    "gen.scaled.why": "A T below 1 stretches the gaps between logits (the likely tokens get likelier); above 1 it shrinks them (the choice gets flatter). It is applied to the logits, before softmax.",
    "gen.sort.title": "Token {t}: sorted, cumulated, cut",
    "gen.sort.p1": "The probabilities sorted from largest to smallest (equal ones: the lower token id first), with their running sum c below each.",
    "gen.sort.greedy": "Greedy keeps the first one only: “{word}” (p = {p}).",
    "gen.sort.k": "Top-k keeps the first {k}: {kept} tokens.",
    "gen.sort.p": "Top-p keeps the fewest whose running sum reaches {p}: the sum first reaches it at “{word}” (c = {cum}), which is kept, so {kept} tokens remain (marked).",
    "gen.sort.p_short": "Top-p would keep the fewest whose running sum reaches {p}, but the kept ones sum to only {cum}: all {kept} stay.",
    "gen.row.sorted": "p sorted",
    "gen.row.cumulative": "running sum c",
    "gen.row.q": "q (renormalised)",
    "gen.row.q_cumulative": "running sum of q",
    "gen.draw.title": "Token {t}: the draw picks “{word}”",
    "gen.draw.greedy": "No draw: the token is the most likely one, “{word}”.",
    "gen.draw.p1": "The {kept} kept probabilities are divided by their sum, so they add up to 1 again: q.",
    "gen.draw.u": "One uniform number from default_rng({seed}), draw number {t} (one per token, in order): u = {u}.",
    "gen.draw.pick": "The token is the first whose running sum of q exceeds u: “{word}” ({c} > {u}).",
    "gen.draw.end": "It is <end>: the text is finished, and generation stops here.",
    "gen.check.title": "The cache against a pass over the whole sequence",
    "gen.check.p1": "The same {n} positions again in one ordinary pass, no cache, and every logit compared with the one computed above (the prompt's rows by its pass, each later row by its cached step).",
    "gen.check.p2": "The largest difference is {diff}: the cache changes nothing but the order of a few floating-point sums (round-off, about 1e-16).",
    "gen.result.title": "The text written",
    "gen.result.p1": "“{prompt}” → “{out}” ({k} tokens written).",
    "gen.result.end": "The model chose <end> and stopped.",
    "gen.result.same": "`handformer generate` writes the same tokens with the same model, prompt and switches.",
    # --- issue 48 (smol): SmolLM2-135M walked by hand (families/gpt/smollm2_story.py) ---
    "smol.overview.title": "SmolLM2-135M, a real LLM, every number",
    "smol.overview.p1": "SmolLM2-135M-Instruct (Hugging Face, 2024) is a Llama-style decoder: {layers} blocks of width {d}, {h} query heads sharing {kv} key/value heads of d_k = {dk}, a SwiGLU feed-forward network of width {dff}, RoPE with base {base}, RMSNorm with ε = {eps}, and a byte-level BPE vocabulary of {V} tokens whose embedding table is also the output layer (tied).",
    "smol.overview.quant": "Its weights come from {file}: 4-bit quantized (Q4_1; the embedding table 8-bit, Q8_0), dequantized here once into {dtype}. These are not the original bfloat16 weights: each number was rounded to one of 16 levels of its block of 32, so this walk computes the quantized model exactly, not the original one.",
    "smol.overview.text": "The text, “{text}”, is {n} tokens; the model reads them all at once and predicts, at every position, the token after it; the last position's prediction is the next word.",
    "smol.overview.blocks": "Shown in full: {shown} of the {layers} (blocks are numbered from 0, as --blocks-shown takes them; the map and the step titles number layers from 1); every other block is one line: what it did to the last token's residual stream (its norm) and what the model would guess were it to stop there (the logit lens).",
    "smol.overview.block": "block {b} (decoder layer {l})",
    "smol.overview.block.many": "blocks {bs} (decoder layers {ls})",
    "smol.arch.elided": "Layers {a}–{b}",
    "smol.arch.elided.detail": "One line per block",
    "smol.tokens.title": "The text in tokens: the model's own merges",
    "smol.tokens.p1": "GPT-2's split cuts the text into pieces no merge crosses ({pieces}); each piece becomes its UTF-8 bytes, one symbol per byte (a space is Ġ): {symbols} symbols.",
    "smol.tokens.p2": "Then the merges of the model's table ({merges} of them, in the order they were learnt) apply: at each step the earliest-learnt pair present is merged. {k} merges fire on this text:",
    "smol.tokens.rank": "(merge no. {rank} of the table)",
    "smol.tokens.p3": "The {n} tokens, each looked up among the {V} of the vocabulary, give the ids below. No <start> token: SmolLM2's file adds none.",
    "smol.elided.title": "Blocks {first}–{last} (decoder layers {a}–{b}), each in one line",
    "smol.elided.p1": "Blocks {first} to {last} compute exactly as the block shown in full (their steps are computed and checked, not shown). For the last token, “{word}”, after each block: the norm ‖x‖ of its residual stream, and the token the final RMSNorm and the tied output layer would pick from it right there (the logit lens).",
    "smol.elided.line": "  block {block}: ‖x‖ = {norm}, guess “{guess}” (p = {p})",
    "smol.elided.p2": "The residual stream grows block after block: each block adds its attention and feed-forward outputs to it. The output of block {last} goes on.",
    "smol.next.title": "The next token: logits through the tied table, then softmax",
    "smol.next.p1": "The final RMSNorm's last row (width {d}) times Eᵀ gives one logit per token of the {V}; softmax turns them into probabilities for the token after “{word}”. The ten likeliest:",
    "smol.next.line": "  {rank}. “{word}” (id {id}): logit {z}, p = {p}",
    "smol.next.line.text": "  {rank}. “{word}” (id {id}, the text “{text}”): logit {z}, p = {p}",
    "smol.next.p2": "The most likely next token is “{word}”, with p = {p}.",
    "smol.quant.title": "The 4-bit weights, one block dequantized by hand",
    "smol.quant.p1": "GGUF stores each row of weights in blocks of 32 numbers. Q4_1 keeps per block a scale d and a minimum m (float16 each) and 32 four-bit integers q from 0 to 15: w = d·q + m, 20 bytes for 32 weights. Q8_0 keeps a scale d and 32 signed bytes q: w = d·q, 34 bytes. The first block of each kind in the file:",
    "smol.quant.q4_1": "Q4_1, {tensor}: bytes {hex}…; d = {d}, m = {m} ({bytes} bytes; byte i holds q_i in its low four bits and q_(i+16) in its high four).",
    "smol.quant.q8_0": "Q8_0, {tensor}: bytes {hex}…; d = {d} ({bytes} bytes; each q one signed byte).",
    "smol.quant.worked": "  so the first weight is d·q + m = {d} × {q} + {m} = {w}.",
    "smol.quant.worked8": "  so the first weight is d·q = {d} × {q} = {w}.",
    "smol.quant.p2": "Every weight of the walk was dequantized this way, once, into {dtype} (checked in the tests against the gguf package's own dequantization).",
    "smol.check.p2.float32": "The largest difference is {diff}: the cache changes nothing but the order of a few sums, and these float32 weights round at about 1e-7 of each number (float64, --dtype float64, rounds at about 1e-16).",
    "smol.recap.p1": "{steps} steps kept on the tape. The model's next token: “{word}” (p = {p}).",
    "smol.recap.p2": "The same weights in transformers' LlamaForCausalLM (float64) give every block's hidden state and these logits to 1e-9 relative (tests/families/gpt/test_smollm2_forward.py).",
    # lesson (issue 46): the lesson with nothing hidden
    "grad.share.sum": "the sum {use} copies its gradient to each of its inputs, {v}",
    "grad.uses.sum": "{sym} was read by {k} steps, so its gradient is the sum of what each "
                     "sends back: one term per use.",
    "pattern.random.shape": "Read this pattern as arithmetic, not as meaning: the weights are "
                            "random, so its shape is luck. {shape} Random weights can mix the "
                            "rows of V, but they cannot choose what is relevant: that choice is "
                            "what training puts into W^Q and W^K.",
    "pattern.trained.shape": "These weights were trained, so this pattern is what training made "
                             "of the scores. {shape} It favours what helped predict the training "
                             "text; a model this small, trained on a few sentences, need not "
                             "attend the way a reader would.",
    "pattern.shape.start": "Here {k} of the {n} rows put their largest weight on “{word}”, the "
                           "first position, which every word can see.",
    "pattern.shape.pile": "Here {k} of the {n} rows put their largest weight on the same word, "
                          "“{word}”.",
    "pattern.shape.diagonal": "Here {k} of the {n} rows put their largest weight on their own "
                              "word: the pattern lies along the diagonal.",
    "pattern.shape.previous": "Here {k} of the {n} rows put their largest weight on the word "
                              "just before them.",
    "pattern.shape.spread": "Here the weights are spread out: the largest weight of a row is "
                            "{top} on average (equal weights over the words a row can see would "
                            "give {even}).",
    "pattern.shape.mixed": "Here the rows single out different words: the largest weight of a "
                           "row is {top} on average.",
    "pred.checkpoint.steps": "These weights come from {path}, trained for {epochs} Adam steps "
                             "(each reads every line). Before training, the same model (its "
                             "initial weights) gave “{want}” after “{tok}” the probability "
                             "{before}; after training, {after}.",
    "grad.weight.cell": "The weight's gradient ∂L/∂{w} = {x}ᵀ·∂L/∂{y}, worked for one entry "
                        "(row “{row}”, column “{col}”): column “{row}” of {x} times column "
                        "“{ycol}” of ∂L/∂{y}, {k} products added up: {terms} = {v}. The update at "
                        "the end of the backward pass moves this weight by −η times it.",
    "why.grad.sum": "Why a sum copies its gradient to both inputs: in R = X + F, nudging X by a "
                    "small ε moves R by exactly ε, whatever F is, so ∂R/∂X = 1 and the gradient "
                    "reaches each input as it left R. Nothing is split: both inputs get all of it.",
    "why.grad.residual": "Why residual paths keep gradients alive: the stream's gradient is "
                         "∂L/∂R copied, plus what the sublayer sends back. Where the sublayer's "
                         "own path shrinks the gradient (a saturated softmax, a ReLU that is "
                         "off, a small weight), the copied term still reaches the layers below "
                         "whole; without it, a deep stack's first layers would learn almost "
                         "nothing.",
    "why.grad.softmax": "Why A ⊙ (G − rowsum(G ⊙ A)): each weight a_j = e^(s_j) / Σ_k e^(s_k) "
                        "depends on every score of its row, ∂a_j/∂s_i = a_j·(δ_ij − a_i). "
                        "Adding g_j·∂a_j/∂s_i over j gives a_i·(g_i − Σ_j a_j·g_j): raising one "
                        "score raises its own weight and takes the same amount from the others, "
                        "so only how far g_i stands above the row's weighted mean of g matters.",
    "why.grad.norm": "Why layer norm's backward subtracts two means: its output does not change "
                     "when the whole row is shifted (the mean is taken out) or stretched (it is "
                     "divided by σ). So the part of ĝ that would only shift the row (its mean) "
                     "and the part that would only stretch it (its mean against x̂) are taken "
                     "out, and what is left is divided by √(σ²+ε).",
    "why.grad.tied": "Why the tied table's gradient is a sum: E is used in more than one place. "
                     "A small change in one of its entries moves the loss through every use, "
                     "and the chain rule adds those effects, exactly as for a value read by two "
                     "steps.",
    # lesson (issue 46): the glossary's further terms
    "gloss.gradient.term": "gradient ∂L/∂X",
    "gloss.gradient.match": "gradient|gradients",
    "gloss.gradient.def": "How much the loss L would change per small nudge of each number of X: one number per number of X, with X's shape. Its sign says which way to move X to lower L.",
    "gloss.chain_rule.term": "chain rule",
    "gloss.chain_rule.match": "chain rule",
    "gloss.chain_rule.def": "How a gradient passes back through a step: ∂L/∂X is ∂L/∂Y times how Y changes with X. Applied step by step from the loss back to the input, it gives every gradient on the tape.",
    "gloss.backward.term": "backward pass",
    "gloss.backward.match": "backward pass|backpropagation|backwards",
    "gloss.backward.def": "The second walk over the tape, from the loss back to the inputs, computing the gradient of every step and weight with the chain rule.",
    "gloss.loss.term": "loss (cross-entropy)",
    "gloss.loss.match": "cross-entropy|loss",
    "gloss.loss.def": "The number training makes small: the mean over positions of −log p(right word). 0 would mean every right word got probability 1.",
    "gloss.learning_rate.term": "learning rate η",
    "gloss.learning_rate.match": "learning rate",
    "gloss.learning_rate.def": "The size of one update step: each weight moves by −η times its gradient.",
    "gloss.update.term": "update (gradient descent)",
    "gloss.update.match": "update|gradient descent|SGD",
    "gloss.update.def": "θ ← θ − η·∂L/∂θ: every weight moved a little against its gradient, which lowers the loss for this sentence if η is small enough.",
    "gloss.adam.term": "Adam",
    "gloss.adam.match": "Adam",
    "gloss.adam.def": "An optimizer that scales each weight's step by running averages of its gradient and of its square, so that every weight moves at a sensible speed; `handformer train` uses it.",
    "gloss.epoch.term": "epoch",
    "gloss.epoch.match": "epoch|epochs",
    "gloss.epoch.def": "One pass of training over every example of the data set.",
    "gloss.mask.term": "causal mask",
    "gloss.mask.match": "mask",
    "gloss.mask.def": "−∞ added to the scores of the positions a word may not read (the words after it), so the softmax gives them weight 0 and their gradient is 0.",
    "gloss.scores.term": "attention scores S",
    "gloss.scores.match": "scores",
    "gloss.scores.def": "Q·Kᵀ/√d_k: how well each query matches each key, one row per query; the softmax turns each row into attention weights.",
    "gloss.attention_weights.term": "attention weights A",
    "gloss.attention_weights.match": "attention weights|attention pattern",
    "gloss.attention_weights.def": "softmax of the scores, row by row: how much of each value row goes into each word's output. Each row is positive and adds up to 1.",
    "gloss.head.term": "attention head",
    "gloss.head.match": "head|heads",
    "gloss.head.def": "One of the h attentions run side by side, each with its own W^Q, W^K, W^V of width d_k; their outputs are joined and multiplied by W^O.",
    "gloss.self_attention.term": "self-attention",
    "gloss.self_attention.match": "self-attention",
    "gloss.self_attention.def": "Attention whose queries, keys and values all come from the same sequence: each word reads the others of its own sentence.",
    "gloss.cross_attention.term": "cross-attention",
    "gloss.cross_attention.match": "cross-attention",
    "gloss.cross_attention.def": "The decoder's attention whose queries come from the target and whose keys and values come from the memory M: where the translation reads the source.",
    "gloss.ffn.term": "feed-forward network",
    "gloss.ffn.match": "feed-forward",
    "gloss.ffn.def": "Two linear layers with a nonlinearity between them (ReLU here), applied to each position on its own: the part of a layer that transforms each word's vector without mixing words.",
    "gloss.relu.term": "ReLU",
    "gloss.relu.match": "ReLU",
    "gloss.relu.def": "max(0, x): negative numbers become 0. Backwards it lets the gradient through where x was positive and blocks it elsewhere.",
    "gloss.vocabulary.term": "vocabulary",
    "gloss.vocabulary.match": "vocabulary",
    "gloss.vocabulary.def": "Every token the model knows, each with an id; the output layer gives one logit per token of it.",
    "gloss.token.term": "token",
    "gloss.token.match": "token|tokens",
    "gloss.token.def": "One unit the text is cut into (a word, a piece of a word, a character), looked up by its id.",
    "gloss.weight.term": "weights (parameters)",
    "gloss.weight.match": "weights|parameters",
    "gloss.weight.def": "The learned numbers of the model (E, W^Q, W^K, W^V, W^O, W₁, γ, β, …): training changes only these.",
    "gloss.jacobian.term": "Jacobian",
    "gloss.jacobian.match": "Jacobian",
    "gloss.jacobian.def": "The table of every output's derivative with respect to every input of a step; a gradient passes back as ∂L/∂Y times it. For a softmax row it is diag(a) − a·aᵀ.",
    "ex.ask.grad_softmax": "Backwards through the softmax: what is ∂L/∂S of head {head} at row "
                           "{i}, column {j}?",
    "ex.ask.grad_norm": "Backwards through the layer norm: what is ∂L/∂x at row {i}, column {j} "
                        "of its input?",
    "ex.ask.grad_weight": "What is the weight's gradient ∂L/∂W at row {r}, column {c}?",
    "ex.hint.grad_softmax": "First the row's weighted mean of ∂L/∂A: {first}; then "
                            "A_ij × (∂L/∂A_ij − that).",
    "ex.hint.grad_norm": "First x̂ = (x − μ)/σ and ĝ = γ ⊙ ∂L/∂Y, then their means: {first}.",
    "ex.given.grad_a_row": "row i of ∂L/∂A, the gradient of the attention weights",
    "ex.given.gamma_row": "the scale γ (one per column)",
    "ex.given.grad_y_row": "row i of ∂L/∂Y, the gradient of the layer norm's output",
    "ex.given.x_column": "column r of the layer's input X (one number per position)",
    "ex.given.grad_y_column": "column c of ∂L/∂Y, the gradient of the layer's output",
    "ex.given.v_column_c": "column c of V (c: the column asked for)",
    "ex.kind.panel.cell": "kind: {kind} · Step {panel} of the walk · row “{row}”, column "
                          "“{col}”",
    "ex.kind.panel": "kind: {kind} · Step {panel} of the walk",
    "ex.ask.sgd_update.placed": "After one SGD step, what is the parameter updated in Step "
                                "{panel} at row “{row}”, column “{col}”?",
    "ex.ask.sgd_update.placed.vector": "After one SGD step, what is the parameter updated in "
                                       "Step {panel} at “{col}”?",
    "ex.ask.grad_weight.placed": "What is the weight's gradient ∂L/∂W, drawn in Step {panel}, at "
                                 "row “{row}”, column “{col}”?",
    "grad.share.times": "through the product {use}, times the other factor: {g} × {o} = {v}",
    "grad.share.silu": "through SiLU, times its slope σ(x)·(1 + x·(1 − σ(x))) at x = {x}: "
                       "{g} × {d} = {v}",
    "grad.share.heads": "from the {k} query heads that share this key/value head ({use}), added "
                        "up: {terms} = {v}",
    "grad.share.rms": "through the RMSNorm {use}, (ĝ − x̂·mean(ĝ⊙x̂)) / RMS(x) with ĝ = γ ⊙ "
                      "∂L/∂Y and x̂ = x / RMS(x): ({gh} − {xh}·{mgx}) / {rms} = {v}",
    "grad.share.rope": "turned back by RoPE ({use}, the pair's angle mθ = {ang}): "
                       "{g}·cos {ang} {pm} {gp}·sin {ang} = {v}",
    "name.input.lookup": "the input (the embedding lookup)",
    # issue 44 (app): the next-token control of a family that generates
    "app.sample": "Next token",
    "app.sample.on": "write the next token after the text",
    "app.sample.temperature": "temperature T (0: greedy)",
    "app.sample.top_k": "top-k (empty: every token)",
    "app.sample.top_p": "top-p (1: no cut)",
    "app.sample.hint": "Each change rewrites the sampling panels at the end of the walk: p = softmax(logits / T), sorted, cut, renormalised, drawn.",
    "app.walk_trained": "Walk the trained model",
    # --- bert-beside (issue 46): walk --pretrained … --beside-trained ---
    "bert.beside.title": "Pretrained weights beside random weights",
    "bert.beside.how": "Everything above used {model}'s pretrained weights (θ). Beside them, the "
                       "same architecture with random initial weights (θ₀), drawn as a fresh "
                       "BertModel draws them: every weight matrix and embedding table from "
                       "N(0, {std}²) (numpy's generator, seed {seed}), biases 0, layer norms "
                       "γ = 1 and β = 0; the same sentence goes through both.",
    "bert.beside.layer": "Layer {layer}, head 1. Pretrained: {trained} (each row's largest "
                         "weight is {mt} on average). Random: {random} ({mr}; weights spread "
                         "evenly would give 1/{n} = {u}).",
    "bert.beside.kind.spread": "spread almost evenly over every token",
    "bert.beside.kind.special": "piled on [CLS] or [SEP], a resting place",
    "bert.beside.kind.prev": "on the previous token",
    "bert.beside.kind.next": "on the next token",
    "bert.beside.kind.self": "on the token itself (the diagonal)",
    "bert.beside.kind.mixed": "on a few tokens, different ones in each row",
    "bert.beside.why_even": "Why random attention is even: with weights of size about {std}, "
                            "each score q·k/√d_k is close to 0, and a softmax of nearly equal "
                            "scores gives nearly 1/n to every token. Training is what makes "
                            "some scores stand out.",
    "bert.beside.moved.less": "The sentence embedding e: the pretrained layers carry it far "
                              "from the mean of the embedding layer's output H⁽⁰⁾ (the cosine "
                              "of the two is {pt}); the random layers move it less ({pr}): "
                              "with weights of about 0.02 each sublayer adds only a small "
                              "vector to the residual path, so e stays nearer the mean of the "
                              "input embeddings.",
    "bert.beside.moved.more": "The sentence embedding e: the random layers move it further from "
                              "the mean of the embedding layer's output H⁽⁰⁾ (the cosine of "
                              "the two is {pr}) than the pretrained layers do ({pt}).",
    "bert.beside.apart": "The two embeddings are unrelated: their cosine is {c} (both have "
                         "length 1; {k} of their {d} numbers are drawn below). Only the "
                         "pretrained one places sentences of similar meaning near each other.",
    "bert.beside.related": "The two embeddings share a direction: their cosine is {c} (both "
                           "have length 1; {k} of their {d} numbers are drawn below), though only "
                           "the pretrained one was trained to place sentences of similar "
                           "meaning near each other.",
    # mt (issue 49): the --dataset recipe's model, the time budget, the best checkpoint's test line
    "train.shape": "d_model {d_model}, layers {layers}, heads {heads}, d_ff {d_ff}",
    "train.recipe_shape": "{shape}: --dataset's default model, docs/translator.md's recipe",
    "train.budget_start": "time budget {minutes:g} min: the warm-up schedule decays to 0 at the "
                          "step the budget is estimated to hold (estimated after {steps} timed "
                          "steps, again after each epoch)",
    "train.budget_end": "the {minutes:g}-minute time budget ended training in epoch {epoch} "
                        "(after step {step}; the fitted schedule ends at step {total})",
    "train.schedule_end": "the fitted schedule's last step ({total}) is done: training ended in "
                          "epoch {epoch}",
    "train.test_best": "the best checkpoint, {path} (epoch {epoch}), on the test part:",
    # --- cfg (issue 42): shared narration's keys name no family ---
    # the overview's map: a pre-norm layer's own layer norm, before its sublayer
    "arch.pre_norm": "Layer norm {k}",
    # --- issue 48 item 6: SmolLM2-135M in the web app (app) ---
    "app.pretrained.option": "{name} (pretrained)",
    "app.pretrained.option_missing": "{name} (not installed)",
    "app.pretrained.missing": "To walk a real pretrained model: {line}",
    "app.pretrained.prompt": "prompt",
    "app.pretrained.blocks": "blocks in full",
    "app.pretrained.blocks_hint": "Block numbers from 0 to {last}, separated by commas; each "
                                  "other block is one line (its logit lens). A block opened "
                                  "is computed here and its panels sent as you scroll to them.",
    "app.pretrained.loading": "Loading {name} (its 4-bit weights, dequantized once for this "
                              "server): {s} s, usually about {expected} s",
    "app.pretrained.loading_short": "loading {name}… {s} s",
    "app.pretrained.open": "Open a block in full:",
    "app.pretrained.close": "Close this block (back to one line)",
    "app.pretrained.open_one": "Block {n} in full",
    "app.pretrained.walked": "{n} tokens; blocks in full: {shown} (of 0 to {last})",
}
