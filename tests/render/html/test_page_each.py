"""page.each and page.each_text (Python functions the templates call) draw what the template
loops they replaced drew: a span per language, escaped, with the page's line breaks."""

from handformer.render.html import page

LOOP_KEY = ('{% for l in langs %}<span class="l-{{ l }}" lang="{{ tags[l] }}">'
            '{{ tables[l][key].format(**values)|wbr }}</span>{% endfor %}')
LOOP_TEXT = ('{% for l in langs %}<span class="l-{{ l }}{{ " " ~ extra if extra }}" '
             'lang="{{ tags[l] }}">{{ texts[l]|wbr }}</span>{% endfor %}')


def _context(langs):
    text = page.page_text(langs, langs[0])
    return {"langs": text["langs"], "tables": text["tables"], "tags": text["tags"]}


def test_each_draws_what_the_loop_drew():
    env = page.environment()
    for langs in (["en", "zh"], ["zh"], ["en"]):
        context = _context(langs)
        for key, values in [("page.contents", {}), ("page.from", {"step": 7}),
                            ("page.hidden", {"rows": 3, "cols": 12}),
                            ("page.foot", {"precision": 3})]:
            want = env.from_string(LOOP_KEY).render(key=key, values=values, **context)
            got = env.from_string("{{ each(key, **values) }}").render(key=key, values=values,
                                                                       **context)
            assert got == want


def test_each_text_draws_what_the_loop_drew():
    env = page.environment()
    context = _context(["en", "zh"])
    for texts in [{"en": "Scores <i> & \"quotes\"", "zh": "注意力分数 = 0.25 第 1 层"},
                  {"en": "", "zh": ""}, {"en": "p = 0.130", "zh": "共 25 个词元"}]:
        for extra in ("", "title", "head-note"):
            want = env.from_string(LOOP_TEXT).render(texts=texts, extra=extra, **context)
            got = env.from_string("{{ each_text(texts, extra) }}").render(
                texts=texts, extra=extra, **context)
            assert got == want
