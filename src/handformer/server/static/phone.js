/* On a phone the form is a one-line summary bar above the first panel (the sentences and the
   model); a tap opens the whole form, another closes it. On a wider screen the bar is hidden
   and the form is always open beside the walkthrough. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$;

  function summary() {
    var body = HF.walkBody(), config = Object.keys(body.config).map(function (k) { return k + " " + body.config[k]; });
    $("form-summary").textContent = body.src + " → " + body.tgt + " · " + [HF.presetName(body.preset)].concat(config).join(", ");
  }

  $("form-bar").addEventListener("click", function () {
    var side = $("form-bar").closest(".side"), open = !side.classList.contains("open");
    side.classList.toggle("open", open);
    $("form-bar").setAttribute("aria-expanded", String(open));
  });
  HF.onWalk.push(summary);
  document.addEventListener("hf:updated", summary);
})();
