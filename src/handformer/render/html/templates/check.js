/* handformer page: "check yourself": a typed answer checked within its tolerance, offline. */
(function () {
  "use strict";
  function parse(text) {
    var t = text.trim().replace(/\u2212/g, "-").replace(/\s+/g, "").replace(/,/g, ".");
    if (/^-(inf|infinity|\u221e)$/i.test(t)) { return -Infinity; }
    if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) { return NaN; }
    return Number(t);
  }
  function verdict(box, which) {
    box.querySelectorAll(".verdict").forEach(function (v) {
      v.hidden = v.getAttribute("data-verdict") !== which;
    });
    box.setAttribute("data-result", which);
  }
  document.querySelectorAll("aside.check").forEach(function (box) {
    var input = box.querySelector("input"), button = box.querySelector("button.check-it");
    var answer = box.getAttribute("data-answer") === "-inf" ? -Infinity : Number(box.getAttribute("data-answer"));
    var tol = Number(box.getAttribute("data-tol"));
    function check() {
      var typed = parse(input.value);
      if (isNaN(typed)) { verdict(box, "nan"); return; }
      var right = answer === -Infinity ? typed === -Infinity : isFinite(typed) && Math.abs(typed - answer) <= tol;
      verdict(box, right ? "right" : "wrong");
    }
    button.addEventListener("click", check);
    input.addEventListener("keydown", function (e) { if (e.key === "Enter") { check(); } });
  });
})();
