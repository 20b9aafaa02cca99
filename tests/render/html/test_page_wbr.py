"""page.with_breaks takes shortcuts (one piece: escaped whole; no reserved character: joined
as it is); each must give what escaping every piece and joining them with <wbr> gives."""

from markupsafe import Markup

from handformer.render.common import breaks
from handformer.render.html import page


def test_with_breaks_is_the_pieces_escaped_and_joined():
    texts = ["", "plain", "a < b & \"c\"", "p = 0.130", "注意力分数", "注意力分数 <b> & 词元",
             "共 25 个词元，第 1 层", "x\u00a0=\u00a0y", "'quoted' 残差连接"]
    for text in texts:
        slow = Markup("<wbr>").join(breaks.pieces(breaks.glue(text)))
        assert page.with_breaks(text) == slow, text
        assert isinstance(page.with_breaks(text), Markup)
