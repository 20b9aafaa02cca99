"""中文：与 en.py 的键一一对应；{名字} 处填入从 tape 上读出的数字。

“本讲解”指 handformer 自己的这份逐步讲解，“原教程”指它据以展开的那篇教程（Fareed Khan 的
《Solving Transformer by Hand》及其中文漫画版）。步骤标题沿用中文版原教程的叫法（定义数据集、
计算词汇量、编码……），原教程用词不准确的地方（如“添加和归一化”）换成更准确的术语，并注明
原教程的说法。“tape”一律译作“运算记录”。
"""

TEXT = {
    "step_prefix": "第 {n} 步 · ",
    "tutorial_step": "原教程第 {n} 步",
    "note.tutorial": "原教程的算法",
    # 1–3
    "dataset.title": "定义数据集",
    "dataset.p1": "一切从数据集开始。ChatGPT 的训练数据有几百 GB；我们为了把每个数都亲手算出来，"
                  "只用 {count} 句话：",
    "dataset.licence": "这些句子来自 {name}，采用 {licence} 许可协议（{url}）。",
    "dataset.more": "  ……还有 {more} 句。",
    "dataset.p2": "全部转成小写、去掉“.”和“,”之后，一共 {words} 个词。模型要读入“{src}”，"
                  "并学会回答“{tgt}”。",
    "dataset.p2.tokens": "用“{tokenizer}”分词器切开后一共 {words} 个词元，而按空格切只有 "
                         "{spaced} 个“词”：1 个词元约等于 {per} 个空格词（原教程说的“1 个词元约等于 "
                         "0.75 个单词”只是 GPT 英文子词的经验值，不是定律）。模型要读入“{src}”，"
                         "并学会回答“{tgt}”。",
    "vocab.distinct": "不同词的集合",
    "vocab.title": "计算词汇量",
    "vocab.p1": "词汇表就是数据集里所有不重复的词：把数据集拆成一个个词，再去掉重复的，"
                "剩下 N = {N} 个。",
    "vocab.p2": "模型还需要 {k} 个特殊标记 {specials}，用来表示句子从哪里开始、到哪里结束，"
                "所以它一共认识 {V} 个词元（token）。",
    "vocab.sides": "源语言 {src}、目标语言 {tgt}",
    "vocab.sides_p": "这里两边各有自己的词汇表：编码器用源语言的 {src} 个词元，解码器和输出层用"
                     "目标语言的 {tgt} 个；下面的数字是目标语言的。",
    "vocab.rule": "原教程按经验公式 n > 8.33·log N 来定嵌入维度，但没说是哪种对数；按自然对数 ln 算，"
                  "N = {N} 时要求 n > {rule}。这个模型用的是 d_model = {d}。",
    "vocab.rule_ok": "d_model = {d}，轻松满足这条经验公式。",
    "D18": "n > 8.33·log N 只是一条经验公式，并不出自论文。按 ln 算要求 n > {rule}，按 log₁₀ 算要求 "
           "n > {rule10}：无论哪种，原教程自己选的维度（{d}）都不满足它。对这个玩具例子来说问题不大，维度只要够把不同的词区分开就行。"
           "论文里词表约 37000 个词元，用的是 512 维。",
    "encoding.title": "编码：给每个词一个编号",
    "encoding.p1": "按照每个词在数据集里第一次出现的顺序给它编号，特殊标记排在最后：",
    "encoding.more": "……还有 {more} 个",
    "encoding.p2": "输入句子“{src}”就变成了下面这 {n} 个编号。从这里开始，模型看到的只有数字。",
    # 4–6 和 11
    "embed.title.src": "计算嵌入（Embedding）",
    "embed.title.tgt": "解码器输入的嵌入",
    "embed.p1.tgt": "解码器有自己的一张嵌入表（{shape}）：和源句一样，每个编号取出它那一行的 {d} 个数。",
    "embed.p1.src": "嵌入表 E 给每个词元存了一行 {d} 个数（形状 {shape}）。编号的作用只是“查表”，"
                "取出对应的那一行，这一步不做任何运算。",
    "embed.p2.trained": "“{tok}”取出的是 [{row}]。这些数是学出来的：训练把它们从随机的起点"
                        "一步步挪到现在的位置，让预测变得正确。",
    "embed.p2": "“{tok}”取出的是 [{row}]。这些数一开始是随机的，训练时会不断更新，"
                "让作用相近的词慢慢靠在一起。",
    "embed.p3": "论文里每个词用 512 个数表示；这里只用 {d} 个，刚好能把每个数都看清楚。",
    "D14.embed": "和原教程一样，这个预设的所有权重都从 [0, 1) 均匀抽取（这里最小 {lo}、最大 {hi}）："
                 "全是正数，平均值在 0.5 附近，而且嵌入没有乘以 √d_model。真实的模型用以 0 为中心"
                 "的 Xavier 类初始化。权重全为正，注意力分数就会很大，softmax 随之“饱和”——"
                 "在注意力权重里就能看到。",
    "scale.title": "嵌入乘以 √d_model",
    "scale.p1": "和论文一样，嵌入要乘以 √d_model = √{d} = {root}，这样接下来加上的位置编码"
                "不会把词本身的信息盖过去。",
    "pos.title": "位置编码（原教程称“位置嵌入”）",
    "pos.title.tgt": "解码器输入的位置编码",
    "pos.p1": "注意力本身不知道词的先后顺序，所以要给每个位置加上一组固定的正弦、余弦值。"
              "第 2i 列和第 2i+1 列分别是同一个角度 pos / 10000^(2i/d_model) 的正弦和余弦："
              "i 数的是“第几对列”，每一对列以不同的速度转动。",
    "pos.tgt": "和源句用的是同一张固定的表，只是用在解码器的 {n} 个位置上：它只和位置有关，"
               "所以这几行和源句那张表的前 {n} 行完全相同。",
    "pos.p2": "在位置 0（“{tok}”），所有正弦都是 0，所有余弦都是 1。这些值和是哪个词无关，"
              "只和它站在第几个位置有关。",
    "D6": "原教程第 5 步写“对于 i 从 0 到 5”：它把 i 当成六个列号，而 10000^(2i/d) 里的 i "
          "应当是“第几对”（i = 0, 1, 2）。原教程的表格是图片，这里它的数是我们按这种读法重算的："
          "在位置 1（“{tok}”）、第 2 列（下标 1），它得到 {theirs}，而按“第几对”算是 "
          "cos(1/10000^0) = cos(1) = {ours}。越往右边的列差得越多，因为按列号算的角度几乎不动。",
    "input.title": "编码器的输入：词嵌入 + 位置编码（是相加）",
    "input.title.tgt": "解码器的输入：词嵌入 + 位置编码",
    "input.p1.src": "原教程这一步的标题写的是“连接”，其实两个矩阵是逐个数相加的：X 的形状仍然是 "
                    "{n}×{d}。这个 X 就是编码器的输入。",
    "input.p1.tgt": "和源句一样，把词嵌入和位置编码相加：Y（{n}×{d}）就是解码器的输入。",
    "input.p2": "比如“{tok}”的 d0 列：{a} + {b} = {c}。",
    # 7、7b、12、12b
    "where.enc": "编码器第 {layer} 层",
    "where.self": "解码器第 {layer} 层",
    "where.cross": "解码器第 {layer} 层",
    "where.head": "，第 {h} 个头",
    "where.encoder": "编码器第 {layer} 层",
    "where.decoder": "解码器第 {layer} 层",
    "attn.title.enc": "多头注意力（{where}）",
    "attn.title.self": "掩码多头注意力（{where}）",
    "attn.title.cross": "交叉注意力：解码器读取编码器的输出（{where}）",
    "attn.intro.enc": "注意力让句子里的每个词都能从其他词那里收集信息。每个头把 X 分别投影成三份："
                      "查询 Query（这个词在找什么）、键 Key（这个词能提供什么）、值 Value"
                      "（被关注时要交出去的内容）。",
    "attn.intro.self": "解码器先对自己的输入做注意力，但位置 i 只能看位置 0…i：它要预测第 i+1 个词，"
                       "就不能提前看到这个词。",
    "attn.intro.cross": "现在解码器回头去看原句。查询来自解码器，键和值来自编码器的输出（记作 M，"
                        "memory）：每个目标位置都在问，原句里哪些词对我有用。",
    "why.scale": "为什么除以 √d_k：如果查询和键里的数彼此独立、方差为 1，它们的点积是 d_k 个乘积之和，"
                 "方差就是 d_k，典型大小是 √d_k。除以 √d_k，不管头有多宽，分数的分布范围都一样，"
                 "头再宽也不会把 softmax 推到饱和。",
    "why.heads": "为什么要多个头：一个 softmax 只给每个词一种分配注意力的方式。h 个宽 d_model/h "
                 "的头，计算量和一个宽头差不多，但每个头可以找不同的东西（前一个词、主语……），"
                 "最后由 W^O 把它们找到的东西合在一起。",
    "why.sines": "为什么用正弦和余弦：往后移 k 个位置，每一对列 (sin, cos) 都转过同一个角度，"
                 "与起点无关，所以 PE(pos + k) 是 PE(pos) 的一个固定的线性变换（旋转），线性层很容易"
                 "读出相对位置；而且这张表可以延伸到比训练时更长的句子。",
    "why.shift": "为什么要右移一位：位置 t 要根据它前面的词预测第 t+1 个词。输入“<start>”再接上去掉"
                 "最后一个词的目标句，每个输入就正好对上它该预测的词，因果掩码再挡住每个位置自己的答案。",
    "why.ffn": "前馈网络多做了什么：注意力只是对值的各行做加权平均，是 V 的线性混合。前馈网络对每个"
               "位置单独施加非线性（ReLU），让这一层能算出不是平均值的特征；Transformer 的大部分"
               "参数都在这里。",
    "attn.sizes": "这里有 h = {h} 个头，每个头的查询和键宽 d_k = {dk}，值宽 d_v = {dv}；"
                  "一共 {n} 个位置，每个位置 d_model = {d} 个数。",
    "attn.more_heads": "下面逐个展示前 {shown} 个头（共 {h} 个）；其余的头算法完全一样，只是权重"
                       "不同，它们的结果会在这一步的最后一块里一起拼接。",
    "D11": "原教程说 LLaMA “在编码器里”用了 32 个头。其实 LLaMA 只有解码器，根本没有编码器，"
           "它的注意力头都在类似解码器的掩码自注意力里。",
    "D8.self": "原教程说掩码“是可选的”，并且跳过了它。在解码器的自注意力里，掩码绝不是可选的："
               "没有它，位置 i 就能直接看到自己要预测的那个词。",
    "D2": "原教程把编码器的输出当作查询和键，值却取自解码器，方向弄反了：查询来自解码器，"
          "键和值来自编码器。原教程的接法只有在两句话一样长时才算得下去；这里两句分别有 "
          "{n} 个和 {m} 个词元。",
    "proj.title.q": "查询 Q = {x}·W^Q（{where}）",
    "proj.title.k": "键 K = {x}·W^K（{where}）",
    "proj.title.v": "值 V = {x}·W^V（{where}）",
    "proj.q": "输入的每一行（一个词的 {d} 个数）乘以 W^Q（{d}×{w}），就得到这个词的查询："
              "{w} 个数，表示它在找什么。“{tok}”得到 [{row}]。",
    "proj.k": "同一个输入乘以另一个权重矩阵 W^K，得到键：每个词能提供给查询的东西。"
              "“{tok}”得到 [{row}]。",
    "proj.v": "第三个权重矩阵 W^V 给出值：一个词被关注时要交出去的内容。“{tok}”得到 [{row}]。",
    "proj.k.cross": "键来自编码器的输出 M（memory），每行对应原句的一个词：M 乘以 W^K，"
                    "得到原句每个词能提供给解码器查询的东西。“{tok}”得到 [{row}]。",
    "proj.v.cross": "值也来自 M：M 乘以 W^V，得到原句的词被关注时要交出去的内容。"
                    "“{tok}”得到 [{row}]。",
    "attn.cross.nomask": "这里没有因果掩码：解码器开始之前整句原文就已经知道，所以每个目标位置"
                         "都可以读原句的每个词。",
    "D10.forward": "原教程结尾说掩码有助于避免过拟合。掩码不是正则化手段：它保证从左到右的因果"
                   "顺序，让位置 i 学会预测一个它看不到的词。",
    "norm.eps": "ε = {eps} 只是为了在一行数全都相同时，除法仍然安全。",
    "loss.col.p": "p(正确答案)",
    "loss.col.nll": "−log p",
    "D7": "原教程把词写成列，再去乘一个转置矩阵。这里从一开始每个矩阵就是“一行一个词”，"
          "所以 X·W 不需要任何转置。",
    "scores.title": "注意力分数 Q·Kᵀ / √d_k（{where}）",
    "scores.p1": "每个查询都和每个键做点积；分数越大，表示“这个词对我越重要”。分数再除以 "
                 "√d_k = √{dk} = {root}，免得头的宽度一大，分数也跟着变大。",
    "scores.p2": "“{tok}”这一行和“{best}”的分数最高（{val}）。所有分数在 {lo} 到 {hi} 之间。",
    "D1": "原教程正文除以的是嵌入维度 {d}（有一张图的说明甚至写成 5），而不是 √d_k = {root}，"
          "所以它的分数是我们的 {ratio} 倍。原教程的矩阵是图片，这里它的数是我们把它的规则用在"
          "这组权重上重算的：比如“{tok}”对“{other}”，它得到 {theirs}，除以 √d_k 得到 {ours}。",
    "D8.enc": "原教程说掩码是可选的。编码器里只需要遮住填充（padding），而这句话没有填充，"
              "所以每个词都可以看到所有的词。",
    "D8.pad": "原教程说掩码是可选的。这里它遮住的是填充：没有它，真正的词就会把一部分注意力分给毫无意义的 "
              "<pad> 标记。",
    "mask.title": "掩码（{where}）",
    "mask.causal": "位置 i 只能看位置 0…i。对角线右上方的 {k} 个分数被设成 −∞，"
                   "softmax 之后它们的权重就是 0：“{first}”只能看到自己，“{last}”能看到全部 {n} 个。",
    "mask.pad": "填充标记不是真正的词：它们的 {k} 个分数被设成 −∞，谁也不会关注它们。",
    "pattern.title": "softmax：注意力权重（{where}）",
    "pattern.p1": "softmax 把每一行分数变成权重：都是正数，加起来等于 1。",
    "pattern.random": "请把这个注意力模式当成算术来看，而不是含义：权重是随机的。全为正数的随机投影"
                      "会让某一个键对所有查询都得分很高，于是各行都挤到同一个词上；是哪个词全凭运气。"
                      "随机权重能把 V 的各行混合起来，却选不出什么才是相关的：这种选择正是训练写进 "
                      "W^Q 和 W^K 里的东西。",
    "pattern.p2": "“{tok}”把 {pct}% 的注意力给了“{best}”；“{tok2}”把 {pct2}% 给了“{best2}”。",
    "D14.softmax": "大多数行几乎是“独热”的（每行最大权重平均为 {top}）。权重全是 [0, 1) 里的正数，"
                   "分数就很大，softmax 饱和，几乎没有梯度能穿过它。论文用 Xavier 初始化并把嵌入"
                   "乘以 √d_model，就是为了避免这种情况。",
    "z.title": "对值加权求和 Z = A·V（{where}）",
    "z.p1": "每个词的输出，是按它的注意力权重对各行值求的加权平均：每个词 {dv} 个数，"
            "混入了它所关注的词带来的信息。",
    "z.p2": "“{tok}”取了“{best}”的值的 {pct}%，得到 [{row}]。",
    "attn.out.title.enc": "拼接各个头：Concat ⋅ W^O（{where}）",
    "attn.out.title.self": "拼接各个头：Concat ⋅ W^O（{where}，掩码自注意力）",
    "attn.out.title.cross": "拼接各个头：Concat ⋅ W^O（{where}，交叉注意力）",
    "attn.out.p1": "把 {h} 个头的输出（每个 {n}×{dv}）左右拼在一起（{n}×{width}），再乘以 "
                   "W^O（{width}×{d}）。这样宽度又回到 d_model = {d}，下一步才能和这一层的输入相加。",
    "attn.out.one": "只有一个头，就没有什么可拼接的：Z（{n}×{dv}）直接乘以 W^O（{width}×{d}），"
                    "宽度回到 d_model = {d}，下一步才能和这一层的输入相加。",
    "attn.out.same": "这一层的 {h} 个头和第一层的算法完全一样，只是权重不同；这里直接给出拼接后的结果。",
    # 8–10
    "resid.title": "残差连接：相加（{where}）",
    "resid.p1": "把子层的输出加回到它的输入上：每个词原来的信息不会丢，梯度也多了一条直通的路。"
                "以“{tok}”的 d0 列为例：{a} + {b} = {c}。",
    "norm.title": "残差连接与层归一化（原教程称“添加和归一化”，{where}）",
    "norm.p1": "每一行单独归一化：减去这一行的均值 μ，再除以 √(σ² + ε)。这样不管前一层算出"
               "多大的数，每个词的数都变成均值 0、标准差 1。",
    "norm.p2": "“{tok}”这一行 μ = {mu}，√(σ² + ε) = {sd}，所以它的第一个数变成 "
               "({x} − {mu}) / {sd} = {y}。",
    "norm.gamma_start": "γ 初始为 1，β 初始为 0，所以输出就是单纯归一化后的行；训练会学出该怎么缩放和平移。",
    "norm.gamma": "然后每一列再乘以 γ、加上 β，这两个向量都是学出来的。",
    "norm.memory": "这就是编码器的输出：记忆 M，解码器每一层的交叉注意力都要读它。",
    "D5": "原教程除以的是 (σ + ε)，ε 放在根号外面，也没有 γ 和 β。(x − μ)/(σ + ε) 是一种常见的"
          "写法，并不算错：这里两者差得最多的地方（“{tok}”的 {col} 列，原教程的算法是我们重算的），"
          "它得到 {theirs}，论文和 torch 用的 √(σ² + ε) 得到 {ours}，相差 {diff}。只有 σ 小到"
          "接近 √ε 时两者才会分开。更要紧的是 γ 和 β：没有它们，模型就无法在需要时撤销归一化。",
    "final_norm.title.encoder": "编码器最后的层归一化",
    "final_norm.title.decoder": "解码器最后的层归一化",
    "final_norm.encoder": "torch.nn.Transformer 在编码器最后一层之后还有一次层归一化；它的输出"
                          "就是解码器要读的记忆 M。",
    "final_norm.decoder": "和 torch.nn.Transformer 一样，解码器最后一层之后再做一次层归一化，然后才做预测。",
    "ffn.title.pre": "前馈网络：线性层（{where}）",
    "ffn.title.relu": "前馈网络：ReLU（{where}）",
    "ffn.title.out": "前馈网络：输出（{where}）",
    "ffn.pre": "注意力负责让词与词交换信息；前馈网络则对每个词单独加工。每一行（{d} 个数）"
               "乘以 W₁（{d}×{w}），再加上偏置 b₁。",
    "ffn.relu": "ReLU 保留正数，把负数变成 0：这里 {total} 个数里有 {k} 个被变成了 0。",
    "ffn.out": "第二个线性层 W₂（{w}×{d}）加上 b₂，把宽度变回 {d}。",
    "ffn.same": "这一层的前馈网络和第一层算法一样，只是权重不同。",
    "D4.single": "原教程的前馈网络只有一个线性层加 ReLU，这个预设沿用了它。论文的前馈网络是两个线性层，中间夹一个 ReLU，先扩宽到 d_ff = 4·d_model 再变回来。",
    "D4.paper": "原教程在这里只用了一个线性层加 ReLU。这个模型和论文一样用两个线性层，中间是 ReLU，"
                "宽度从 {d} 扩到 d_ff = {dff} 再变回来。",
    # 11
    "ids.input": "输入",
    "ids.target": "目标",
    "dec.title": "解码器及其输入",
    "dec.p1": "解码器的输入是目标句子整体右移一位：它读入“{inp}”，在这 {n} 个位置上，"
              "每个位置都要预测下一个词，也就是“{target}”。",
    "dec.p2": "所以在位置 0，它看到“{first}”，应该预测出“{want}”。编码器的工作已经完成，"
              "它的输出会被解码器的每一层读取。",
    "D9.forward": "原教程说解码器每次只接受一个词元。那是推理时的做法，因为下一个词还不知道。"
                  "训练时，{n} 个位置一次全部输入（称为教师强制），再由因果掩码（原教程第 12 步）"
                  "保证每个位置看不到答案：一次算完，结果完全一样。",
    "D17": "原教程第 11 步的正文保留了“the”（“when you play the game of thrones”）；只有那里的"
           "一张图（图片）里，编码器的输入少了它。编码器的输入自始至终都是同样的 {n} 个词元：“{src}”。",
    # 13–14
    "logits.title": "计算预测单词：对数几率（logits）",
    "logits.p1": "一个线性层把每个位置的 {d} 个数变成 {V} 个分数，词表里每个词元一个；"
                 "{n} 个位置一起算。",
    "D3": "原教程先把解码器最后的矩阵展平成一个长向量（{n}×{d} = {flat} 个数），再过一个线性层。"
          "这样会把不同位置混在一起，而且线性层只能用于一种句子长度。正确的做法是把同一个 "
          "W_out 分别作用在每个位置（每一行）上。",
    "D16": "原教程的输出层只给数据集里的词打分，可解码又要等模型预测出 <end> 才停，所以 <end> "
           "必须是可能的输出。这里输出词表有 {V} 个：{N} 个词 + {specials}。",
    "probs.title": "概率：对整个词表做 softmax",
    "probs.p1": "softmax 把每一行的 {V} 个 logits 变成加起来等于 1 的概率。",
    "probs.p2": "在“{tok}”之后，最可能的词元是“{word}”，p = {p}；一个什么都不懂的模型会给每个词元 {uniform}。",
    "pred.title": "每个位置预测出的词",
    "pred.p1": "预测结果就是概率最大的那个词元（argmax p）。下表列出每个位置上正确答案 y 的概率，"
               "以及模型选中的词 ŷ 的概率。",
    "pred.first": "在“{tok}”之后，模型选了“{word}”（p = {p}）；正确答案是“{want}”（p = {pw}）。",
    "pred.score": "{n} 个位置里对了 {k} 个；模型说的是“{words}”。",
    "pred.untrained": "这些权重是随机的，还没有训练过，所以选出哪个词全凭运气，不是学来的："
                      "某个位置可能碰巧猜对（在 {V} 个词元里盲猜，大约 {V} 次能对一次），"
                      "但没有任何原因让它必然猜对，换一句意思完全不同的话，同一组权重照样会这么选。"
                      "训练会一步步调整权重，直到每个位置上正确的词都有理由胜出。",
    "pred.trained": "每个位置都对了：这组权重已经学会了这句话。",
    "pred.score_trained": "还不是每个位置都对：这组权重还没学会这句话（或者训练时没见过它）。",
    "pred.checkpoint": "这组权重来自 {path}，训练了 {epochs} 轮。训练之前，同一个模型（它的初始"
                       "权重）在“{tok}”之后给“{want}”的概率是 {before}；训练之后是 {after}。",
    "beside.title": "随机权重与训练后的权重并排",
    "beside.p": "p(y)",
    "beside.untrained": "上面所有步骤用的都是这个检查点训练后的权重（训练了 {epochs} 轮）。这里是"
                        "同一个模型训练之前的样子：用同一个种子抽出的初始随机权重，读同一个句子。"
                        "随机权重 θ₀ 下的第一个注意力模式记作 A，训练后的权重 θ 下的记作 A′，"
                        "最后是两者在每个位置上的 p(y)，即正确的下一个词的概率。",
    "beside.trained": "上面所有步骤用的都是随机权重。这里把这些权重复制一份，在语料的 {pairs} "
                      "个句对上训练 {epochs} 轮（Adam，学习率 {lr}；训练损失从 {first} 降到 "
                      "{last}），再读同一个句子：随机权重 θ₀ 下的第一个注意力模式记作 A，训练后的"
                      "副本 θ 下的记作 A′，最后是两者在每个位置上的 p(y)，即正确的下一个词的概率。",
    "beside.pattern": "随机权重也会得出一个注意力模式：每个分数都是两个随机投影的点积，所以有些行"
                      "会碰巧突出某一个词。这样的模式里没有任何学到的东西，也说明不了句子的意思。"
                      "训练会调整 W_Q 和 W_K，让注意力模式有助于预测训练目标；训练后的模式是什么"
                      "意思，要看它对预测的作用，而不是看它的样子。",
    "beside.predicted": "预测：随机权重下各位置选出“{random}”（{n} 个位置对了 {k_r} 个，"
                        "p(y) 的平均值 {pr}）；训练后选出“{trained}”（{n} 个位置对了 "
                        "{k_t} 个，平均值 {pt}）。随机权重可能碰巧在某个位置选对（词表里总有某个"
                        "词是最大值）；但它不可能有意选对。",
    "beside.seen": "这个句对就在副本的训练数据里：这个对比说明的是训练如何改变这些数字，而不是模型"
                   "能翻译它从没见过的句子。",
    "pred.col.target": "p(y)",
    "pred.col.picked": "p(ŷ)",
    "loss.title": "损失：交叉熵",
    "loss.p1": "损失衡量的是模型看到正确答案时有多“意外”：对 {n} 个位置的 −log p(正确答案) "
               "取平均，L = {L}。",
    "loss.p2": "最差的是“{tok}”之后的位置：正确的词“{want}”只得到 p = {p}，代价是 −log p = {nl}。",
    "loss.uniform": "如果模型对 {V} 个词元平均分配概率，损失是 ln {V} = {lnV}；训练的目标是把 L 压向 0。",
    "loss.q": "公式里的 q_t 是位置 t 的目标分布：正确的词为 1，其余词元都为 0，所以求和只留下 −log p(正确的词)。",
    "loss.smoothing": "使用标签平滑 ε = {eps} 时，目标分布 q 也会给其他词元一点点权重："
                      "正确的词是 1 − ε + ε/V，其余每个是 ε/V。",
    # 15–16
    "grad.title": "{what}的梯度：∂L/∂{sym}",
    "grad.intro": "现在把同样的步骤倒着走一遍。∂L/∂{name} 表示：把 {name} 里的每个数稍微调大"
                  "一点，损失 L 会变化多少；链式法则把它从每一步传到前一步。",
    "grad.p1": "绝对值最大的一项是 {max}{where}。",
    "grad.sign.pos": "梯度为正，表示把这个数稍微调大，损失就会上升，所以更新时会把它调小；"
                      "梯度为负则相反。绝对值的大小说明损失对它有多敏感：接近 0 的项对这句话几乎没有影响。",
    "grad.cell": "算一个格子，∂L/∂{sym}{where}：{shares}。合计：{v}。",
    "grad.share.and": "；再加上",
    "grad.share.copy": "{use} 把梯度原样传回，{v}",
    "grad.share.relu": "{use} 只在输入为正的地方放行：{g} × [{x} > 0] = {g} × {on} = {v}",
    "grad.share.seen": "掩码放行这个位置，{v}",
    "grad.share.masked": "掩码遮住了这个位置，传回的是 0",
    "grad.share.softmax": "经过 softmax {use}，对这一行的 {k} 个权重算 a·(g − Σ a·g)："
                          "{a}·({g} − ({terms})) = {v}",
    "grad.share.loss": "来自损失，(p − q) / |T| = ({p} − {q}) / {n} = {v}",
    "grad.share.norm": "经过层归一化 {use}，(ĝ − ĝ 的均值 − x̂·(ĝ⊙x̂) 的均值) / √(σ²+ε)，"
                       "其中 ĝ = γ ⊙ ∂L/∂Y，x̂ = (x − μ) / √(σ²+ε)："
                       "({gh} − {mg} − {xh}·{mgx}) / {sd} = {v}",
    "grad.share.dot": "来自 {use}，{k} 个乘积相加：{terms} = {v}",
    "grad.share.scaled": "来自 {use}，{k} 个乘积相加，再乘 1/√d_k = {f}：({terms})·{f} = {v}",
    "grad.at": "（“{row}”行、“{col}”列）",
    "grad.at.head": "（第 {h} 个头，“{row}”行、“{col}”列）",
    "grad.op.linear": "经过线性层时，梯度乘以 Wᵀ 传回输入 {x}；权重得到 {x}ᵀ·∂L/∂{y}，也就是每个权重该分担的“责任”。",
    "grad.op.head_proj": "投影把梯度传回输入，同时按头给出 {w} 的梯度 {x}ᵀ·∂L/∂{sym}。",
    "grad.op.softmax": "只有权重既不接近 0 也不接近 1 的地方，softmax 的梯度才大；饱和的 softmax 几乎不让梯度通过。",
    "grad.op.scores": "分数的梯度分给查询和键，和前向一样要除以 √d_k。",
    "grad.op.attend": "Z = A·V 的梯度同时传给注意力权重和值。",
    "grad.op.layer_norm": "层归一化只把梯度里“不是单纯平移或拉伸整行”的那部分传回去；γ 和 β 也得到各自的梯度。",
    "grad.op.relu": "ReLU 在输入为正的地方让梯度通过，在被置 0 的地方把梯度挡住。",
    "grad.op.identity": "这是整整一层输出处的梯度。层内部，链式法则走的是和第一层相同的步骤（见下文）；每个数都记录在运算记录里。",
    "grad.op.add": "加法把梯度原样复制给两个输入：这正是残差连接让梯度有一条直通路径的原因。",
    "grad.op.embed": "只有句子里用到的那些词，嵌入表中对应的行才有梯度；其他词的行保持不变。",
    "grad.logits": "softmax 之后接交叉熵，∂L/∂logits = (p − q) / {n}，其中 q 是目标：正确的词为 1，"
                   "其余为 0。位置 0 的正确答案"
                   "“{word}”的 p = {p}，所以它的梯度是 ({p} − 1) / {n} = {g}：是负数，"
                   "更新时会把这个对数几率往上推。",
    "D9.backward": "全部 {n} 个位置的梯度来自同一次前向计算：教师强制让整句的每个位置"
                   "同时得到训练。原教程里“一次一个词元”的解码器属于推理阶段。",
    "D14.backward": "这里分数的梯度非常小（最大的一项只有 {max}）：饱和的 softmax 几乎不让梯度通过，"
                    "所以 W^Q 和 W^K 从这句话里几乎学不到东西。这就是权重全从 [0, 1) 正数起步的代价。",
    "D10": "被掩码遮住的 {k} 个分数，梯度为 {zero}：掩码切断了每个位置通往后面词的所有路径。"
           "它保证的是从左到右的因果顺序。原教程说掩码“有助于避免过拟合”，其实它不是正则化手段。",
    "update.title": "更新{what}",
    "update.first": "最简单的梯度下降一步：每个参数都朝梯度的反方向移动，θ ← θ − η·g，"
                    "学习率 η = {lr}。只要 η 足够小，更新之后同一句话的损失就会稍微变小。",
    "update.embed": "只有句子里用到的 {k} 个词对应的行有梯度，所以只有它们会移动（这里列出的就是这些"
                    "行）；嵌入表其余 {rest} 行保持不变。",
    "update.p1": "{name} 梯度最大的一项在 [{at}]：{before} − {lr}·({g}) = {after}。",
    "update.loss": "更新之前损失是 L = {before}；用更新后的全部参数把同一句话再前向算一遍，"
                   "得到 L = {after}。",
    "update.moved": "这一步把预测往哪边推：每个位置上正确词的概率，更新前 → 更新后：{items}。"
                    "{n} 个位置里有 {k} 个上升了。",
    "update.moved.item": "“{inp}”之后，p({word}) {before} → {after}",
    "update.moved.sep": "；",
    "update.moved.up": "更新对“{inp}”之后的预测改变最大：p({word}) 从 {before} 升到 {after}。",
    "update.moved.down": "更新对“{inp}”之后的预测改变最大：p({word}) 从 {before} 降到 {after}。",
    "shards.title": "多台机器：分片的梯度",
    "shards.p1": "在多台机器上训练时，每个批次被切成若干数据分片，每个进程一片：各进程算出自己那一片的"
                 "梯度，再把这些梯度平均。这里在一个进程里做同样的事。这个批次是语料的前 {B} 对句子，"
                 "共有 n = {n} 个目标词元；切成 N = {N} 片、每片 {k} 对句子后，各片的目标词元数 "
                 "nₖ 分别是 {counts}。",
    "shards.weights": "损失是全部 n = {n} 个目标词元的平均，而每一片的损失是它自己 nₖ 个词元的平均，"
                      "所以一片在整体中占 nₖ/n 的权重。梯度对损失是线性的，因此 "
                      "ḡ = Σₖ (nₖ/n)·gₖ 就是整个批次的梯度。",
    "shards.equal": "这里每一片的词元数相同，所以每个权重都是 1/N，ḡ 就是各片梯度的简单平均："
                    "这正是 DistributedDataParallel 所取的。",
    "shards.unequal": "DistributedDataParallel 取的是简单平均 (1/N)·Σₖ gₖ，只有各片词元数相同时"
                      "它才等于上面的加权和。这里各片词元数不同，简单平均与整批梯度最多会相差 "
                      "{plain}。",
    "shards.result": "下面以 {name} 为例：每一片的梯度 gₖ、它们的加权和 ḡ，以及整个批次的梯度 g，"
                     "全部由同一个 NumPy 引擎算出。ḡ 与 g 最多相差 {max}（在 [{at}] 处）："
                     "只是浮点舍入误差。",
    "shards.torch": "在真正的多个进程上，handformer 把这件事交给 PyTorch：每份数据一个进程，每个进程计算每个批次中属于自己的那一份，并把损失乘以 N/n，这样 DistributedDataParallel "
                   "对梯度取的简单平均就等于这个加权和。每一步都是整个批次的一步，写出的检查点也可以像这个模型一样手算演示。",
    "list.sep": "、",
    "name.at": "{what}（{where}）",
    "param.embed": "嵌入表 {sym}",
    "param.embed.src": "源句嵌入表 {sym}",
    "param.embed.tgt": "目标句嵌入表 {sym}",
    "param.w_out": "输出层的权重 {sym}",
    "param.b_out": "输出层的偏置 {sym}",
    "param.w_ffn": "前馈网络的权重 {sym}",
    "param.b_ffn": "前馈网络的偏置 {sym}",
    "param.w_q": "查询的权重 {sym}",
    "param.w_k": "键的权重 {sym}",
    "param.w_v": "值的权重 {sym}",
    "param.w_o": "合并各头的权重 {sym}",
    "param.b_qkv": "投影的偏置 {sym}",
    "param.gamma": "层归一化的缩放 {sym}",
    "param.beta": "层归一化的平移 {sym}",
    "name.logits": "对数几率（logits）",
    "name.probs": "概率",
    "name.attn_out": "合并后的各头输出",
    "name.concat": "并排的各头输出",
    "name.z": "值的加权和",
    "name.pattern": "注意力权重",
    "name.scores": "注意力分数",
    "name.q": "查询",
    "name.k": "键",
    "name.v": "值",
    "name.norm": "层归一化",
    "name.resid": "残差和",
    "name.ffn_pre": "前馈网络的线性层",
    "name.ffn_act": "前馈网络的 ReLU",
    "name.ffn_out": "前馈网络的输出",
    "name.layer_out": "这一层的输出",
    "name.input": "输入（嵌入 + 位置）",
    "name.tok": "嵌入",
    "place.self_attn": "，自注意力",
    "place.cross_attn": "，交叉注意力",
    "place.ffn": "，前馈网络",
    # the decoder-only (GPT) walkthrough
    "gpt.beside.trained": "上面所有步骤用的都是随机权重。这里把这些权重复制一份，像 `handformer "
                          "train --family gpt` 那样在数据集的 {pairs} 行文本上用 Adam 训练 "
                          "{epochs} 步（每一步读完所有行；学习率 {lr}；训练损失从 {first} 降到 "
                          "{last}），再读同一段文本：第一层第 1 个头的带掩码自注意力模式，随机权重 "
                          "θ₀ 下的记作 A，训练后的副本 θ 下的记作 A′，最后是两者在每个位置上的 "
                          "p(y)，即正确的下一个词的概率。",
    "gpt.beside.pattern": "随机权重也会得出一个注意力模式：每个分数都是两个随机投影的点积，所以有些行"
                          "会碰巧突出前面的某一个词。两种权重下，模式在对角线以上都是零：让每个位置"
                          "读不到后面的词的是掩码，而不是训练。随机模式里没有任何学到的东西；训练会"
                          "调整 W_Q 和 W_K，让注意力模式有助于预测每行文本的下一个词；训练后的模式"
                          "是什么意思，要看它对预测的作用，而不是看它的样子。",
    "gpt.beside.untrained": "上面所有步骤用的都是这个检查点训练后的权重（在它的文本上用 Adam 训练了 "
                            "{epochs} 步）。这里是同一个模型训练之前的样子：用同一个种子抽出的初始"
                            "随机权重，读同一段文本：第一层第 1 个头的带掩码自注意力模式，随机权重 "
                            "θ₀ 下的记作 A，训练后的权重 θ 下的记作 A′，最后是两者在每个位置上的 "
                            "p(y)，即正确的下一个词的概率。",
    "gpt.beside.seen": "这段文本就在副本的训练数据里：这个对比说明的是训练如何改变这些数字，而不是"
                       "模型能续写它从没见过的文本。",
    "gpt.overview.title": "全局概览：手算一个只有解码器的 Transformer（GPT 式）",
    "gpt.overview.p1": "本讲解手算一个只有解码器的 Transformer，GPT 和 LLaMA 都是这一类：{layers} 层，"
                       "每个词元是一行 d_model = {d} 个数，{h} 个头、每头 d_k = {dk}，前馈网络宽 "
                       "d_ff = {dff}，词表共 {V} 个词元。",
    "gpt.overview.p2": "它读一段文本“{text}”，在 <start> 之后共 {n} 个词元，并在每个位置预测下一个词元。",
    "gpt.changed.memory": "和编码器-解码器相比，第一处变化：没有记忆 M。没有什么要先编码、再回头去读；"
                          "每个位置能参考的只有它前面的词元。",
    "gpt.changed.stack": "只有一摞层，而不是两摞：原教程里的问句和答句，“when you play the game of "
                         "thrones”和“you win or you die”，在这里是同一段文本。提示只是文本的开头，"
                         "回答就是把它接着写下去。",
    "gpt.changed.mask": "所以全部工作都落在因果掩码上。在编码器-解码器里，它只是不让解码器偷看答案；"
                        "在这里，读和预测的区别全靠它：位置 i 只看得到第 0…i 个词元，训练它预测第 "
                        "i+1 个，所有位置一次算完。",
    "gpt.changed.pre": "层归一化放在每个子层之前（前置归一化，和 GPT-2 一样）：X + MHA(LN(X))。"
                       "残差流 X 本身在层内从不归一化，所以很深的模型不用预热也能训练；整摞层之后"
                       "再做最后一次层归一化。论文的后置归一化（每次残差相加之后再做层归一化）只需切换一个开关。",
    "gpt.changed.post": "层归一化放在每次残差相加之后（后置归一化，和论文、GPT-1 一样）："
                        "LN(X + MHA(X))。GPT-2 把它移到了每个子层之前（前置归一化，这里的默认）。",
    "gpt.changed.tied": "输出层没有自己的权重：它就是嵌入表的转置，W_out = Eᵀ（论文第 3.4 节，"
                        "GPT-2 也这样做）。E 被用了两次，它的梯度就是这两处用法的梯度之和。",
    "gpt.changed.untied": "输出层有自己的权重 W_out（嵌入没有共享）。",
    "gpt.changed.steps": "原教程第 11 步加上的解码器自己的输入和交叉注意力，"
                         "在这里没有对应：各层之后直接是预测，和原教程第 13 步一样。",
    "gpt.arch.embed": "文本：嵌入 + 位置编码",
    "gpt.arch.stack": "只有解码器的层 × {n}",
    "gpt.arch.generator": "用 Eᵀ 的线性层 + softmax",
    "gpt.text.title": "数据集，当作普通文本来读",
    "gpt.text.p1": "原教程的 {count} 句话，当作普通文本来读：语言模型没有源句和目标句之分，"
                   "只有要接着写下去的文本。",
    "gpt.text.p2": "例子是把原教程的句对连成一段文本：先是“{prompt}”，再是“{rest}”。编码器-解码器"
                   "读前一句、写后一句；这个模型把两句都读进来，一个词元接一个词元。",
    "gpt.text.trained": "这些权重不是随机的：它们来自检查点 {path}，在这几行文本上用 Adam 训练了 "
                        "{steps} 步（平均损失最后是 {loss}）。下面的每个数都是训练后模型的。",
    "gpt.ids.title": "编码，以及目标：输入错开一位",
    "gpt.ids.p1": "模型读入 <start> 和各个词，共 {n} 个词元。在每个位置它都要预测下一个词元，"
                  "所以目标就是输入向左错开一位，最后是 <end>：一段文本一次给出 {n} 道题。",
    "gpt.ids.p2": "位置 0 看到“{first}”，应该预测“{want}”；最后的位置 {last} 看到“{tok}”，"
                  "应该预测“{end}”。",
    "gpt.embed.tied": "请记住这张表：最后的输出层用的是同一个 E，只是转置了。",
    "gpt.embed.untied": "最后的输出层有自己的权重；这张表只在这里用到。",
    "gpt.pos.why": "GPT-2 改为学习一张位置表。这里保留固定的正弦余弦，让输入和编码器-解码器的完全一样，"
                   "这样不同之处就只在那摞层上。",
    "gpt.arch.norm": "层归一化 {k}",
    "gpt.input.title": "输入：嵌入 + 位置",
    "gpt.input.p1": "嵌入和位置编码逐个数相加：X（{n}×{d}）是这摞层唯一的输入；没有第二句话。",
    "prenorm.title.attn": "注意力之前的层归一化（{where}）",
    "prenorm.title.ffn": "前馈网络之前的层归一化（{where}）",
    "prenorm.title.cross": "交叉注意力之前的层归一化（{where}）",
    "prenorm.p1": "前置归一化：子层读的是归一化后的行，但之后的残差相加把子层的输出加回到 X 本身，"
                    "而不是 LN(X)。",
    "prenorm.resid": "在前置归一化里，这个和不再归一化：它就是残差流，把每一层的贡献一路累加到最后。",
    "gpt.ffn.relu": "GPT-2 在这里用 GELU，一种平滑的 ReLU；用 ReLU 是为了让每个数都容易手算核对。",
    "gpt.final.title": "最后的层归一化",
    "gpt.final.p1": "在前置归一化里，残差流到这里还没有归一化过：最后再做一次层归一化（GPT-2 的 "
                    "ln_f），让送进输出层的每一行大小稳定。",
    "gpt.final.title.rms": "最后的均方根归一化（RMSNorm）",
    "gpt.final.p1.rms": "在前置归一化里，残差流到这里还没有归一化过：最后再做一次均方根归一化"
                        "（Llama 的 model.norm，只有 γ），让送进输出层的每一行大小稳定。",
    "logits.tied": "W_out 不是一个新矩阵：它就是嵌入表的转置 Eᵀ（{d}×{V}）。嵌入时把一个词放到"
                       "空间中某处的那一行，现在用来给每个位置的向量和这个词的匹配程度打分。共享它省下 "
                       "{saved} 个数。",
    "gpt.logits.untied": "W_out（{d}×{V}）有自己的数，和嵌入表无关。",
    "tied.and": "；",
    "tied.plus": "，",
    "tied.what.src": "源句",
    "tied.what.tgt": "解码器输入",
    "tied.what.text": "文本",
    "tied.title": "反向：共享的嵌入表 E，{k} 处用法合成一个梯度",
    "tied.p1": "E 用了 {k} 次：{uses}。反向传播把每处传回来的梯度相加：∂L/∂E = 把每次查表的 "
               "∂L/∂X_tok 的各行加到对应词元的行上，再加上 (∂L/∂W_out)ᵀ。",
    "tied.use.lookup": "查出{what}的 {n} 个词元（第 {step} 步）",
    "tied.use.out": "转置后当作 W_out（第 {step} 步）",
    "tied.term.lookup": "{what}的查表给 {v}",
    "tied.term.out": "输出层给 {v}",
    "tied.p2": "以“{word}”（第 {row} 行）的 {col} 列为例：{terms}，合起来是 {c}。",
    "tied.p3": "输入里没出现的 {rest} 个词元也有梯度，全部来自输出层：每个词的得分都参与了 "
               "softmax。",
    "gpt.recap.computed": "算了什么：运算记录上共 {steps} 步，从文本的 {n} 个编号，到它 {n} 个位置上"
                          "各 {V} 个概率。",
    "gpt.recap.lesson": "和编码器-解码器讲的是同一课，只是换成它的另一半来讲：一摞层，没有记忆，"
                        "一个因果掩码把“读”变成了“预测”。",
    # 当今大模型的部件（仅解码器模型）：旋转位置编码、RMSNorm、SwiGLU、分组查询注意力
    "gpt.changed.rope": "位置用旋转位置编码（RoPE，与 Llama 相同）：输入上不加任何东西。"
                        "在注意力里，每个头的查询和键按列两两成对，按与位置成正比的角度旋转，"
                        "所以分数看到的是两个词元相隔多远。",
    "gpt.changed.rms": "所有归一化都是 RMSNorm（与 Llama 相同）：每行除以它的均方根，再乘以 γ；"
                       "不减均值，也没有 β。",
    "gpt.changed.swiglu": "前馈网络是 SwiGLU（与 Llama 相同）：门 SiLU(X W_gate) 与 X W_up "
                          "逐个数相乘，再由 W_down 把 {dff} 个隐藏数映射回来。",
    "gpt.changed.gqa": "{h} 个查询头共用 {kv} 个键值头（分组查询注意力）：每个词元要存的键和值更少。",
    "gpt.arch.embed.rope": "文本：嵌入（不加位置编码）",
    "gpt.arch.heads.kv": "h = {h}，{kv} 个键值头，d_k = {dk}",
    "gpt.arch.swiglu": "SwiGLU {d}→{dff}→{d}",
    "gpt.arch.final_rms": "最后的 RMSNorm",
    "gpt.arch.rms": "RMSNorm {k}",
    "gpt.embed.rope.title": "输入：只有嵌入",
    "gpt.embed.rope": "这里不为位置加任何东西：用旋转位置编码（RoPE）时，词元的顺序在注意力里才进来，"
                      "每个头的查询和键按各自的位置旋转（第 7 步）。X = E[ids] 就是整个堆叠的输入。",
    "rope.angles.title": "旋转位置编码：角度（{where}）",
    "rope.angles.p1": "RoPE 把每个头的查询行和键行按列两两成对地旋转一个角度：位置 m 上的第 i 对转 m·θ_i。"
                      "值不旋转。",
    "rope.angles.p2": "d_k = {dk}，每个头有 {half} 对列；θ_i = 底数^(−2i/d_k)，底数为 {base}："
                      "θ = {thetas}。第一对转得最快，最后一对最慢。",
    "rope.angles.p3": "m·θ_i 这张表每个位置一行：“{tok}”在位置 {m}，它的第一对转 {a} 弧度。"
                      "旋转用的是它的余弦和正弦。",
    "rope.pairs.half": "这里的配对方式与 Hugging Face 相同（rotate_half）：每个头的第 i 列与第 "
                       "i + d_k/2 列成对，即 {labels}。",
    "rope.pairs.adjacent": "这里的配对方式与 RoFormer 论文（以及 GGUF 文件）相同：每个头相邻的第 2i "
                           "列与第 2i + 1 列成对，即 {labels}。",
    "rope.turn.title": "旋转位置编码：旋转后的 Q 和 K（{where}）",
    "rope.turn.p1": "这个头的 Q 和 K 每一行按自己的位置旋转：d_k = {dk} 列里有 {half} 对，每一对是一次"
                    "二维旋转。分数读的是旋转后的 Q̃ 和 K̃。",
    "rope.turn.worked": "手算：“{tok}”在位置 {m}，第（{a} 列，{b} 列）这一对，角度 {angle}："
                        "{xa}·cos − ({xb})·sin = {xa}·{cos} − ({xb})·{sin} = {ya}，"
                        "{xb}·{cos} + {xa}·{sin} = {yb}。",
    "rope.turn.norm": "旋转不改变长度：“{tok}”的查询旋转前长 {before}，旋转后长 {after}。",
    "rope.rel.title": "旋转位置编码：分数只看距离（{where}）",
    "rope.rel.p1": "在这次计算旁边另算的一个核对：第 1 个头里“{tok}”（位置 {m}）的查询和"
                   "“{other}”（位置 {n}）的键，旋转之前的值。",
    "rope.rel.p2": "在位置（{m}, {n}）旋转后，它们的点积是 {first}（本次计算在那里的分数乘以 {root} "
                   "是 {tape}）；两个都挪 {s} 个位置，点积是 {moved}：相同，差 {diff}。先转 mθ 再转 "
                   "−nθ，等于转 (m − n)θ。",
    "rope.rel.p3": "只挪查询到位置 {m}（距离从 {d0} 变成 {d}），得到 {one}：分数随距离而变，"
                   "不随这一对所在的位置而变。",
    "rope.rel.row": "q̃·k̃",
    "rope.pairs.title": "旋转位置编码：两种配对方式（{where}）",
    "rope.pairs.p1": "权重在不同程序之间搬运时的一个陷阱。Hugging Face 把第 i 列与第 i + d_k/2 列配对"
                     "（rotate_half，这里默认如此）；RoFormer 论文和 GGUF 文件把相邻的第 2i 列与第 "
                     "2i + 1 列配对。两者都是 RoPE，但同样的 W_Q 和 W_K 换一种配对就会算出不同的分数。",
    "rope.pairs.p2": "换算方式是在每个头内部重新排列 W_Q 和 W_K 的输出列（W 是 d_model × 头数·d_k，"
                     "计算 X W）：这个头的列按 {order} 的顺序排（d_k = {dk}）。",
    "rope.pairs.p3": "在本次计算上实际算一遍，遍历所有头和掩码保留的所有位置：列重新排过之后，分数的变化最多为 "
                     "{same}；不重新排列就直接载入，分数的变化最多达 {off}。第二张表就是第 1 个头按这种错误"
                     "方式算出的分数。",
    "rope.pairs.one": "d_k = 2 时每个头只有一对，两种约定都由同样两列组成：这里两者一致；d_k 为 4 "
                      "或更大时就不一致了。",
    "gqa.title": "分组查询注意力：多个头共用键和值（{where}）",
    "gqa.p1": "有 {h} 个查询头，却只有 {kv} 个键值头：每个 K 头和 V 头由 {g} 个查询头组成的一组共用，"
              "组里每个头各自用它算分数。",
    "gqa.groups": "{groups}。",
    "gqa.group": "第 {g} 个键值头供查询头 {heads} 使用",
    "gqa.p2": "W_K 和 W_V 各有 d_model × {kv}·d_k 列，而不是 d_model × {h}·d_k：各 {wk} 个数，"
              "而不是 {wk_mha} 个。解码器要为之前每个词元保存键和值（KV 缓存）：每个词元每层 {cache} "
              "个数，而不是 {cache_mha} 个，少到 {ratio} 分之一。",
    "gqa.mqa": "所有查询头只共用一个键值头，这就是多查询注意力。",
    "gqa.note": "由第 {heads} 个头共用",
    "gqa.row.cache": "每词元每层的 KV 缓存",
    "gqa.col.this": "{kv} 个键值头",
    "gqa.col.mha": "{h} 个头（多头注意力）",
    "gqa.served": "这是第 {g} 个键值头：查询头 {heads} 都读它。",
    "rms.title": "残差连接与 RMSNorm（{where}）",
    "rms.title.attn": "注意力之前的 RMSNorm（{where}）",
    "rms.title.ffn": "前馈网络之前的 RMSNorm（{where}）",
    "rms.title.cross": "交叉注意力之前的 RMSNorm（{where}）",
    "rms.p1": "RMSNorm 把每一行除以它的均方根 RMS = √(x² 的平均 + ε)，再乘以 γ。",
    "rms.p2": "“{tok}”这一行 RMS = {rms}，所以它的第一个数变成 {x} / {rms} · {g} = {y}。",
    "rms.vs_layer": "与层归一化不同，这里不减均值（一行只被缩放，从不平移），也没有 β："
                    "只算一个统计量，参数少一半。",
    "rms.prenorm": "前置归一化：子层读的是归一化后的行，但之后的残差相加把子层的输出加回到 X 本身，"
                   "而不是 RMSNorm(X)。",
    "rms.gamma_start": "γ 从 1 开始，所以起初这一步只是把每行缩放一下。",
    "swiglu.title.gate": "SwiGLU：门 G = X·W_gate（{where}）",
    "swiglu.title.up": "SwiGLU：值 U = X·W_up（{where}）",
    "swiglu.title.silu": "SwiGLU：门的 SiLU（{where}）",
    "swiglu.title.act": "SwiGLU：门乘以值（{where}）",
    "swiglu.p1": "SwiGLU 有三个矩阵，没有偏置：W_gate 和 W_up 各把一行的 {d} 个数映射成 {w} 个隐藏数；"
                 "W_down 再把它们映射回来。",
    "swiglu.rule": "Llama 定隐藏宽度的规则：取 4·d_model 的 2/3，这样三个矩阵的数和宽 4·d_model 的 ReLU "
                   "网络两个矩阵的数差不多：⌈2/3·4·{d}⌉ = {raw}，向上取到 {k} 的倍数：{rule}。",
    "swiglu.rule.kept": "本次计算用的就是这个宽度，{w}。",
    "swiglu.rule.set": "本次计算的宽度 {w} 是手动指定的。",
    "swiglu.up": "同一行乘以另一个矩阵：U 承载门放行的内容。",
    "swiglu.silu": "SiLU(x) = x·σ(x) 是平滑的 ReLU：“{tok}”的第 {j} 个门是 {g}，σ = {sig}，"
                   "所以 SiLU = {s}，几乎关上。{total} 个门值里有 {k} 个是负的；与 ReLU 不同，"
                   "它们仍会放过一点点。",
    "swiglu.act": "逐个数相乘：门决定每个值放过多少。对“{tok}”的第 0 个隐藏数：{s} × {u} = {h}。",
    "swiglu.down": "H W_down 把 {w} 个隐藏数映射回 {d} 个。三个矩阵共有 {params} 个数；宽 4·d_model 的 "
                   "ReLU 网络有 {relu} 个。",
    "name.q_rot": "旋转后的查询（RoPE）",
    "name.k_rot": "旋转后的键（RoPE）",
    "name.k_shared": "每组共用的键",
    "name.v_shared": "每组共用的值",
    "name.gate": "SwiGLU 的门",
    "name.up": "SwiGLU 的上投影",
    "name.silu": "门的 SiLU",
    "name.swiglu_act": "门乘以值",
    "name.rms": "RMSNorm 归一化",
    "grad.op.rms_norm": "RMSNorm 传回的梯度先乘以 1/RMS，再减去只会把整行拉伸的那部分；γ 也得到自己的梯度。",
    "grad.op.rope": "旋转由反方向的旋转抵消：每一对的梯度转回 −mθ_i。",
    "grad.op.repeat_kv": "被一组查询头读过的键值头，得到这些头的梯度之和。",
    "grad.op.silu": "SiLU 传回梯度乘以 σ(x)·(1 + x·(1 − σ(x)))：x 很大时几乎全部传回，x 为负时只传回一点。",
    "grad.op.mul": "乘积把梯度乘以另一个因子传给每个因子：门得到梯度乘以 U，U 得到梯度乘以门。",
    # the pretrained (BERT) walkthrough
    "bert.arch.embed": "嵌入：词 + 位置 + 类型，再做层归一化",
    "bert.arch.pooling": "平均池化：得到一个句向量",
    "bert.overview.title": "手算一个真实的预训练模型：{model}",
    "bert.overview.sizes": "与原教程相同的运算，只是规模完整、权重是训练好的：{layers} 层，d_model = "
                           "{d_model}，{heads} 个头（每头 d_k = {d_k}），前馈层宽 {d_ff}，词表有 "
                           "{vocab_size} 个 WordPiece 词元。下面每个数都与参考实现（transformers 的 "
                           "BertModel）在 float64 舍入误差内一致。",
    "bert.differs.encoder": "只有编码器。没有解码器，也不预测下一个词：模型把一句话变成一个向量（句向量），"
                            "意思相近的句子得到相近的向量。",
    "bert.differs.wordpiece": "用 WordPiece 代替整词。原教程给 23 个词各一个编号；BERT 用固定词表把文本切成"
                              "子词，因此几乎没有未知词，并在句子首尾加上特殊词元 [CLS] 和 [SEP]。",
    "bert.differs.positions": "位置编码是学出来的，而不是正弦余弦：位置 p 加上训练好的表 E_pos 的第 p 行。",
    "bert.differs.gelu": "前馈层用 GELU 代替 ReLU：x·Φ(x)，平滑，并让小的负值通过一部分。",
    "bert.differs.pooling": "最后做池化：对最后一层所有真实词元的行取平均，再缩放到长度 1，即句向量。",
    "bert.wp.title": "WordPiece：从文本到词元和编号",
    "bert.wp.words": "文本 “{text}” 先清洗（转小写、去掉重音符号），再按空格和标点切开：{words}。",
    "bert.wp.pieces": "每个词按贪心法切成词表里最长的子词；接在词中间的子词以 ## 开头。前加 [CLS]、"
                      "后加 [SEP]，模型读入 {n} 个词元：{tokens}",
    "bert.wp.split": "被切开的词：{words}。",
    "bert.wp.unk": "[UNK] 表示无法用词表中的子词拼出的词：{words}。",
    "bert.wp.ids": "它们的编号（vocab.txt 中的行号）：{ids}。",
    "bert.emb.word.title": "词元嵌入",
    "bert.emb.word": "{n} 个编号各取训练好的表 E_word 的一行，得到 {n}×{d} 的矩阵。原教程里这些行是随机的，"
                     "这里是学出来的。",
    "bert.emb.position.title": "学习得到的位置嵌入",
    "bert.emb.position": "位置 p 取训练好的表 E_pos 的第 p 行（{n} 行，每行 {d} 维）。原教程用正弦和余弦计算；"
                         "BERT 学习这些行，因此句子不能超过表的最后一行。",
    "bert.emb.type.title": "词元类型（句段）嵌入",
    "bert.emb.type": "BERT 可以同时读两句话，第二句标为类型 1。这里只有一句，全部是类型 0，所以 {n} 个词元"
                     "都加上 E_type 的同一行。",
    "bert.emb.sum.title": "输入：三种嵌入相加",
    "bert.emb.sum": "词元、位置和类型嵌入逐元素相加。",
    "bert.emb.ln.title": "嵌入的层归一化",
    "bert.emb.ln": "BERT 在第一层之前先对输入做层归一化（原教程没有这一步），ε = 1e-12。结果是 H⁽⁰⁾，"
                   "第 1 层的输入。",
    "bert.ln.first": "{token} 这一行归一化前的均值是 {mean}，标准差是 {std}。",
    "bert.where": "第 {i} 层（共 {layers} 层）：",
    "bert.qkv.title": "查询、键和值",
    "bert.qkv": "与原教程相同，只是多了偏置：{h} 个头，每个头有自己的 {dk} 列 Q、K、V。这里显示第 1 个头；"
                "其他头做同样的计算，只是权重不同。",
    "bert.scores.title": "分数与掩码",
    "bert.scores": "S = Q Kᵀ / √d_k，d_k = {dk}，每一对词元一个分数（第 1 个头）。",
    "bert.mask.none": "填充掩码遮住 [PAD] 的键：这句话没有 [PAD]，所以什么也没遮。一批长短不一的句子里，"
                      "短句会被填充，它们的 [PAD] 键得到 −∞。",
    "bert.mask.pad": "[PAD] 的键得到 −∞，所以没有词元会看向填充位置。",
    "bert.pattern.title": "全部 {h} 个头的注意力模式",
    "bert.pattern": "对 {h} 个头中的每一个按行做 softmax(S)：第 i 行表示词元 i 从每个词元取多少。与随机权重的玩具模型"
                    "不同，训练过的头有结构：有的看下一个或上一个词元，许多头在无事可做时停在 [SEP] 或 "
                    "[CLS] 上。",
    "bert.pattern.kinds": "各个词最看重哪里：{told}。",
    "bert.kind.prev": "{heads}看前一个词元",
    "bert.kind.next": "{heads}看后一个词元",
    "bert.kind.self": "{heads}看自己",
    "bert.kind.special": "{heads}停在 [CLS] 或 [SEP] 上",
    "bert.kind.mixed": "{heads}分散在几个词元上",
    "bert.heads": "第 {h} 个头",
    "bert.sep": "；",
    "bert.comma": "、",
    "bert.head": "第 {h} 个头",
    "bert.z.title": "值的加权和",
    "bert.z": "Z = A V：每个词元的新向量是各个值按注意力加权的平均（第 1 个头）。",
    "bert.out.title": "拼接各头，输出投影",
    "bert.out": "把 {h} 个头的 Z 并排拼起来（{d} 列），再乘以 W^O（加 b^O）。",
    "bert.ln1.title": "残差与归一化",
    "bert.ln1": "注意力之后：残差连接和层归一化（后归一化，与论文相同）。",
    "bert.ffn.title": "带 GELU 的前馈层",
    "bert.ffn": "两个线性变换 {d} → {d_ff} → {d}，中间是 GELU；原教程的前馈层只有一个线性变换和 ReLU。",
    "bert.gelu": "GELU(x) = x·Φ(x)，Φ 是标准正态分布函数，用 erf 精确计算。ReLU 会给出 0 的地方，"
                 "GELU 让一点点通过：{x} 变成 {y}。",
    "bert.ln2.title": "残差与归一化：本层输出",
    "bert.ln2": "前馈层之后：残差连接和层归一化，即本层的输出。",
    "bert.pool.title": "平均池化：整句一个向量",
    "bert.pool": "对最后一层在 {n} 个真实词元（{tokens}）上的行取平均；[CLS] 和 [SEP] 也算在内，"
                 "[PAD] 不算。",
    "bert.pool.why": "原教程从每一行预测下一个词；这个模型需要整句话的一个向量。",
    "bert.l2.title": "L2 归一化：句向量",
    "bert.l2": "u 的长度 r = ‖u‖ = {norm}；除以它得到长度为 1 的 e。",
    "bert.l2.cos": "所有句向量长度都是 1，所以两句话的余弦相似度就是点积 e_a · e_b。",
    "bert.cos.title": "余弦相似度",
    "bert.cos": "每个句向量长度都是 1，所以两个向量夹角的余弦就是它们的点积：方向相同为 1，无关为 0，"
                "相反为负。",
    "bert.cos.pair": "cos(“{a}”, “{b}”) = {cos}。",
    # walk --pretrained --backward：对两句话做一步微调
    "bert.pair.title": "两句话，一步微调",
    "bert.pair.p1": "这次演示做一步微调。A = “{a}” 和 B = “{b}” 意思应当几乎相同，所以它们的句向量"
                    "应当指向同一方向。损失衡量两者相差多远，反向传播算出每个权重对损失的影响，"
                    "一次更新让每个权重都挪动一点，把 A 和 B 拉近。",
    "bert.pair.p2": "B 也按同样的方法切成子词：{tokens}。两句话作为一个批次同时进入模型，用 [PAD] "
                    "补齐到 {n} 个词元；填充掩码让每个词元都看不到 [PAD]，平均池化也不算 [PAD]。",
    "bert.pair.p3": "下面各步展示句子 A（批次的第一行）；B 经过完全相同的步骤，它的数字就在 tape 上 A "
                    "的旁边。",
    "bert.loss.title": "损失：1 − 余弦相似度",
    "bert.loss.p1": "L = 1 − cos(u_A, u_B)：两个句向量方向相同时为 0，互相垂直时为 1，方向相反时为 "
                    "2。降低它，就是把两句话拉近。",
    "bert.loss.p2": "两个句向量长度都是 1，所以余弦就是它们的点积，即 {d} 个乘积之和：cos = {cos}，"
                    "L = {L}。",
    "bert.loss.p3": "最大的乘积在 {col} 列：{a} · {b} = {ab}。",
    "bert.grad.intro": "现在倒着走，从 L 回到每个权重。∂L/∂x 表示：把 x 稍微调大一点，L 会变化多少；链式法则把它从每一步传到前一步。这里的梯度都很小，常常不到千分之一：多显示几位小数就能看到更多位数。",
    "bert.grad.e.title": "句向量的梯度：∂L/∂e，每个句向量被拉向另一个",
    "bert.grad.e": "L = 1 − e_A · e_B，所以 ∂L/∂e_A = −e_B，∂L/∂e_B = −e_A（d0 列：{g} = "
                   "−({e})）。梯度下降让 e_A 逆着梯度移动，也就是朝 e_B 移动；e_B 也朝 e_A 移动。",
    "bert.grad.u.title": "平均向量的梯度，经过归一化：∂L/∂u",
    "bert.grad.u": "e = u / r，其中 r = ‖u_A‖ = {r}。把 u 拉长不会改变 e，所以归一化只把拉力中"
                   "“转动 u”的那部分传回去，并除以 r。",
    "bert.grad.u.along": "沿 e_A 方向的拉力原本是 e_A · ∂L/∂e_A = {before}；经过归一化之后是 "
                         "u_A · ∂L/∂u_A = {after}，在舍入误差内为零。",
    "bert.grad.pool.title": "最后一层输出的梯度，经过平均池化：∂L/∂H_{layers}",
    "bert.grad.pool": "u 是 {n} 个词元行的平均，所以每个真实词元的行得到 ∂L/∂u 的 1/{n}：在 d0 列，"
                      "{gu} / {n} = {g}。",
    "bert.grad.pool.pad": "{k} 个 [PAD] 行没有参与平均：它们的梯度是 0。",
    "bert.back.ln2.title": "最后一个层归一化之前的残差和的梯度：∂L/∂R₂",
    "bert.back.w2.title": "前馈网络 GELU 输出的梯度：∂L/∂G",
    "bert.back.gelu.title": "前馈网络隐藏层的梯度，经过 GELU：∂L/∂F",
    "bert.back.gelu": "GELU 的斜率是 Φ(x) + x·φ(x)：x 很大时约为 1，x 很负时约为 0，中间则小但不为 0；"
                      "换成 ReLU，负数处一点梯度也传不过去。",
    "bert.back.gelu.at": "在 F = {x}（词元 {token}，{col} 列）：∂L/∂G = {ga} 乘以斜率 {slope}，"
                         "得到 ∂L/∂F = {gf}。",
    "bert.back.w1.title": "前馈网络输入的梯度：∂L/∂H′",
    "bert.back.resid": "H′ 用了两次：进入前馈层，以及沿着绕过它的残差连接，所以 ∂L/∂H′ 是两条路径之和。",
    "bert.back.ln1.title": "注意力之后的残差和的梯度：∂L/∂R₁",
    "bert.back.wo.title": "拼接后各头的梯度：∂L/∂Z",
    "bert.back.z.title": "注意力权重和值的梯度：∂L/∂A、∂L/∂V",
    "bert.back.softmax.title": "注意力分数的梯度，经过 softmax 和填充掩码：∂L/∂S",
    "bert.back.mask": "[PAD] 键的权重是 0、分数是 −∞：它的分数梯度为 0，所以没有梯度流进填充"
                      "（A 中有 {a} 个 [PAD] 键，B 中有 {b} 个）。",
    "bert.back.scores.title": "查询和键的梯度：∂L/∂Q、∂L/∂K",
    "bert.back.qkv.title": "这一层输入的梯度，经过三个投影",
    "bert.back.qkv": "这一层的输入 H_{k} 用了四次：生成 Q、K、V，以及沿残差连接直通。它的梯度是这四条"
                     "路径之和：每个投影传回 ∂L/∂Q·(W^Q)ᵀ（K、V 同理），并给 W^Q 梯度 "
                     "H_{k}ᵀ·∂L/∂Q，所有头一起算。",
    "bert.back.layer.title": "第 {k} 层输出的梯度：∂L/∂H_{k}",
    "bert.back.input.title": "第 1 层输入的梯度：∂L/∂H_{k}",
    "bert.back.layer": "按与上面第 {last} 层相同的步骤反向经过第 {layer} 层，梯度到达它的输入 H_{k}。"
                       "这些步骤的每个数都记录在运算记录里。绝对值最大的一项是 {max}（“{token}”行，"
                       "“{col}”列）。",
    "bert.back.emb.title": "嵌入之和的梯度，经过它的层归一化：∂L/∂X_sum",
    "bert.back.emb": "嵌入的层归一化和其他层归一化一样反向传播，嵌入的 γ、β 得到各自的梯度。"
                     "X_sum = X_word + X_pos + X_type 再把 ∂L/∂X_sum 原样交给三次查表。",
    "bert.back.word.title": "词嵌入表 E_word 的梯度（按行累加）",
    "bert.back.word": "E_word 的第 w 行得到所有读过词元 w 的位置（A 和 B 中）的 ∂L/∂X_word 之和。"
                      "“{token}”被读了 {k} 次：在 {col} 列，{terms} = {total}。其余 {rest} 行"
                      "的梯度为 0。",
    "bert.back.pos.title": "位置表和句段表的梯度：E_pos、E_type",
    "bert.back.pos": "E_pos 的第 p 行得到两句话中位置 p 的梯度之和：第 1 行 {col} 列，{a} + {b} = "
                     "{c}。只有第 0 到 {last} 行被读过；其余 {rest} 行梯度为 0。",
    "bert.back.type": "每个词元都读了 E_type 的第 0 行，所以第 0 行得到 A 和 B 全部 {k} 个真实词元的"
                      "梯度之和；第 1 行（第二段）没有被读，梯度为 0。",
    "bert.update.title": "更新：每个参数，走一步",
    "bert.update.first": "最简单的梯度下降一步：每个参数都朝梯度的反方向移动，θ ← θ − η·g，"
                         "学习率 η = {lr}。",
    "bert.update.count": "全部 {k} 个参数张量（共 {total} 个数）都会移动。表中给出每个梯度的大小 ‖g‖"
                         "（各项平方和的平方根），覆盖每一层的每个权重以及嵌入。",
    "bert.update.table": "最大的是第 {layer} 层的 {sym}。",
    "bert.update.b_k": "每一层的 b^K 都没有梯度（最多 {max}，只是舍入误差）：给每个键都加上同一个 b^K，"
                       "一行里每个分数都加上同一个数 q·b^K，而整行平移不会改变 softmax 的结果。",
    "bert.update.loss": "更新前 L = {before}（cos = {cos}）；用更新后的权重把 A 和 B 再前向算一遍，"
                        "得到 L = {after}（cos = {cos_after}）：这一步把它们拉近了。",
    "bert.update.loss.not": "更新前 L = {before}（cos = {cos}）；用更新后的权重算得 L = {after}（cos = {cos_after}）：并没有变小。梯度只在小步长时指明下坡方向，"
                           "η = {lr} 这一步走得太远了；换一个更小的学习率就不会这样。",
    "bert.layer": "第 {i} 层",
    "bert.update.word.title": "更新：A 和 B 用到的 E_word 各行",
    "bert.update.word": "只有 A 和 B 中词元对应的 {k} 行有梯度，所以只有它们会移动（这里列出的就是这些行）；"
                        "表中其余 {rest} 行保持不变。",
    # translate --explain
    "decode.intro.title": "翻译“{src}”",
    "decode.intro.p1": "推理时没有目标句可以照抄：解码器一次只写一个词。编码器只运行一次，它的输出"
                       "即记忆 M（{n}×{d}），每一步解码的交叉注意力都读取它。",
    "decode.intro.greedy": "贪心搜索：每一步取概率最大的词。",
    "decode.intro.beam": "束搜索：每一步保留概率最大的 {beam} 个前缀；已结束的假设按 "
                         "log P(Y) / lp(Y) 打分，lp(Y) = ((5 + |Y|) / 6)^α，α = {alpha}（GNMT），"
                         "以免较长的译文吃亏。",
    "decode.intro.cache": "每一步只计算最新的位置。在因果掩码下，前面的位置看不到它，所以每个解码器层"
                          "自注意力中它们的键和值就是已经算过的那些：存在缓存里，只追加新位置的键和值。"
                          "交叉注意力的键和值是 M 的投影，M 不变：只算一次。其余步骤都逐行计算，"
                          "所以数值与对整个前缀完整计算的结果相同（测试到 1e-12）；"
                          "省下的只是工作量：每步从整个前缀减到一行。",
    "decode.d9": "训练时整句右移后的目标在因果掩码下一次性输入（教师强制）；只有在推理时，解码器"
                 "才一次输入一个词元，即它自己前面的输出。",
    "decode.step.title": "解码第 {t} 步：选择第 {t} 个词",
    "decode.step.p1": "解码器目前的输入是“{prefix}”，带因果掩码：最新的位置 {pos}（和逐步讲解"
                      "一样从 0 数起）能看到它之前的所有词元，看不到之后的。",
    "decode.step.p2": "最新位置的交叉注意力（解码器第 {layer} 层，每个头一行）显示它取用哪些源词；"
                      "然后对它这一行计算 logits = Y W_out + b_out 和 p = softmax(logits)。",
    "decode.step.greedy": "概率最大的词是“{word}”（p = {p:.3f}），把它接在后面。",
    "decode.step.end": "概率最大的是 <end>（p = {p:.3f}）：解码结束。",
    "decode.step.beam": "束搜索：按总对数概率排列的最佳延续：",
    "decode.step.hyps": "束中有 {k} 个假设，作为一个批次一起计算；矩阵显示的是第一个，“{prefix}”。",
    "decode.hyp.col": "log P",
    "decode.hyp.done": "{text}（已结束）",
    "decode.top": "p 的前 {k} 名",
    "decode.head": "第 {h} 个头",
    "decode.cross": "第 {n} 个位置的交叉注意力",
    "decode.result.title": "译文",
    "decode.result.p1": "“{src}” → “{out}”",
    "decode.result.greedy": "log P = {score:.4f}（所选各词的对数概率之和，包括 <end>）。",
    "decode.result.beam": "得分 = log P / lp = {score:.4f}：最好的已结束假设。",
    "decode.limit": "在 {n} 个词元内没有出现 <end>：解码在长度上限处停止。",
    # 训练：进度、小结、损失曲线（也是它的图中标签）
    "train.start": "训练 {preset} 模型（{shape}，{init} 初始化），共 {pairs} 对句子"
                   "{held_out}，{optimizer} {lr}，{dtype}",
    "train.setup": "测试集 {test} 对；{tokenizer} 分词，词汇表 {vocab} 个词元；"
                   "引擎 {engine}，{world} 个进程",
    "train.tokenizer_bpe_target": "源语言 {tokenizer}、目标语言字节级 BPE（{merges} 次合并）",
    "train.held_out": "，另留出 {n} 对",
    "train.lr": "学习率 {lr}",
    "train.peak_lr": "峰值学习率 {peak:.2e}",
    "train.dtype_tutorial": "{dtype}（教程句对的默认值）",
    "train.dtype_corpus": "{dtype}（使用 --dataset 或 --pairs 时的默认值；精确比较请用 --dtype "
                          "float64）",
    "train.small_model": "警告：d_model {d_model} 的模型从 {pairs:,} 对句子中学不到多少；"
                         "docs/translator.md 的配方宽 128（--preset small --d-model 128 "
                         "--heads 4 --d-ff 512 --layers 2）",
    "train.schedule": "论文的预热学习率：系数 {factor:.4g}，预热 {warmup} 步，第 {warmup} 步达到峰值 "
                      "{peak:.2e}",
    "train.interrupted": "\n已中断；检查点 {path} 保存着最后保存的第 {epoch} 轮；继续训练："
                         "`handformer train --resume {path}`",
    "train.interrupted_unsaved": "\n在保存任何一轮之前中断；没有写入 {path}",
    "train.wrote": "已写入 {path}",
    "train.epoch": "轮次",
    "train.loss": "损失",
    "train.acc": "词元准确率",
    "train.val": "验证集",
    "train.title": "训练损失与准确率",
    "train.after": "{epochs} 轮之后：训练损失 {loss:.4f}，词元准确率 {acc:.1%}，"
                   "整句完全正确 {exact:.1%}（教师强制）",
    "train.after_subset": "{epochs} 轮之后，在 {total:,} 对训练句子的前 {n:,} 对上：训练损失 "
                          "{loss:.4f}，词元准确率 {acc:.1%}，整句完全正确 {exact:.1%}（教师强制）",
    "train.valid": "验证集：损失 {loss:.4f}，词元准确率 {acc:.1%}",
    "train.saved": "已保存 {path}；试试：handformer translate --checkpoint {path} \"{src}\"",
    "train.tps": "每秒 {rate:,.0f} 个词元",
    "train.test": "测试集（{n} 对）：损失 {loss:.4f}，词元准确率 {acc:.1%}，{scores}",
    "train.scores": "BLEU {bleu:.2f}（sacrebleu，区分大小写，{tokenize}）· chrF2 {chrf:.2f} · "
                    "不区分大小写的 BLEU {lower:.2f}",
    "train.examples": "测试集句子的翻译（贪心解码）：",
    "train.stopped": "第 {epoch} 轮后提前停止：验证集损失已经 {patience} 轮没有下降；"
                     "最好的权重保存在 {best}",
    "train.stopped_bleu": "第 {epoch} 轮后提前停止：验证集 BLEU 已经 {patience} 轮没有提高；"
                          "最好的权重保存在 {best}",
    # Markdown
    "md.title": "handformer: 手算 Transformer",
    "md.row": "行",
    "md.token": "词",
    "md.seed": "原教程",
    # HTML 页面：页面框架、按钮和图例
    "lang.name": "中文",
    "page.contents": "目录",
    "page.phase.text": "模型之前：数据",
    "page.phase.forward": "前向传播",
    "page.phase.loss": "损失",
    "page.phase.backward": "反向传播",
    "page.phase.update": "参数更新",
    "page.phase.decode": "解码",
    "page.phase.recap": "回顾",
    "page.foot": "数字保留 {precision} 位小数；handformer 以 float64 计算。按 ← → 或 j k 在步骤间移动。",
    "page.theme": "浅色 / 深色",
    "page.prev": "上一步",
    "page.next": "下一步",
    "page.link": "链接到这一步",
    "page.scale": "颜色刻度",
    "page.show_all": "显示全部",
    "page.show_corners": "只显示四角",
    "page.show_first": "只显示四角（现在显示的是前 {block}）",
    "page.corners": "{shape} 的四角：全部数值都保存在运算记录文件（JSON）里",
    "page.show_numbers": "显示数字",
    "page.first": "（前 {cut}）",
    "page.hover": "悬停看权重，点击某个头看全部数字",
    "page.seed": "原教程",
    "page.tutorial": "原教程",
    "page.pos": "位置 {i}",
    "gloss.title": "术语表",
    "gloss.qkv.term": "Q、K、V（查询、键、值）",
    "gloss.qkv.match": "查询|键和值|Q、K、V",
    "gloss.qkv.def": "每个词元的三种投影。查询说明它要找什么，键说明每个词元能提供什么，值是最后被混合的内容：每个值的权重看它的键和查询有多匹配。",
    "gloss.d_model.term": "d_model",
    "gloss.d_model.match": "d_model",
    "gloss.d_model.def": "词元向量在各个子层之间的长度：嵌入、每个子层的输出和记忆 M 都是这么宽。",
    "gloss.d_k.term": "d_k",
    "gloss.d_k.match": "d_k",
    "gloss.d_k.def": "一个注意力头里查询和键的长度。分数要除以 √d_k，因为 d_k 项随机数的点积会随 d_k 变大。",
    "gloss.logits.term": "对数几率（logits）",
    "gloss.logits.match": "对数几率|logits",
    "gloss.logits.def": "最后的线性层在每个位置给词表里每个词打出的原始分数；softmax 把它们变成概率。",
    "gloss.residual.term": "残差连接",
    "gloss.residual.match": "残差",
    "gloss.residual.def": "把子层的输入加回到它的输出上，即 x + 子层(x)：信号（以及反向传播时的梯度）可以绕过这个子层。",
    "gloss.layer_norm.term": "层归一化",
    "gloss.layer_norm.match": "层归一化",
    "gloss.layer_norm.def": "把每个词元的向量平移到均值为 0、缩放到方差为 1，再乘以 γ、加上 β，这两个都是学出来的。",
    "gloss.teacher_forcing.term": "教师强制",
    "gloss.teacher_forcing.match": "教师强制",
    "gloss.teacher_forcing.def": "训练时解码器读的是正确的前一个词（目标句右移一位），而不是它自己猜的词，所以所有位置一次就能一起学。",
    "gloss.memory.term": "记忆（M）",
    "gloss.memory.match": "记忆",
    "gloss.memory.def": "M，编码器的输出：解码器每一层的交叉注意力都从它取键和值。",
    "gloss.tape.term": "运算记录",
    "gloss.tape.match": "运算记录",
    "gloss.tape.def": "按顺序记下算过的每一步：它的输入、输出和公式；反向传播沿着它倒着走一遍。",
    "gloss.softmax.term": "softmax",
    "gloss.softmax.match": "softmax",
    "gloss.softmax.def": "把一行里每个数取 e 的指数，再除以这一行的总和：得到一组加起来等于 1 的正数，分数最大的分得最多。",
    "gloss.embedding.term": "嵌入",
    "gloss.embedding.match": "嵌入",
    "gloss.embedding.def": "一张学出来的表，词表里每个词占一行，每行 d_model 个数；词的编号决定取哪一行。",
    "gloss.positional_encoding.term": "位置编码",
    "gloss.positional_encoding.match": "位置编码",
    "gloss.positional_encoding.def": "由每个位置算出的正弦和余弦，加到嵌入上，让模型分得清词的先后顺序。",
    "page.map": "模型示意图：正在阅读的步骤会高亮",
    "page.from": "← 来自第 {step} 步",
    "page.hidden": "未显示 {rows} 行、{cols} 列（⋮ ⋯）",
    "page.hidden_rows": "未显示 {rows} 行（⋮）",
    "page.hidden_cols": "未显示 {cols} 列（⋯）",
    "page.tutorial_step": "原教程第 {n} 步",
    "page.erratum": "原教程此处有出入",
    "page.reads": "读入：",
    "page.feeds": "输出去往：",
    "page.tap": "轻触格子看权重，轻触某个头看全部数字",
    "page.cell_hint": "点击一个格子：算出它的那一行和那一列会高亮",
    # 电子表格（walk --format xlsx）
    "xlsx.input": "输入：改动它，之后的每个数都会重新计算",
    "xlsx.targets": "目标词的编号（输入）",
    "xlsx.per_position": "每个位置的 −log p(目标) = log Σ exp(logits) − 目标词的对数几率",
    "xlsx.argmax": "预测的词：每行概率最大的那一列",
    "xlsx.predicted_col": "预测",
    "xlsx.title": "handformer · 整个前向计算，每个数都是公式",
    "xlsx.hint": "蓝色的数是输入（嵌入、权重、偏置、编号）。改动其中一个，之后的每个公式都会重新"
                 "计算，直到预测的词。把鼠标停在块的名字上可以看到讲解。",
    "xlsx.sentence": "源句 → 目标句",
    "xlsx.reads": "解码器读到",
    "xlsx.predicts": "预测的下一个词",
    "xlsx.sheet": "工作表",
    "xlsx.block": "块",
    "xlsx.shape": "形状",
    "xlsx.step": "步骤",
    "xlsx.replaced": "注意：工作簿无法保存的字符（控制字符、单独的代理项、U+FFFE）显示为 ␀…␟ 或 �。",
    "xlsx.cut": "注意：{cut} 段超出单元格长度（32,767 个字符）的文字以“… [cut: …]”结尾。",
    # 概览（开头）与回顾（结尾）
    "overview.title": "全局概览：这里计算的模型",
    "overview.credit": "例子和步骤取自 Fareed Khan 的教程《Solving Transformer by Hand: A "
                       "Step-by-Step Math Example》（2023 年发表于 Level Up Coding，"
                       "链接见 README.zh-CN.md），中文版是漫画"
                       "《手把手漫画数学公式推导Transform教程》；下文的“原教程”就是指它。",
    "overview.p1": "本讲解手算一个编码器—解码器 Transformer：编码器 {enc} 层，解码器 {dec} "
                   "层，每个词是一行 d_model = {d} 个数，词汇表共 {V} 个词元。",
    "overview.p2": "编码器读一次“{src}”（{n} 个词元）。解码器读“{tgt}”（{m} 个词元），"
                   "并在每个位置预测下一个词。",
    "overview.pre_norm": "前置归一化：每个子层读的是 LN(X)，它的输出加回到 X 本身，即 X + Sublayer(LN(X))，而不是论文的 LN(X + Sublayer(X))。"
                        "The Annotated Transformer 和 GPT-2 都这样做（深的堆叠训练起来更稳）；torch.nn.Transformer 里叫 norm_first=True。",
    "overview.pre_norm.no_final": "这次运行没有最后的层归一化，所以在输出层之前没有任何东西把残差流归一化：它的数一层比一层大。前置归一化的模型最后都再加一个层归一化。",
    "overview.tied": "共享嵌入（论文 §3.4）：一张表 E（{V}×{d}）既是源嵌入，也是目标嵌入，转置后还是输出层的权重 W_out = Eᵀ；这样少了 {saved} 个数。"
                    "反向传播时它的梯度是三处用法传回来的梯度之和。",
    "overview.paper_count": "参数：这次运行有 {here} 个（词表 {V} 个词）。用论文的共享词表（约 "
                            "{vocab} 个词），这个配置共享嵌入时有 {tied} 个参数（{m_tied}M），"
                            "不共享时有 {untied} 个（{m_untied}M）。论文表 3 给出基础模型 65M；"
                            "论文没有说明它数了哪些参数，共享嵌入时词表约 {at_65m} 个词才到 65M。",
    "overview.heads": "原教程给编码器 {enc} 个头、解码器 {dec} 个头，正好展示两种情形：单个头，"
                      "以及多个头并排、再由 W^O 合并。论文中各处都用同样的头数（8 个）。",
    "overview.map": "下面的结构图就是本讲解的顺序：每个方块注明计算它的步骤。",
    "overview.steps": "各步骤，每步一行",
    "arch.src_embed": "源句：嵌入 + 位置编码",
    "arch.tgt_embed": "目标句（右移一位）：嵌入 + 位置编码",
    "arch.shape": "{n}×{d}",
    "arch.encoder": "编码器 × {n}",
    "arch.decoder": "解码器 × {n}",
    "arch.layer": "第 {i} 层",
    "arch.self_attn": "自注意力",
    "arch.masked_attn": "掩码自注意力",
    "arch.cross_attn": "交叉注意力（键、值来自 M）",
    "arch.heads": "h = {h}，d_k = {dk}",
    "arch.norm": "残差与层归一化",
    "arch.ffn.label": "前馈网络",
    "arch.ffn": "{d}→{dff}→{d}",
    "arch.ffn.single": "{d}→{d}，单层",
    "arch.final_norm": "最后的层归一化",
    "arch.generator": "线性层 + softmax",
    "arch.prediction": "预测的词",
    "arch.short.src": "源句",
    "arch.short.tgt": "目标句（右移）",
    "arch.short.embed": "嵌入",
    "arch.short.self": "自注意力",
    "arch.short.masked": "掩码自注意力",
    "arch.short.cross": "交叉注意力",
    "arch.short.linear": "线性层 + softmax",
    "arch.short.words": "预测的词",
    "arch.short.pool": "池化",
    "recap.title": "回顾",
    "recap.computed": "算了什么：运算记录上共 {steps} 步，从源句的 {n} 个编号，到解码器 {m} 个"
                      "位置上各 {V} 个概率。",
    "recap.prediction": "预测结果：“{words}”，{n} 个位置中对了 {k} 个。在“{tok}”之后模型选了"
                        "“{word}”（p = {p}）；目标词“{want}”的概率是 p = {pw}。",
    "recap.said": "预测结果：“{words}”。",
    "recap.loss": "损失原为 L = {before}；以 η = {lr} 更新一次之后，同一句话的损失是 "
                  "L = {after}。",
    "recap.uniform": "如果对 {V} 个词元一律等概率地猜，损失是 ln {V} = {u}：更新之前这组权重比这还差，"
                     "因为随机权重不是拿不准，而是很有把握地猜错。",
    "recap.uniform.better": "如果对 {V} 个词元一律等概率地猜，损失是 ln {V} = {u}：模型已经比这好了。",
    "recap.uniform.worse": "如果对 {V} 个词元一律等概率地猜，损失是 ln {V} = {u}：在这句话上，训练过的权重"
                           "比这还差。",
    "recap.shapes": "一路上的形状：源句的 {n} 个词元变成 {n}×{d} 的矩阵，编码器交给解码器的 M 也是 {n}×{d}；目标句的 {m} 个词元变成 {m}×{d}，解码器每一层都保持这个形状，最后的线性层把它变成 {m}×{V} 的对数几率（每个位置一行分数），再变成 {m}×{V} 的概率。",
    "recap.col.before": "更新前",
    "recap.col.after": "更新后",
    "recap.col.untrained": "未训练",
    "recap.col.trained": "训练后",
    "recap.table": "下表是每个位置上正确词的概率：{before}（权重 {a}）和{after}（权重 {b}）。",
    "recap.words": "预测的词，{before}：“{words_before}”；{after}：“{words_after}”。",
    "recap.loss.trained": "这对句子的损失：未训练时 {before}，训练后 {after}。",
    "recap.takeaways": "原教程最后列了三条要点，这里逐条订正：",
    "recap.takeaway.1": "1. “这个例子非常简化，没有涉及训练轮数这类参数”：确实如此；训练会在数据上跑很多轮，训练好的模型也可以像这里一样逐步查看。",
    "recap.takeaway.2": "2. “它只展示了训练过程，看不到评估或测试”：翻译一句话展示的是推理，一次一个词元；反向传播展示的是训练这一步本身：损失、每个梯度和一次更新。",
    "recap.takeaway.3": "3. “掩码多头注意力可以防止模型窥视未来，有助于避免过拟合”：前半句对，"
                        "后半句不对（D10）。掩码保证从左到右的因果顺序，它不是正则化手段。",
    "recap.next": "接下来可以试试",
    "recap.next.backward": "损失、每一个梯度和一次更新：",
    "recap.next.backward.run": "handformer walk --lang zh --backward",
    "recap.next.beside": "当场训练一份副本，和这组权重并排对照：",
    "recap.next.beside.run": "handformer walk --lang zh --beside-trained",
    "recap.next.html": "把本讲解做成一个离线网页：",
    "recap.next.html.run": "handformer walk --lang zh --format html -o walk.html",
    "recap.next.train": "先训练模型，再手算训练好的模型：",
    "recap.next.train.run": "handformer train && handformer walk --lang zh --checkpoint handformer.ckpt",
    "gpt.recap.next.backward": "损失、每一个梯度和一次更新：",
    "gpt.recap.next.backward.run": "handformer walk --family gpt --lang zh --backward",
    "gpt.recap.next.html": "把本讲解做成一个离线网页：",
    "gpt.recap.next.html.run": "handformer walk --family gpt --lang zh --format html -o gpt.html",
    "gpt.recap.next.generate": "先训练模型，再让它续写一段文字：",
    "gpt.recap.next.generate.run": "handformer generate \"when you play the game of thrones\"",
    "flow.next": "接下来：{where}。",
    "place.encoder": "编码器",
    "place.decoder": "解码器",
    "place.head": "第 {h} 个头",
    "place.loss": "损失",
    "place.backward": "反向传播",
    "place.update": "参数更新",
    "place.norm": "残差与层归一化 {k}",
    "told.before": "（讲解见“{where}”。）",
    # 勘误：步骤里显示的一行，可展开为全文
    "erratum.numbers": "⚠ 原教程此处不同：{theirs}，本实现 {ours}",
    "D1.summary": "⚠ 原教程除以 d_model，而不是 √d_k",
    "D2.summary": "⚠ 原教程把交叉注意力的输入接反了",
    "D3.summary": "⚠ 原教程在最后一层之前把矩阵展平",
    "D4.summary": "⚠ 原教程的前馈网络只有一层",
    "D5.summary": "⚠ 原教程的层归一化：ε 在根号外（一种常见写法），没有 γ、β",
    "D6.summary": "⚠ 原教程的 i 按列计数，而不是按对",
    "D7.summary": "⚠ 原教程把词写成列",
    "D8.summary": "⚠ 原教程说掩码可有可无",
    "D9.summary": "⚠ 原教程让解码器一次只读一个词元",
    "D10.summary": "⚠ 原教程说掩码有助于避免过拟合",
    "D11.summary": "⚠ 原教程说 LLaMA 有编码器",
    "D14.summary": "⚠ 原教程的权重全部取自 [0, 1)",
    "D16.summary": "⚠ 原教程的输出层说不出 <end>",
    "D17.summary": "⚠ 原教程的一张图里编码器输入少了“the”",
    "D18.summary": "⚠ 原教程的维度规则只是经验法则",
    # 这门语言的设置，不是文字：HTML 的 lang 标记、CSS 和图中字体
    "lang.tag": "zh-CN",
    "lang.font": "\"Noto Sans CJK SC\",\"Noto Sans SC\",\"PingFang SC\",\"Microsoft YaHei\",system-ui,sans-serif",
    "figure.fonts": "Noto Sans CJK SC, DejaVu Sans",
    # 中文只在标点、空格和 <wbr>（词与词之间）处换行；实在放不下才在词中断开
    "lang.wrap": "line-break:strict;word-break:keep-all;overflow-wrap:break-word",
    # 网页应用（handformer serve）自己的用词：server/ui_text.py 去掉前缀 “app.”。
    "app.title": "handformer：手算 Transformer，实时",
    "app.src": "源句",
    "app.tgt": "目标句",
    "app.corpus": "语料（每行一句；其中的词构成词表）",
    "app.preset": "预设",
    "app.d_model": "d_model（嵌入宽度）",
    "app.heads": "头数",
    "app.d_k": "d_k（每个头的查询/键宽度）",
    "app.d_ff": "d_ff（前馈层宽度）",
    "app.layers": "层数（编码器与解码器）",
    "app.ffn": "前馈层",
    "app.ffn.default": "同预设",
    "app.ffn.single": "一个线性层 + ReLU（原教程）",
    "app.ffn.paper": "两个线性层（论文）",
    "app.scale_embeddings": "嵌入乘以 √d_model",
    "app.scale.default": "同预设",
    "app.scale.on": "是（论文）",
    "app.scale.off": "否（原教程）",
    "app.family": "模型类型",
    "app.family.transformer": "编码器-解码器（原教程的）",
    "app.family.gpt": "只有解码器（GPT 式）",
    "app.family.note": "只有解码器：源句是提示，目标句是它的续写，两者连成一段文本来读。下面的训练和翻译"
                       "是编码器-解码器的：选它才能用。",
    "app.norm": "层归一化",
    "app.norm.default": "同模型类型",
    "app.norm.post": "在相加之后（论文）",
    "app.norm.pre": "在子层之前（GPT-2）",
    "app.tie_embeddings": "共享嵌入（W_out = Eᵀ）",
    "app.tie.default": "同模型类型",
    "app.tie.on": "是（论文 §3.4）",
    "app.tie.off": "否",
    "app.seed": "随机种子",
    "app.model": "模型",
    "app.sentences": "句子",
    "app.train": "训练",
    "app.epochs": "轮",
    "app.lr": "学习率",
    "app.optimizer": "优化器",
    "app.tokenizer": "分词方式",
    "app.tokenizer.tutorial": "原教程的（按空格；去掉 . 和 ,）",
    "app.tokenizer.words": "词（按空格；标点单独成词）",
    "app.tokenizer.char": "字（每个汉字一个词元）",
    "app.tokenizer.jieba": "jieba（中文分词）",
    "app.tokenizer.bpe": "字节级 BPE，学 20 次合并（仅解码器）",
    "app.tokenizer.no_jieba": "本服务器没有安装 jieba（在 handformer 的代码目录里运行 pip install -e '.[corpus]' 即可安装），所以不能选它。",
    "app.pairs": "训练句对",
    "app.pairs_hint": "“训练”用的就是这些句对：语料的每一行在制表符处切开，没有制表符就在第一个逗号（, 或 ，）处切开。训练之前可以修改、添加或删除句对；改动语料会重新填写这个列表。",
    "app.pair_src": "源句",
    "app.pair_tgt": "目标句",
    "app.pair_add": "添加句对",
    "app.pair_remove": "删除",
    "app.pair_empty": "第 {n} 对的两边都要有词。",
    "app.pairs_none": "没有可以训练的句对。",
    "app.trained_says": "训练好的模型把源句译为：",
    "app.beside.target": "目标词",
    "app.beside.random": "随机权重",
    "app.beside.trained": "训练后（{epochs} 轮）",
    "app.beside.picked": "选出的词",
    "app.beside.loss": "−ln p(目标) 的平均",
    "app.train_button": "训练 {n} 轮",
    "app.stop": "停止",
    "app.pause": "暂停",
    "app.resume": "继续",
    "app.step_one": "走一轮",
    "app.speed": "速度（每秒轮数）",
    "app.paused": "已暂停",
    "app.upd.title": "第 {epoch} 轮的最后一次更新（第 {batch} 批）：梯度最大的那个权重",
    "app.upd.weight": "权重",
    "app.upd.theta": "θ：更新前的值",
    "app.upd.g": "g：它的梯度 ∂L/∂θ",
    "app.upd.lr": "η：学习率",
    "app.upd.m_hat": "m̂：g 的滑动平均（偏差校正后）",
    "app.upd.v_hat": "v̂：g² 的滑动平均（偏差校正后）",
    "app.upd.velocity": "v：速度 μ·v + g（μ = {mu}）",
    "app.upd.new": "θ′：更新后的值",
    "app.upd.check": "手算：",
    "app.pause_limit": "暂停超过 {s} 秒：已停止，以免一直占着训练名额（目前为止的模型保留）",
    "app.translate": "翻译",
    "app.translate_button": "翻译",
    "app.backward": "反向走一遍（一次训练步的梯度）",
    "app.pin": "固定这次运行",
    "app.unpin": "取消固定",
    "app.compare": "与固定的运行比较",
    "app.pinned": "已固定：{what}",
    "app.pinned_before": "已固定：训练前的同一个模型（它的初始权重），句子为 {what}",
    "app.identical": "两次运行的每个数字都相同。",
    "app.first_part": "两次运行从{step}开始不同：{total} 步中有 {changed} 步改变。",
    "app.step_n": "第 {n} 步 · {title}",
    "app.loss_change": "损失 L：A {a} → B {b}（Δ {delta}）",
    "app.step": "步骤",
    "app.max_diff": "最大 |Δ|",
    "app.cells": "改变的数字",
    "app.reshaped": "形状不同",
    "app.pinned_col": "固定的",
    "app.current_col": "当前的",
    "app.delta_col": "Δ（当前 − 固定）",
    "app.changed_col": "变化（固定 → 当前）",
    "app.cmp_head": "头",
    "app.words_changed": "词不同",
    "app.change_hint": "或者只改当前运行的模型：改一个权重，或训练几步：",
    "app.edit_param": "权重（参数）",
    "app.edit_index": "下标（行，列）",
    "app.edit_value": "新值",
    "app.train_steps": "训练步数（SGD，学习率 0.1）",
    "app.show_run": "逐步讲解显示：",
    "app.run_a": "A：按设置",
    "app.run_b": "B：加上这个改动",
    "app.cmp_b": "B 是",
    "app.cmp_b.changed": "当前运行（可在下面修改）",
    "app.cmp_b.trained": "训练好的模型",
    "app.computing": "计算中…",
    "app.ready": "就绪",
    "app.copy_link": "复制链接",
    "app.edit_form": "修改 ▾",
    "app.link_copied": "链接已复制",
    "app.state.running": "训练中",
    "app.state.done": "完成",
    "app.state.cancelled": "已停止",
    "app.state.failed": "失败",
    "app.progress": "第 {done} / {total} 轮，损失 {loss}",
    "app.final": "词元准确率 {acc}，整句完全正确 {exact}",
    "app.output": "输出",
    "app.no_model": "请先训练一个模型。",
    "app.network": "服务器没有回应：{error}",
    "app.contents": "目录",
    "app.error_prefix": "无法计算（引擎的英文说明）：",
    "app.corpus_file": "或者从文件读取语料：",
    "app.file_too_big": "文件 {name} 太大（{size}）；语料最多 {max} 个字符。",
    "app.file_unreadable": "无法读取文件 {name}。",
    "app.file_not_utf8": "文件 {name} 不是 UTF-8 文本；请另存为 UTF-8 后重新选择。",
    "app.err.odd_d_model": "d_model {d_model} 是奇数：位置编码按 sin/cos 成对填列，所以 d_model 必须是偶数（例如 {d_model_up}）。",
    "app.err.not_divisible": "d_model {d_model} 不能平均分给 {heads} 个头；请选能整除 d_model 的头数，或设置 d_k。",
    "app.err.unknown_src": "源句中有不在词表里的词：{words}。请在语料中加入含有这些词的句子。",
    "app.err.unknown_tgt": "目标句中有不在词表里的词：{words}。请在语料中加入含有这些词的句子。",
    "app.err.over_cap": "{name} 为 {value}，超过了本服务器允许的上限（{cap}）。",
    "app.err.too_many_weights": "这个模型会有 {value} 个参数，超过了本服务器允许的上限（{cap}）；请选更小的尺寸。",
    "app.err.too_long.words": "{name} 有 {value} 个词；最多允许 {cap} 个。",
    "app.err.too_long.characters": "{name} 有 {value} 个字符；最多允许 {cap} 个。",
    "app.err.too_long.lines": "{name} 有 {value} 行；最多允许 {cap} 行。",
    "app.err.empty": "{name}为空：请至少输入一个词。",
    "app.err.at_least": "{name}至少为 {min}（现在是 {value}）。",
    "app.preset.tutorial": "教程",
    "app.preset.small": "小型",
    "app.preset.paper": "论文",
    # 模型类型自己声明的开关（families/<name>/options.py），应用表单里的名字。
    "app.preset.llama": "llama（旋转位置、均方根归一化、SwiGLU、分组查询）",
    "app.ffn.swiglu": "SwiGLU（Llama；仅解码器）",
    "app.opt.pos": "位置",
    "app.opt.pos.sinusoidal": "正弦位置加到输入上（论文）",
    "app.opt.pos.rope": "旋转位置：转动 q 和 k（Llama）",
    "app.opt.rope_base": "旋转位置的底数",
    "app.opt.rope_pairs": "旋转配对",
    "app.opt.rope_pairs.half": "第 i 列配第 i + d_k/2 列（Hugging Face）",
    "app.opt.rope_pairs.adjacent": "第 2i 列配第 2i+1 列（RoFormer、GGUF）",
    "app.opt.norm_kind": "归一化",
    "app.opt.norm_kind.layer": "层归一化（γ、β）",
    "app.opt.norm_kind.rms": "均方根归一化（只有 γ，Llama）",
    "app.opt.kv_heads": "键值头数",
    "app.opt.default": "同预设",
    "app.speed.max": "最快",
    "app.speed.20": "每秒 20 轮",
    "app.speed.5": "每秒 5 轮",
    "app.speed.1": "每秒 1 轮",
    "app.beam.greedy": "贪心",
    "app.beam.2": "束搜索 2",
    "app.beam.3": "束搜索 3",
    "app.beam.4": "束搜索 4",
    "app.cmp_beside": "所选步骤的并排对比在它的讲解框下方：{step}",
    "app.err.no_separator": "语料第 {line} 行（“{text}”）的源句和目标句之间没有制表符或逗号：请加一个，或删掉这一行。",
    "app.err.bad_answer": "无法读取服务器的回答（HTTP {status}）；请重新加载页面，或稍后再试。",
    "app.err.offline": "无法连接服务器；`handformer serve` 还在运行吗？",
    "app.err.job_gone": "本页地址中的训练任务不在服务器上（它随先前的服务器结束了，或地址被改动过）；请重新训练。",
    "app.engine_said": "引擎的英文原文：",
    # 练习（handformer exercises，以及页面上的“自我检测”）
    "ex.title": "来自你自己这次运行的练习",
    "ex.intro": "下面每个数字都来自模型的这一次运行。请用题目给出的数字手算每一题；行、列和位置与"
                "运算记录上一样从 0 开始计数，注意力头和讲解中一样从 1 开始计数。答案在题目所给的容差内即算正确。",
    "ex.run": "这次运行：{run}。",
    "ex.question": "第 {n} 题",
    "ex.kind": "题型：{kind} · 步骤 {step} · 单元格 {cell}",
    "ex.given": "已知",
    "ex.formula": "公式",
    "ex.tolerance": "答案误差需在 ±{tol} 以内。",
    "ex.exact": "答案需完全一致。",
    "ex.blank": "你的答案",
    "ex.key": "答案",
    "ex.answer": "答案",
    "ex.ask.token_id": "单词“{word}”（它所在句子的位置 {pos}）的编号是多少？单词按在数据集中第一次"
                       "出现的顺序从 0 开始编号，先转为小写，并去掉“.”和“,”。",
    "ex.ask.token_id_window": "词元“{word}”（它所在句子的位置 {pos}）的编号是多少？题目按顺序给出"
                              "了从某个已知编号开始的词表。",
    "ex.ask.positional": "位置编码 PE({pos}, {j}) 是多少？",
    "ex.ask.input": "模型输入 X = X_tok + PE 在单元格 {cell} 的值是多少？",
    "ex.ask.residual": "残差和在单元格 {cell} 的值是多少？",
    "ex.ask.score": "注意力头 {head} 在第 {i} 行、第 {j} 列的注意力分数是多少？",
    "ex.ask.scale": "已知点积，注意力头 {head} 在第 {i} 行、第 {j} 列缩放后的注意力分数是多少？",
    "ex.ask.mask": "加掩码之后，注意力头 {head} 在第 {i} 行、第 {j} 列的分数是多少？（−∞ 请输入 -inf。）",
    "ex.ask.softmax": "注意力头 {head} 在第 {i} 行、第 {j} 列的注意力权重是多少？",
    "ex.ask.weighted_sum": "注意力头 {head} 在第 {i} 行、第 {j} 列的注意力输出是多少？",
    "ex.ask.ln_mean": "层归一化输入第 {i} 行的均值 μ 是多少？",
    "ex.ask.ln_std": "层归一化输入第 {i} 行的 σ 是多少？",
    "ex.ask.ln_norm": "层归一化在第 {i} 行、第 {j} 列的输出是多少？",
    "ex.ask.relu": "ReLU 在第 {i} 行、第 {j} 列的输出是多少？",
    "ex.ask.ffn_unit": "前馈网络在第 {i} 行、第 {j} 列的输出是多少？先做线性变换，再做 ReLU。",
    "ex.ask.logit": "位置 {t} 上“{word}”（第 {j} 列）的对数几率是多少？",
    "ex.ask.probability": "位置 {t} 上“{word}”（第 {j} 列）的概率是多少？",
    "ex.ask.loss": "损失 L（{count} 个位置的平均）是多少？",
    "ex.ask.position_loss": "位置 {t} 的目标词是“{word}”，这个位置的损失 ℓ_t 是多少？",
    "ex.ask.grad_logit": "位置 {t} 上“{word}”（第 {j} 列）的对数几率的梯度 ∂L/∂z 是多少？",
    "ex.ask.sgd_update": "做一步 SGD 之后，参数 {param} 在单元格 {cell} 的值是多少？",
    "ex.hint.token_id": "按第一次出现的顺序给单词编号：{first}。",
    "ex.hint.positional": "先求配对序号和角度：{first}。",
    "ex.hint.sum": "把这些数相加；第一个是 {first}。",
    "ex.hint.score": "两行逐项相乘再相加；第一项是 {first}；然后除以 √d_k。",
    "ex.hint.scale": "用点积除以 {first}。",
    "ex.hint.mask": "查看掩码：{first}。",
    "ex.hint.softmax": "对这一行每一项取指数，再除以它们的和；第一项是 {first}（−∞ 给出 0）。",
    "ex.hint.dot": "逐项相乘再相加；第一项是 {first}。",
    "ex.hint.ln_norm": "先减去均值，再除以 σ：先算出 {first}。",
    "ex.hint.relu": "正数保留，负数变为 0：{first}。",
    "ex.hint.loss": "对每个目标概率取 −log 再求平均；第一个是 {first}。",
    "ex.hint.position_loss": "对目标词的概率取 −log：{first}。",
    "ex.hint.grad_logit": "q 在目标词处为 1，其余为 0（有标签平滑时为 (1 − ε)·q + ε/V）：{first}。",
    "ex.hint.sgd_update": "沿梯度的反方向走一步：{first}。",
    "ex.given.dataset": "数据集",
    "ex.given.first_id": "下面第一个词的编号",
    "ex.given.words": "从这个编号开始的词表（按顺序）",
    "ex.given.pos": "位置",
    "ex.given.column": "列",
    "ex.given.d_model": "嵌入宽度",
    "ex.given.term": "和中的一项",
    "ex.given.q_row": "Q 的第 i 行",
    "ex.given.k_row": "K 的第 j 行",
    "ex.given.d_k": "查询向量的宽度",
    "ex.given.dot": "点积",
    "ex.given.score": "加掩码之前的分数",
    "ex.given.mask_row": "掩码的第 i 行（1：可见，0：被遮住）",
    "ex.given.score_row": "分数的第 i 行",
    "ex.given.a_row": "注意力权重的第 i 行",
    "ex.given.ln_row": "输入的第 i 行",
    "ex.given.mean": "这一行的均值",
    "ex.given.eps": "根号下的小量 ε",
    "ex.given.x": "输入值",
    "ex.given.std": "这一行的 σ",
    "ex.given.gamma": "第 j 列的缩放 γ",
    "ex.given.beta": "第 j 列的平移 β",
    "ex.given.pre": "ReLU 之前的值",
    "ex.given.x_row": "输入的第 i 行",
    "ex.given.w_column": "权重的第 j 列",
    "ex.given.bias": "第 j 列的偏置",
    "ex.given.y_row": "最后一层输出的第 t 行",
    "ex.given.logit_row": "logits 的第 t 行",
    "ex.given.logit": "这个对数几率",
    "ex.given.exp_sum": "这一行 e^z 的和",
    "ex.given.target_probs": "每个位置上目标词的概率",
    "ex.given.target_prob": "这个位置上目标词的概率",
    "ex.given.row_mean_log": "这个位置上整个词表的平均对数概率",
    "ex.given.smoothing": "标签平滑",
    "ex.given.mean_log": "每个位置的平均对数概率",
    "ex.given.prob": "概率",
    "ex.given.is_target": "这个词是目标词时为 1，否则为 0",
    "ex.given.positions": "位置的个数",
    "ex.given.vocab_size": "词表大小",
    "ex.given.theta": "更新之前的参数",
    "ex.given.grad": "它的梯度",
    "ex.given.lr": "学习率",
    "ex.check.title": "自我检测",
    "ex.check.button": "检查",
    "ex.check.hint": "提示",
    "ex.check.show": "显示答案",
    "ex.check.right": "正确：与答案相差在 ±{tol} 以内。",
    "ex.check.wrong": "不对：请检查你的计算，再试一次。",
    "ex.check.nan": "请输入一个数（或 -inf）。",
    "ex.where": "步骤与单元格",
    "ex.ask.gelu": "GELU 在第 {i} 行、第 {j} 列的输出是多少？",
    "ex.hint.gelu": "先为 erf 求 h/√2：{first}。",
    # 当今大模型部件的练习（RoPE、RMSNorm、SwiGLU）
    "ex.ask.rope_pair": "第 {h} 个头在位置 {i}、第 {j} 列的数经 RoPE 旋转后是多少？",
    "ex.hint.rope_pair": "它所在的一对转过角度 mθ_i：第一项是 {first}。",
    "ex.ask.rms_value": "RMSNorm 在第 {i} 行、第 {j} 列的输出是多少？",
    "ex.hint.rms_value": "先求平方的平均：{first}。",
    "ex.ask.swiglu_unit": "SwiGLU 的乘积 H 在第 {i} 行、第 {j} 列是多少？",
    "ex.hint.swiglu_unit": "SiLU(g) = g·σ(g)，其中 {first}。",
    "ex.given.rope_x": "旋转前的数",
    "ex.given.rope_partner": "同一对里的另一个数",
    "ex.given.rope_angle": "这一对在这个位置的角度",
    "ex.given.gate": "门的值 g",
    "ex.given.up": "值 u",
    "ex.check.right_exact": "正确：与答案完全一致。",
    "app.quiz": "测验",
    "app.quiz.start": "就这个模型问我 6 道题",
    "app.quiz.on": "对象",
    "app.quiz.configured": "当前设置的模型",
    "app.quiz.trained": "训练好的模型",
    "app.quiz.check": "检查",
    "app.quiz.reveal": "显示答案",
    "app.quiz.right": "正确。",
    "app.quiz.wrong": "不对：再试一次。",
    "app.quiz.score": "得分：已答 {answered} 题，答对 {right} 题（共 {asked} 题）",
    "app.quiz.answer": "答案：{answer}（相差在 ±{tol} 以内即算对）",
    "app.quiz.tolerance": "误差 ±{tol} 以内算对",
    "app.quiz.exact": "须与答案完全相同",
    "app.quiz.answer_exact": "答案：{answer}（须完全相同）",
    "app.quiz.where": "在讲解中查看：单元格 {cell}",
    "app.keys.button": "?",
    "app.keys.button_label": "快捷键",
    "app.keys.title": "快捷键",
    "app.keys.next": "下一步",
    "app.keys.prev": "上一步",
    "app.keys.help": "显示这张快捷键表",
    "app.keys.close": "关闭这张表",
    "app.keys.send": "在句子框中：立即计算（否则在停止输入时计算）",
    "app.keys.back": "浏览器的后退 / 前进：上一次 / 下一次修改",
    "app.keys.outside": "步骤快捷键在表单输入框之外有效。",
    "app.keys.close_button": "关闭",
    # --- 字节级 BPE（walk --family gpt --tokenizer bpe）：families/gpt/bpe_story.py ---
    "gpt.bpe.bytes.title": "字节级 BPE：把语料看成字节",
    "gpt.bpe.bytes.split": "这个模型的词表是用字节级 BPE（字节对编码）从语料里学出来的；GPT-2 "
                           "以及此后的大多数语言模型都用这种分词方法。先按 GPT-2 的规则切分每一"
                           "行：一串字母、一串数字或一串其他符号各成一段，并带上它前面的那一个"
                           "空格（“ you”是一段），所以任何词元都不会跨越两个词。这 {lines} 行"
                           "切出 {total} 段，其中互不相同的有 {distinct} 段。",
    "gpt.bpe.bytes.rule": "每一段变成它的 UTF-8 字节，每个字节再换成一个可打印的符号（GPT-2 的"
                          "对照表）：! … ~、¡ … ¬ 和 ® … ÿ 这些字节就用它们自己；其余 68 个"
                          "字节（控制字符、空格、删除符、不换行空格、软连字符）按字节顺序依次"
                          "借用 U+0100 起的字符。于是空格（字节 32）写作 Ġ，换行（字节 10）写"
                          "作 Ċ：以 Ġ 开头的词元，就是以空格开头。",
    "gpt.bpe.bytes.wide": "一个汉字在 UTF-8 里占 {k} 个字节：{char} = {hex} = {symbols}，是 {k} "
                          "个符号，所以在任何合并之前是 {k} 个词元。这就是字节级分词器会把一个"
                          "汉字切成好几个词元的原因：只有当语料里这个字出现得足够多、学到了相应"
                          "的合并，它的几个字节才会重新合成一个词元。",
    "gpt.bpe.bytes.wide_absent": "语料里没有汉字；如果有，像 {char} 这样的一个字在 UTF-8 里占 "
                                 "{k} 个字节：{char} = {hex} = {symbols}，是 {k} 个符号，所以在"
                                 "任何合并之前是 {k} 个词元。这就是字节级分词器会把一个汉字切"
                                 "成好几个词元的原因。",
    "gpt.bpe.bytes.words": "每一个不同的段、它出现的次数，以及它的符号：",
    "gpt.bpe.bytes.alphabet": "语料一共用到 {n} 个不同的字节符号。按字符的码位编号（与常用的 "
                              "BPE 训练器的编号顺序相同），它们就是词表的前 {n} 个编号：{alphabet}",
    "gpt.bpe.merge.title": "字节级 BPE：第 {k} 次合并（共 {n} 次），{a} + {b} → {token}",
    "gpt.bpe.merge.how": "数出每一段里每一对相邻符号，并按这一段出现的次数加权：c(a, b) 是对"
                         "所有段 w 求和，每一项是这一段的次数 f(w) 乘以 n_w(a, b)，即在这一段"
                         "里 a 后面紧跟 b 的次数。出现最多的那一对合成一个新词元，语料里它的"
                         "每一处都改写成这个新词元，然后重新计数。",
    "gpt.bpe.merge.chosen": "第 {k} 次合并之前，领先的几对列在表里：“{a} {b}”出现 {count} 次，"
                            "最多，于是它成为词元“{token}”（编号 {id}）。",
    "gpt.bpe.merge.tie": "另有 {others} 对也出现了 {count} 次。平局的处理与常用的 BPE 训练器"
                         "相同：编号较小的一对胜出，先比左边符号的编号，再比右边的（字节符号按"
                         "码位编号，合并出的词元排在它们之后，按生成的先后编号）。“{a}”的编号"
                         "是 {ida}，“{b}”是 {idb}；下一对“{c} {d}”的编号是 {idc} 和 {idd}。",
    "gpt.bpe.merge.reads": "它的 {k} 个字节按 UTF-8 读出来就是“{text}”：从这里起“{text}”是一个"
                           "词元，不再是 {k} 个。",
    "gpt.bpe.col.count": "次数",
    "gpt.bpe.col.next": "次优",
    "gpt.bpe.col.ties": "并列对数",
    "gpt.bpe.table.title": "字节级 BPE：全部 {n} 次合并",
    "gpt.bpe.table.p1": "每一行是一次合并，按学到的先后排列：这一对和它合成的词元、被选中时的"
                        "次数、排在它后面的最好一对的次数，以及另有几对次数相同（编号较小的胜"
                        "出，规则见上）。这 {n} 次合并中的前 {shown} 次在上面各占一个面板。",
    "gpt.bpe.stopped": "合并到第 {done} 次时语料里已经没有相邻的符号对了（每一段都已是一个词"
                       "元）：原本要求 {asked} 次。",
    "gpt.bpe.vocab.title": "字节级 BPE：词表",
    "gpt.bpe.vocab.p1": "词表由语料用到的 {bytes} 个字节符号、合并得到的 {merged} 个词元和 {k} "
                        "个标记 {specials} 组成：共 {V} 个词元。GPT-2 保留全部 256 个字节符号，"
                        "这样任何文本都能读；这里只保留语料里出现过的字节，好让嵌入表小到可以"
                        "手算展示，而含有语料里从未出现过的字节的文本会被拒绝，并指明是哪个字"
                        "节。",
    "gpt.bpe.vocab.made": "合并得到的词元及其编号：{tokens}",
    "gpt.bpe.text.title": "字节级 BPE：把文本切成词元",
    "gpt.bpe.text.pieces": "文本按同样的规则切成 {n} 段：{pieces}。换成字节是 {m} 个符号："
                           "{symbols}",
    "gpt.bpe.text.how": "然后像 GPT-2 那样应用合并：反复找出文本中仍然存在的、最早学到的那一"
                        "对，在整段文本里全部合并（从不跨越两段），直到再没有学到过的符号对：",
    "gpt.bpe.text.step": "  第 {rank} 次合并（{a} + {b} → {token}）：{tokens}",
    "gpt.bpe.text.more": "  ……另有 {more} 次合并。",
    "gpt.bpe.text.none": "这段文本里没有任何学到过的符号对：每个字节都各自是一个词元。",
    "gpt.bpe.encoding": "每个词元的编号就是它在词表里的位置：先是按码位排列的字节符号，再是按"
                        "生成先后排列的合并词元，最后是标记：",
    "gpt.bpe.text.done": "{m} 个字节变成了 {n} 个词元；前面加上 <start> 就是模型的输入。它们的"
                         "编号：",
    # walk --family gpt --generate N（families/gpt/generation_story.py）
    "gen.place": "生成",
    "gen.place.token": "第 {t} 个词元",
    "gen.how.greedy": "每个词元都用贪心法选出：取概率最大的那个（温度为 0；概率相同时取编号较小者），因此不抽任何随机数。",
    "gen.how.sample": "每个词元都靠抽样选出：把 logits 除以温度 T = {T}，做 softmax，保留概率最大的 {k} 个（top-k），再从中保留累计概率达到 {p} 的最少几个（top-p），重新归一化，然后每个词元从 NumPy 的 default_rng({seed}) 抽一个均匀随机数 u 来选定。",
    "gen.intro.p1": "现在由模型来写。用了 --generate，漫游的文本就只有提示“{prompt}”（不读 --tgt）：模型自己接着写最多 {n} 个词元，一次一个，每个都作为下一步的输入送回。",
    "gen.intro.cache": "在因果掩码下，一个位置只通过前面各位置的键和值来读它们，而后来的词元永远不会改变这些键和值。所以上面对提示的那一遍已经算出了之后每一步所需的一切：每一层在这 {n} 个位置上的 K 和 V，存作键值缓存。新词元于是只需算一行，而不必把整个序列重算一遍。",
    "gen.intro.rope": "用旋转位置编码时，缓存存的是旋转之后的 K：一个键的角度只取决于它自己的位置，所以它在算出时旋转一次即可。",
    "gen.intro.sinusoidal": "位置是加在输入上的（正弦编码），所以新词元的这一行在任何一层读它之前就已带上自己的位置 PE_m。",
    "gen.intro.size": "每个词元在缓存中占 2 × {layers} 层 × {kv} 个键值头 × d_k {dk} = {per} 个数。",
    "gen.intro.gqa": "分组查询注意力：{h} 个查询头共用 {kv} 个键值头，所以缓存比每个查询头各有一个键值头时（每个词元 {full} 个数）小 {saved} 倍；每个缓存的头只在计算分数时才按组重复。",
    "gen.cache.title": "对提示计算的那一遍所填好的键值缓存（第 1 层）",
    "gen.embed.title": "第 {t} 个词元：“{word}”的嵌入",
    "gen.embed.p1": "为了第 {t} 个词元，模型先读入上一步选出的“{word}”，位置为 {m}：只有一行要穿过模型。",
    "gen.embed.sinusoidal": "它在 E 中的那一行，加上位置编码 PE 的第 {m} 行：与提示各行所用的是同样两张表，只是多读一个位置。",
    "gen.embed.rope": "只取它在 E 中的那一行：用旋转位置编码时，位置 {m} 改为在注意力内部旋转它的查询和键。",
    "gen.kv.title": "第 {t} 个词元，第 {layer} 层：它的查询、键和值；缓存增加一行",
    "gen.kv.p1": "第 {layer} 层把这新的一行（“{word}”）投影为查询 q、键 k 和值 v，再把 k 和 v 作为第 {m} 行追加到缓存：缓存现在有 {n} 个位置（标出的是新的一行；其余各行早已算好，这里只是读取）。",
    "gen.kv.rope": "它的 q 和 k 按位置 {m} 的角度旋转（起点即缓存的长度），所以新的键在缓存中的样子与完整一遍所旋转的完全一样。",
    "gen.kv.plain": "这里不加位置：位置已随嵌入一起进来。",
    "gen.kv.gqa": "缓存存着 {kv} 个键值头；{h} 个查询头按组读取它们的重复。",
    "gen.attn.title": "第 {t} 个词元，第 {layer} 层：新的查询对照每个缓存的键",
    "gen.attn.p1": "每个头一行分数：新的查询对照 {n} 个缓存的键，除以 √d_k，再做 softmax。不需要掩码：每个缓存的键都属于更早的位置或本位置。",
    "gen.attn.p2": "第 1 个头最关注“{word}”（权重 {a}）。",
    "gen.attn.p3": "这些权重把缓存的值混合成 z，每个头一行；各头拼接后乘以 W_O，然后残差相加、归一化和前馈网络都只作用于这一行，就像它们对提示的每一行所做的那样。",
    "gen.logits.title": "第 {t} 个词元：下一个词元的 logits",
    "gen.logits.p1": "最后一行经过输出层：{V} 个词元各得一个对数几率，即模型认为“{word}”之后该接什么。",
    "gen.scaled.title": "第 {t} 个词元：logits 除以 T，再做 softmax",
    "gen.scaled.from": "第 {t} 个词元的 logits 是 {name} 的最后一行。",
    "gen.scaled.greedy": "温度为 0 即贪心：这里显示 softmax 后的 p，最大者胜出。",
    "gen.scaled.p1": "除以温度 T = {T}，再经过 softmax：得到 p。",
    "gen.scaled.why": "T 小于 1 会拉大各对数几率之间的差距（可能的词元更可能）；大于 1 会缩小差距（选择更平均）。它作用在 logits 上，在 softmax 之前。",
    "gen.sort.title": "第 {t} 个词元：排序、累加、截断",
    "gen.sort.p1": "把概率从大到小排序（相等时编号较小的词元在前），每个下面是到它为止的累计和 c。",
    "gen.sort.greedy": "贪心法只保留第一个：“{word}”（p = {p}）。",
    "gen.sort.k": "top-k 保留前 {k} 个：剩下 {kept} 个词元。",
    "gen.sort.p": "top-p 保留累计和达到 {p} 的最少几个：累计和在“{word}”处首次达到（c = {cum}），它也被保留，于是剩下 {kept} 个词元（已标出）。",
    "gen.sort.p_short": "top-p 本应保留累计和达到 {p} 的最少几个，但保留下来的加起来只有 {cum}：这 {kept} 个全部留下。",
    "gen.row.sorted": "排序后的 p",
    "gen.row.cumulative": "累计和 c",
    "gen.row.q": "q（重新归一化）",
    "gen.row.q_cumulative": "q 的累计和",
    "gen.draw.title": "第 {t} 个词元：抽样选中“{word}”",
    "gen.draw.greedy": "不抽样：选中的就是概率最大的“{word}”。",
    "gen.draw.p1": "把保留的 {kept} 个概率除以它们的和，使它们重新加起来等于 1：得到 q。",
    "gen.draw.u": "从 default_rng({seed}) 抽一个均匀随机数，这是第 {t} 次抽取（每个词元一次，依次进行）：u = {u}。",
    "gen.draw.pick": "选中的是 q 的累计和第一个超过 u 的词元：“{word}”（{c} > {u}）。",
    "gen.draw.end": "它是 <end>：文本结束，生成到此为止。",
    "gen.check.title": "缓存与对整个序列重算一遍的对照",
    "gen.check.p1": "把同样的 {n} 个位置不用缓存、按普通方式重算一遍，并把每个对数几率与上面算出的逐一比较（提示各行来自对提示的那一遍，之后每一行来自用缓存的那一步）。",
    "gen.check.p2": "最大的差是 {diff}：缓存只改变了少数浮点求和的顺序（舍入误差，约 1e-16），别的什么也没改变。",
    "gen.result.title": "写出的文本",
    "gen.result.p1": "“{prompt}” → “{out}”（写了 {k} 个词元）。",
    "gen.result.end": "模型选了 <end>，于是停下。",
    "gen.result.same": "用同一个模型、同一个提示和同样的开关，`handformer generate` 写出的词元与此相同。",
    # --- issue 48 (smol): SmolLM2-135M walked by hand (families/gpt/smollm2_story.py) ---
    "smol.overview.title": "SmolLM2-135M：一个真实的大语言模型，每个数都算出来",
    "smol.overview.p1": "SmolLM2-135M-Instruct（Hugging Face，2024）是 Llama 式的解码器：{layers} 个块，宽度 {d}，{h} 个查询头共用 {kv} 个键/值头，d_k = {dk}；SwiGLU 前馈网络宽 {dff}；RoPE 的底数为 {base}；RMSNorm 的 ε = {eps}；字节级 BPE 词表有 {V} 个词元，其嵌入表同时也是输出层（权重共享）。",
    "smol.overview.quant": "权重来自 {file}：4 位量化（Q4_1；嵌入表为 8 位，Q8_0），在这里一次性反量化为 {dtype}。这些不是原始的 bfloat16 权重：每个数都被取整到它所在的 32 个数一块中的 16 个等级之一，所以这次演算精确地计算的是量化后的模型，而不是原模型。",
    "smol.overview.text": "文本“{text}”共 {n} 个词元；模型一次读入全部词元，在每个位置预测它后面的词元；最后一个位置的预测就是下一个词。",
    "smol.overview.blocks": "完整展示：{layers} 个块中的{shown}（块从 0 编号，与 --blocks-shown 相同；结构图和各步标题从 1 数层）；其余每块一行：它对最后一个词元的残差流做了什么（范数），以及如果模型在那里停下会猜哪个词（logit 透镜）。",
    "smol.overview.block": "第 {b} 块（解码器第 {l} 层）",
    "smol.overview.block.many": "第 {bs} 块（解码器第 {ls} 层）",
    "smol.arch.elided": "第 {a}–{b} 层",
    "smol.arch.elided.detail": "每块一行",
    "smol.tokens.title": "文本变成词元：用模型自己的合并规则",
    "smol.tokens.p1": "GPT-2 的切分把文本切成任何合并都不会跨越的片段（{pieces}）；每个片段变成它的 UTF-8 字节，每个字节一个符号（空格是 Ġ）：共 {symbols} 个符号。",
    "smol.tokens.p2": "然后按模型合并表（共 {merges} 条，按学到的先后排列）进行合并：每一步合并出现的、最早学到的那一对。在这段文本上共有 {k} 次合并：",
    "smol.tokens.rank": "（合并表第 {rank} 条）",
    "smol.tokens.p3": "这 {n} 个词元各自在 {V} 个词元的词表中查到编号，得到下面的 ids。没有 <start> 词元：SmolLM2 的文件不加它。",
    "smol.elided.title": "第 {first}–{last} 块（解码器第 {a}–{b} 层），每块一行",
    "smol.elided.p1": "第 {first} 到第 {last} 块的计算与完整展示的那一块完全相同（每一步都算了、也核对了，只是不展示）。对最后一个词元“{word}”，每块之后列出：它的残差流的范数 ‖x‖，以及最终 RMSNorm 和共享的输出层在那里会选出的词元（logit 透镜）。",
    "smol.elided.line": "  第 {block} 块：‖x‖ = {norm}，猜“{guess}”（p = {p}）",
    "smol.elided.p2": "残差流一块接一块地变大：每一块都把它的注意力输出和前馈输出加到残差流上。第 {last} 块的输出继续往下传。",
    "smol.next.title": "下一个词元：经共享的嵌入表得到 logits，再做 softmax",
    "smol.next.p1": "最终 RMSNorm 的最后一行（宽 {d}）乘以 Eᵀ，为 {V} 个词元各得到一个 logit；softmax 把它们变成“{word}”之后那个词元的概率。最可能的十个：",
    "smol.next.line": "  {rank}. “{word}”（编号 {id}）：logit {z}，p = {p}",
    "smol.next.line.text": "  {rank}. “{word}”（编号 {id}，即文字“{text}”）：logit {z}，p = {p}",
    "smol.next.p2": "最可能的下一个词元是“{word}”，p = {p}。",
    "smol.quant.title": "4 位权重：亲手反量化一个块",
    "smol.quant.p1": "GGUF 把每一行权重按 32 个数一块存放。Q4_1 每块存一个比例 d 和一个最小值 m（各为 float16），以及 32 个 0 到 15 的 4 位整数 q：w = d·q + m，32 个权重占 20 字节。Q8_0 每块存一个比例 d 和 32 个有符号字节 q：w = d·q，占 34 字节。文件中每种量化的第一个块：",
    "smol.quant.q4_1": "Q4_1，{tensor}：字节 {hex}…；d = {d}，m = {m}（{bytes} 字节；第 i 个字节的低 4 位是 q_i，高 4 位是 q_(i+16)）。",
    "smol.quant.q8_0": "Q8_0，{tensor}：字节 {hex}…；d = {d}（{bytes} 字节；每个 q 是一个有符号字节）。",
    "smol.quant.worked": "  所以第一个权重是 d·q + m = {d} × {q} + {m} = {w}。",
    "smol.quant.worked8": "  所以第一个权重是 d·q = {d} × {q} = {w}。",
    "smol.quant.p2": "这次演算的每个权重都这样反量化过一次，存为 {dtype}（测试中与 gguf 包自己的反量化逐一核对过）。",
    "smol.check.p2.float32": "最大的差是 {diff}：缓存只改变了少数求和的顺序，而这些 float32 权重的舍入约为每个数的 1e-7（float64，即 --dtype float64，舍入约为 1e-16）。",
    "smol.recap.p1": "磁带上保留了 {steps} 步。模型的下一个词元：“{word}”（p = {p}）。",
    "smol.recap.p2": "把同样的权重放进 transformers 的 LlamaForCausalLM（float64），每一块的隐藏状态和这些 logits 都与这里一致，相对误差不超过 1e-9（tests/families/gpt/test_smollm2_forward.py）。",
    # lesson (issue 46): the lesson with nothing hidden
    "grad.share.sum": "和 {use} 把自己的梯度复制给每个加数，{v}",
    "grad.uses.sum": "{sym} 被 {k} 个步骤读过，所以它的梯度是每处传回来的梯度之和：每处用法一项。",
    "pattern.random.shape": "请把这个注意力模式当成算术来看，而不是含义：权重是随机的，所以它的形状全凭运气。{shape}"
                            "随机权重可以混合 V 的各行，却不能选择什么是相关的：这种选择正是训练放进 W^Q 和 W^K 的东西。",
    "pattern.trained.shape": "这些权重经过训练，所以这个模式是训练把分数变成的样子。{shape}"
                             "它偏向有助于预测训练文本的东西；这么小的模型只用几句话训练，不必像读者那样分配注意力。",
    "pattern.shape.start": "这里 {n} 行中有 {k} 行把最大的权重给了“{word}”，也就是第一个位置，每个词都看得到它。",
    "pattern.shape.pile": "这里 {n} 行中有 {k} 行把最大的权重给了同一个词“{word}”。",
    "pattern.shape.diagonal": "这里 {n} 行中有 {k} 行把最大的权重给了自己这个词：模式沿着对角线分布。",
    "pattern.shape.previous": "这里 {n} 行中有 {k} 行把最大的权重给了紧挨在前面的那个词。",
    "pattern.shape.spread": "这里的权重很分散：每行最大的权重平均只有 {top}（在每行看得到的词上平均分配时是 {even}）。",
    "pattern.shape.mixed": "这里各行挑中的词各不相同：每行最大的权重平均是 {top}。",
    "pred.checkpoint.steps": "这些权重来自 {path}，用 Adam 训练了 {epochs} 步（每一步读全部文本行）。"
                             "训练之前，同一个模型（它的初始权重）在“{tok}”之后给“{want}”的概率是 {before}；训练之后是 {after}。",
    "grad.weight.cell": "权重的梯度 ∂L/∂{w} = {x}ᵀ·∂L/∂{y}，算其中一个格子（第“{row}”行，第“{col}”列）："
                        "{x} 的第“{row}”列乘以 ∂L/∂{y} 的第“{ycol}”列，{k} 个乘积相加：{terms} = {v}。"
                        "反向传播最后的更新会让这个权重移动 −η 乘以它。",
    "why.grad.sum": "为什么加法把梯度原封不动地复制给两个输入：在 R = X + F 中，把 X 挪动一个很小的 ε，"
                    "无论 F 是什么，R 都恰好挪动 ε，所以 ∂R/∂X = 1，梯度从 R 出来是多少，到每个输入就是多少。"
                    "梯度并没有被分掉：两个输入各得到全部。",
    "why.grad.residual": "为什么残差通路能让梯度保持活力：这条主干上的梯度是复制过来的 ∂L/∂R，"
                         "再加上子层传回来的部分。即使子层自己的通路把梯度缩小了（softmax 饱和、ReLU 关闭、"
                         "权重很小），复制过来的那一项仍然完整地到达下面的层；没有它，很深的网络前面几层几乎学不到东西。",
    "why.grad.softmax": "为什么是 A ⊙ (G − rowsum(G ⊙ A))：每个权重 a_j = e^(s_j) / Σ_k e^(s_k) "
                        "都依赖于这一行的每个分数，∂a_j/∂s_i = a_j·(δ_ij − a_i)。把 g_j·∂a_j/∂s_i 对 j 求和，"
                        "得到 a_i·(g_i − Σ_j a_j·g_j)：调高一个分数会提高它自己的权重，并从其他权重那里拿走同样多，"
                        "所以要紧的只是 g_i 比这一行 g 的加权平均高出多少。",
    "why.grad.norm": "为什么层归一化的反向传播要减去两个均值：整行平移（均值被减掉）或整行拉伸（被 σ 除掉）"
                     "都不会改变它的输出。所以 ĝ 中只会平移这一行的部分（它的均值）和只会拉伸这一行的部分"
                     "（它与 x̂ 的乘积的均值）都被去掉，剩下的再除以 √(σ²+ε)。",
    "why.grad.tied": "为什么共享的嵌入表的梯度是一个和：E 在不止一个地方被用到。改动它的一个数，"
                     "会通过每一处用法影响损失，链式法则把这些影响加起来，和一个被两个步骤读过的值完全一样。",
    # lesson (issue 46): the glossary's further terms
    "gloss.gradient.term": "梯度 ∂L/∂X",
    "gloss.gradient.match": "梯度",
    "gloss.gradient.def": "把 X 的每个数轻轻推一下，损失 L 会变化多少：X 的每个数各有一个，形状和 X 相同。它的正负号说明 X 往哪边挪能让 L 变小。",
    "gloss.chain_rule.term": "链式法则",
    "gloss.chain_rule.match": "链式法则",
    "gloss.chain_rule.def": "梯度穿过一个步骤往回传的规则：∂L/∂X 等于 ∂L/∂Y 乘以 Y 随 X 的变化。从损失一步步往回用到输入，就得到运算记录上的每一个梯度。",
    "gloss.backward.term": "反向传播",
    "gloss.backward.match": "反向传播|反向",
    "gloss.backward.def": "沿着运算记录从损失倒着走回输入的第二遍计算：用链式法则算出每一步和每个权重的梯度。",
    "gloss.loss.term": "损失（交叉熵）",
    "gloss.loss.match": "交叉熵|损失",
    "gloss.loss.def": "训练要把它变小的那个数：各位置 −log p(正确的词) 的平均值。等于 0 就表示每个正确的词都拿到了概率 1。",
    "gloss.learning_rate.term": "学习率 η",
    "gloss.learning_rate.match": "学习率",
    "gloss.learning_rate.def": "一次更新迈多大的步：每个权重移动 −η 乘以它的梯度。",
    "gloss.update.term": "更新（梯度下降）",
    "gloss.update.match": "更新|梯度下降",
    "gloss.update.def": "θ ← θ − η·∂L/∂θ：每个权重都朝梯度的反方向挪一点；只要 η 够小，这句话的损失就会降低。",
    "gloss.adam.term": "Adam",
    "gloss.adam.match": "Adam",
    "gloss.adam.def": "一种优化器：用梯度及其平方的滑动平均来调整每个权重的步长，让每个权重都以合适的速度移动；handformer 训练模型时用的就是它。",
    "gloss.epoch.term": "轮",
    "gloss.epoch.match": "轮次",
    "gloss.epoch.def": "训练时把数据集里的每个样本都过一遍，叫作一轮。",
    "gloss.mask.term": "因果掩码",
    "gloss.mask.match": "掩码",
    "gloss.mask.def": "给一个词不能读的位置（它后面的词）的分数加上 −∞，softmax 就给它们权重 0，它们的梯度也是 0。",
    "gloss.scores.term": "注意力分数 S",
    "gloss.scores.match": "分数",
    "gloss.scores.def": "Q·Kᵀ/√d_k：每个查询和每个键有多匹配，每个查询一行；softmax 把每一行变成注意力权重。",
    "gloss.attention_weights.term": "注意力权重 A",
    "gloss.attention_weights.match": "注意力权重|注意力模式",
    "gloss.attention_weights.def": "对分数逐行做 softmax 的结果：每个词的输出从每一行值里取多少。每一行都是正数，加起来等于 1。",
    "gloss.head.term": "注意力头",
    "gloss.head.match": "注意力头|个头",
    "gloss.head.def": "并排运行的 h 个注意力之一，各有自己宽 d_k 的 W^Q、W^K、W^V；它们的输出拼起来再乘以 W^O。",
    "gloss.self_attention.term": "自注意力",
    "gloss.self_attention.match": "自注意力",
    "gloss.self_attention.def": "查询、键和值都来自同一个序列的注意力：每个词读自己这句话里的其他词。",
    "gloss.cross_attention.term": "交叉注意力",
    "gloss.cross_attention.match": "交叉注意力",
    "gloss.cross_attention.def": "解码器里的一种注意力：查询来自目标句，键和值来自记忆 M；译文就是在这里读原文。",
    "gloss.ffn.term": "前馈网络",
    "gloss.ffn.match": "前馈网络|前馈",
    "gloss.ffn.def": "两层线性层中间夹一个非线性函数（这里是 ReLU），对每个位置单独作用：层里只变换每个词的向量、不混合词的那一部分。",
    "gloss.relu.term": "ReLU",
    "gloss.relu.match": "ReLU",
    "gloss.relu.def": "max(0, x)：负数变成 0。反向时，x 为正的地方梯度照常通过，其余地方被挡住。",
    "gloss.vocabulary.term": "词表",
    "gloss.vocabulary.match": "词表",
    "gloss.vocabulary.def": "模型认识的全部词元，每个都有一个编号；输出层给词表里的每个词元一个对数几率。",
    "gloss.token.term": "词元",
    "gloss.token.match": "词元",
    "gloss.token.def": "文本被切成的单位（一个词、词的一部分或一个字），按它的编号查表。",
    "gloss.weight.term": "权重（参数）",
    "gloss.weight.match": "权重|参数",
    "gloss.weight.def": "模型学出来的那些数（E、W^Q、W^K、W^V、W^O、W₁、γ、β 等）：训练只改变它们。",
    "gloss.jacobian.term": "雅可比矩阵",
    "gloss.jacobian.match": "雅可比",
    "gloss.jacobian.def": "一个步骤的每个输出对每个输入的导数排成的表；梯度往回传时就是 ∂L/∂Y 乘以它。对 softmax 的一行，它是以 a 为对角线的对角矩阵减去 a·aᵀ。",
    "ex.ask.grad_softmax": "反向穿过 softmax：第 {head} 个头在第 {i} 行、第 {j} 列的 ∂L/∂S 是多少？",
    "ex.ask.grad_norm": "反向穿过层归一化：它的输入在第 {i} 行、第 {j} 列的 ∂L/∂x 是多少？",
    "ex.ask.grad_weight": "权重的梯度 ∂L/∂W 在第 {r} 行、第 {c} 列是多少？",
    "ex.hint.grad_softmax": "先算这一行 ∂L/∂A 的加权平均：{first}；再算 A_ij × (∂L/∂A_ij − 它)。",
    "ex.hint.grad_norm": "先算 x̂ = (x − μ)/σ 和 ĝ = γ ⊙ ∂L/∂Y，再算它们的均值：{first}。",
    "ex.given.grad_a_row": "∂L/∂A 的第 i 行，即注意力权重的梯度",
    "ex.given.gamma_row": "缩放 γ（每列一个）",
    "ex.given.grad_y_row": "∂L/∂Y 的第 i 行，即层归一化输出的梯度",
    "ex.given.x_column": "这一层输入 X 的第 r 列（每个位置一个数）",
    "ex.given.grad_y_column": "∂L/∂Y 的第 c 列，即这一层输出的梯度",
    "ex.given.v_column_c": "V 的第 c 列（c 就是所问的那一列）",
    "ex.kind.panel.cell": "题型：{kind} · 讲解的第 {panel} 步 · 第“{row}”行，第“{col}”列",
    "ex.kind.panel": "题型：{kind} · 讲解的第 {panel} 步",
    "ex.ask.sgd_update.placed": "做一步 SGD 之后，第 {panel} 步更新的参数在第“{row}”行、第“{col}”列是多少？",
    "ex.ask.sgd_update.placed.vector": "做一步 SGD 之后，第 {panel} 步更新的参数在“{col}”处是多少？",
    "ex.ask.grad_weight.placed": "第 {panel} 步画出的权重梯度 ∂L/∂W 在第“{row}”行、第“{col}”列是多少？",
    "grad.share.times": "经过乘积 {use}，乘以另一个因子：{g} × {o} = {v}",
    "grad.share.silu": "经过 SiLU，乘以它在 x = {x} 处的斜率 σ(x)·(1 + x·(1 − σ(x)))：{g} × {d} = {v}",
    "grad.share.heads": "来自共用这个键/值头的 {k} 个查询头（{use}），相加：{terms} = {v}",
    "grad.share.rms": "经过 RMSNorm {use}，(ĝ − x̂·(ĝ⊙x̂) 的均值) / RMS(x)，其中 ĝ = γ ⊙ ∂L/∂Y，"
                      "x̂ = x / RMS(x)：({gh} − {xh}·{mgx}) / {rms} = {v}",
    "grad.share.rope": "经 RoPE（{use}）转回去，这一对的角度 mθ = {ang}：{g}·cos {ang} {pm} {gp}·sin {ang} = {v}",
    "name.input.lookup": "输入（查嵌入表得到）",
    # issue 44 (app): the next-token control of a family that generates
    "app.sample": "下一个词元",
    "app.sample.on": "在文本之后写出下一个词元",
    "app.sample.temperature": "温度 T（0：贪心）",
    "app.sample.top_k": "top-k（留空：全部词元）",
    "app.sample.top_p": "top-p（1：不截断）",
    "app.sample.hint": "每次改动都会重写演练末尾的抽样面板：p = softmax(logits / T)，排序、截断、重新归一化、抽样。",
    "app.walk_trained": "演练训练后的模型",
    # --- bert-beside（issue 46）：walk --pretrained … --beside-trained ---
    "bert.beside.title": "预训练权重与随机权重并排",
    "bert.beside.how": "上面所有步骤用的都是 {model} 的预训练权重（θ）。旁边是同一个结构配上随机的"
                       "初始权重（θ₀），按新建 BertModel 的方式抽取：每个权重矩阵和嵌入表都取自 "
                       "N(0, {std}²)（numpy 的随机数生成器，种子 {seed}），偏置为 0，层归一化的 "
                       "γ = 1、β = 0；同一个句子分别经过两套权重。",
    "bert.beside.layer": "第 {layer} 层第 1 个头。预训练：{trained}（每行最大的权重平均为 {mt}）。"
                         "随机：{random}（{mr}；完全均匀分布时是 1/{n} = {u}）。",
    "bert.beside.kind.spread": "几乎均匀地分散在所有词元上",
    "bert.beside.kind.special": "堆在 [CLS] 或 [SEP] 上，当作停靠处",
    "bert.beside.kind.prev": "落在前一个词元上",
    "bert.beside.kind.next": "落在后一个词元上",
    "bert.beside.kind.self": "落在词元自己身上（对角线）",
    "bert.beside.kind.mixed": "落在少数几个词元上，每行各不相同",
    "bert.beside.why_even": "为什么随机注意力是均匀的：权重只有大约 {std} 这么大，每个分数 "
                            "q·k/√d_k 都接近 0，而几乎相等的分数经过 softmax 后，每个词元都分到"
                            "差不多 1/n。是训练让某些分数突显出来。",
    "bert.beside.moved.less": "句向量 e：预训练的各层把它带得离嵌入层输出 H⁽⁰⁾ 的均值很远"
                              "（两者的余弦为 {pt}）；随机的各层移动得少（{pr}）：权重只有 0.02 左右，"
                              "每个子层只往残差通路上加一个很小的向量，所以 e 离输入嵌入的均值更近。",
    "bert.beside.moved.more": "句向量 e：随机的各层把它从嵌入层输出 H⁽⁰⁾ 的均值移得更远"
                              "（两者的余弦为 {pr}），比预训练的各层（{pt}）还远。",
    "bert.beside.apart": "两个句向量互不相关：它们的余弦为 {c}（两者长度都是 1；下面画出了 {d} 个"
                         "数中的前 {k} 个）。只有预训练的句向量会让意思相近的句子彼此靠近。",
    "bert.beside.related": "两个句向量方向相近：它们的余弦为 {c}（两者长度都是 1；下面画出了 {d} 个"
                           "数中的前 {k} 个），不过只有预训练的句向量是经过训练、让意思相近的句子"
                           "彼此靠近的。",
    # mt (issue 49): the --dataset recipe's model, the time budget, the best checkpoint's test line
    "train.shape": "d_model {d_model}，{layers} 层，{heads} 个头，d_ff {d_ff}",
    "train.recipe_shape": "{shape}：--dataset 的默认模型，即 docs/translator.md 的配方",
    "train.budget_start": "时间预算 {minutes:g} 分钟：预热学习率在预算估计能跑完的那一步降到 0"
                          "（先计时 {steps} 步后估计，之后每轮再估计一次）",
    "train.budget_end": "{minutes:g} 分钟的时间预算用完，训练在第 {epoch} 轮结束"
                        "（第 {step} 步之后；拟合的学习率计划在第 {total} 步结束）",
    "train.schedule_end": "拟合的学习率计划已到最后一步（{total}）：训练在第 {epoch} 轮结束",
    "train.test_best": "最佳检查点 {path}（第 {epoch} 轮）在测试集上：",
    # --- cfg (issue 42): shared narration's keys name no family ---
    # the overview's map: a pre-norm layer's own layer norm, before its sublayer
    "arch.pre_norm": "层归一化 {k}",
    # --- issue 48 item 6: SmolLM2-135M in the web app (app) ---
    "app.pretrained.option": "{name}（预训练）",
    "app.pretrained.option_missing": "{name}（未安装）",
    "app.pretrained.missing": "要逐步演算真实的预训练模型：{line}",
    "app.pretrained.prompt": "提示",
    "app.pretrained.blocks": "完整展示的块",
    "app.pretrained.blocks_hint": "块的编号从 0 到 {last}，用逗号分隔；其余每块只占一行（它的 logit 透镜）。"
                                  "展开的块在这里计算，面板在滚动到时才发送。",
    "app.pretrained.loading": "正在加载 {name}（4 位量化权重，本服务器只反量化一次）：已 {s} 秒，"
                              "通常约需 {expected} 秒",
    "app.pretrained.loading_short": "正在加载 {name}…… {s} 秒",
    "app.pretrained.open": "完整展开一个块：",
    "app.pretrained.close": "收起这一块（回到一行）",
    "app.pretrained.open_one": "完整展示第 {n} 块",
    "app.pretrained.walked": "{n} 个词元；完整展示的块：{shown}（共 0 到 {last}）",
}
