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

  function showScore(score) {
    $("quiz-score").textContent = HF.t("quiz.score", score);
  }

  function question(q) {
    var box = node("div", "quiz-q"), input = node("input"), check = node("button", "", HF.t("quiz.check"));
    var reveal = node("button", "", HF.t("quiz.reveal")), result = node("p", "quiz-result");
    box.setAttribute("data-id", q.id);
    box.setAttribute("data-where", JSON.stringify([q.step, q.field, q.cell]));
    box.appendChild(node("p", "quiz-ask", q.n + ". " + q.question));
    var given = node("ul", "quiz-given");
    q.given.forEach(function (g) {
      given.appendChild(node("li", "", g.name + (g.symbol ? " " + g.symbol : "") + ": " + g.shown));
    });
    box.appendChild(given);
    box.appendChild(node("p", "muted", q.formula + " · ±" + Number(q.tolerance.toPrecision(2))));
    input.type = "text"; input.setAttribute("aria-label", HF.t("quiz.check"));
    check.type = "button"; reveal.type = "button";
    var row = node("p", "buttons"); row.append(input, check, reveal);
    box.append(row, result);
    function send(body) {
      HF.post("/api/quiz/answer", body).then(function (r) {
        if (!r.ok) { result.textContent = r.data.error; box.setAttribute("data-result", "error"); return; }
        var text = r.data.right === undefined ? "" : HF.t(r.data.right ? "quiz.right" : "quiz.wrong");
        if (r.data.answer !== undefined) { text += " " + HF.t("quiz.answer", {answer: r.data.answer}); }
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
