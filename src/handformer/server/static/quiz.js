/* The quiz: questions on the configured model, or on the model trained in the page (when one
   exists, the select offers it), each answer checked by the server
   (POST /api/quiz/answer), the session's running score shown as it changes. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$;

  function node(tag, cls, text) {
    var el = document.createElement(tag);
    if (cls) { el.className = cls; }
    if (text !== undefined) { el.textContent = text; }
    return el;
  }

  /* A number at 4 significant digits (0.4761669632169956 → 0.4762); "-inf" and other text as is. */
  function short(x) {
    return typeof x === "number" && isFinite(x) ? String(Number(x.toPrecision(4))) : String(x);
  }

  /* The panel a question is about, and its matrix: a head's 3-D cell [h, i, j] (scores, masked,
     pattern, z, …) is in head h's panel when there is one. */
  function target(q) {
    var step = q.step, cell = q.cell || [], per = /^(.*)\.([^.]+)$/.exec(step);
    var head = per && cell.length === 3 ? per[1] + ".head." + cell[0] + "." + per[2] : null;
    var id = head && panelOf(head) ? head : step;
    var panel = panelOf(id);
    var fig = figure(panel || document, id) || figure(panel || document, step);
    return {panel: panel || (fig && fig.closest("section.panel")), fig: fig};
  }

  function panelOf(id) {
    return document.querySelector('#panels section.panel[data-id="' + CSS.escape(id) + '"]');
  }

  /* The matrix drawn for step ``name`` (or one of its parts, "name.stats"), in ``where``. */
  function figure(where, name) {
    return where.querySelector('#panels figure.mx[data-name="' + CSS.escape(name) + '"]') ||
      where.querySelector('#panels figure.mx[data-name^="' + CSS.escape(name + ".") + '"]');
  }

  /* Bring the question's panel to the top and light its cell (row i, column j) when it is drawn;
     lit again when the panel is brought up to date as it comes near (near.js puts a new one in). */
  var shown = null;
  function show(q) {
    var at = target(q);
    if (!at.panel) { return; }
    HF.toTop(at.panel);
    shown = q;
    light(q, at);
  }

  function light(q, at) {
    var cell = q.cell || [];
    document.querySelectorAll("#panels td.quiz-cell").forEach(function (td) { td.classList.remove("quiz-cell"); });
    if (!at.fig || cell.length < 2) { return; }
    var i = cell[cell.length - 2], j = cell[cell.length - 1];
    var tr = at.fig.querySelector('tbody tr[data-i="' + i + '"]');
    var th = at.fig.querySelector('thead th[data-j="' + j + '"]');
    var td = tr && th ? tr.cells[th.cellIndex] : null;
    if (td) { td.classList.add("quiz-cell"); }
  }

  document.addEventListener("hf:fresh", function (e) {
    if (!shown) { return; }
    var at = target(shown);
    if (at.panel && e.detail.panels.indexOf(at.panel) >= 0) { light(shown, at); }
  });

  function showScore(score) {
    $("quiz-score").textContent = HF.t("quiz.score", score);
  }

  function question(q) {
    var box = node("div", "quiz-q"), input = node("input"), check = node("button", "", HF.t("quiz.check"));
    var reveal = node("button", "", HF.t("quiz.reveal")), result = node("p", "quiz-result");
    box.setAttribute("data-id", q.id);
    box.setAttribute("data-where", JSON.stringify([q.step, q.field, q.cell]));
    box.setAttribute("data-tolerance", String(q.tolerance));
    box.appendChild(node("p", "quiz-ask", q.n + ". " + q.question));
    var given = node("ul", "quiz-given");
    q.given.forEach(function (g) {
      given.appendChild(node("li", "", g.name + (g.symbol ? " " + g.symbol : "") + ": " + g.shown));
    });
    box.appendChild(given);
    var tol = String(Number(q.tolerance.toPrecision(2)));
    var exact = q.tolerance === 0;  /* an id or a count: only the number itself is right */
    box.appendChild(node("p", "muted", q.formula + " · " + (exact ? HF.t("quiz.exact") : HF.t("quiz.tolerance", {tol: tol}))));
    var link = node("a", "quiz-where", HF.t("quiz.where", {cell: "[" + (q.cell || []).join(", ") + "]"}));
    link.href = "#s-" + q.step;
    link.addEventListener("click", function (e) { e.preventDefault(); show(q); });
    box.appendChild(node("p", "")).appendChild(link);
    input.type = "text"; input.setAttribute("aria-label", HF.t("quiz.check"));
    check.type = "button"; reveal.type = "button";
    var row = node("p", "buttons"); row.append(input, check, reveal);
    box.append(row, result);
    function send(body) {
      HF.post("/api/quiz/answer", body).then(function (r) {
        if (!r.ok) { result.textContent = r.data.error; box.setAttribute("data-result", "error"); return; }
        var text = r.data.right === undefined ? "" : HF.t(r.data.right ? "quiz.right" : "quiz.wrong");
        if (r.data.answer !== undefined) { text += " " + HF.t(exact ? "quiz.answer_exact" : "quiz.answer", {answer: short(r.data.answer), tol: tol}); }
        result.textContent = text.trim();
        box.setAttribute("data-result", r.data.right === undefined ? "revealed" : r.data.right ? "right" : "wrong");
        showScore(r.data.score);
      });
    }
    check.addEventListener("click", function () { send({id: q.id, answer: input.value}); });
    reveal.addEventListener("click", function () { send({id: q.id, reveal: true}); });
    return box;
  }

  function start() {
    var walk = HF.walkBody(), body = {count: 6, seed: Math.floor(Math.random() * 1e6), lang: HF.lang};
    walk.backward = $("backward").getAttribute("aria-pressed") === "true";
    if ($("f-quiz-model").value === "job" && HF.job && HF.job()) {  /* the model trained in this page */
      body.job = HF.job(); body.src = walk.src; body.tgt = walk.tgt; body.backward = walk.backward;
    } else {
      body.walk = walk;
    }
    HF.post("/api/quiz", body)
      .then(function (r) {
        var list = $("quiz-list");
        if (!r.ok) { HF.showAnswer(r.data); return; }
        list.replaceChildren.apply(list, r.data.questions.map(question));
        showScore(r.data.score);
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    $("quiz-start").addEventListener("click", start);
  });
})();
