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


OLD_STEP_LINK = ('{% macro old(id) %}{% if id in index %}<a href="#{{ index[id].anchor }}">'
                 '<span class="num">{{ index[id].seq }}</span> {{ each_text(index[id].title) }}'
                 '</a>{% endif %}{% endmacro %}')


def test_step_link_draws_what_the_macro_drew():
    """page.step_link (a function the template calls) draws what its macro drew: a panel's
    link with its number and its title in each language, escaped; nothing for an id the page
    does not hold."""
    env = page.environment()
    context = _context(["en", "zh"])
    index = {"a.b": {"anchor": "s-a.b", "seq": 7, "title": {"en": "Scores <i> & \"q\"",
                                                                "zh": "注意力分数 第 1 层"}},
             "x<y": {"anchor": "s-x<y", "seq": 12, "title": {"en": "", "zh": ""}}}
    for step_id in ("a.b", "x<y", "missing"):
        want = env.from_string(OLD_STEP_LINK + "{{ old(i) }}").render(
            i=step_id, index=index, **context)
        got = env.from_string("{{ step_link(i) }}").render(i=step_id, index=index, **context)
        assert got == want


def test_the_filters_draw_what_the_globals_draw():
    """The templates call the helpers as filters (called directly by jinja2); other
    templates may call them as globals: both give the same markup."""
    env = page.environment()
    context = _context(["en", "zh"])
    index = {"a.b": {"anchor": "s-a.b", "seq": 3, "title": {"en": "Q <K>", "zh": "查询"}}}
    texts = {"en": "Scores <i> & the residual", "zh": "注意力分数 第 1 层"}
    pairs = [("{{ each(key, **values) }}", "{{ key|each(**values) }}"),
             ("{{ each_text(texts) }}", "{{ texts|each_text }}"),
             ("{{ each_text(texts, 'title') }}", "{{ texts|each_text('title') }}"),
             ("{{ step_link('a.b') }}{{ step_link('c') }}",
              "{{ 'a.b'|step_link }}{{ 'c'|step_link }}"),
             ("{% for p in glossed(paras, 'en', with_breaks) %}{{ p }}{% endfor %}",
              "{% for p in paras|glossed('en', with_breaks) %}{{ p }}{% endfor %}")]
    values = dict(key="page.hidden", values={"rows": 2, "cols": 5}, texts=texts, index=index,
                  paras=["The residual adds x <b>.", "Then softmax & the residual."], **context)
    for as_global, as_filter in pairs:
        for loop in ("{}", "{{% for l in langs %}}{}{{% endfor %}}"):  # in a loop too
            want = env.from_string(loop.format(as_global)).render(**values)
            assert want and env.from_string(loop.format(as_filter)).render(**values) == want
