/* The next token of a family that generates: with the box ticked, the walk writes one token
   after its text, chosen at temperature T among the top-k most likely within top-p (the walk's
   "sample"), and a change of T, k or p redraws the sampling panels (brought into view). */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, reveal = false;

  function generates() { return (HF.generates || []).indexOf($("f-family").value) >= 0; }

  /* The walk body's "sample", or null when the box is not ticked (or the family writes none). */
  HF.sampleOf = function () {
    if (!generates() || !$("f-sample").checked || HF.backward) { return null; }
    var sample = {temperature: Number($("f-temperature").value)};
    if (Number($("f-top_p").value) < 1) { sample.top_p = Number($("f-top_p").value); }  /* 1: no cut */
    if ($("f-top_k").value !== "") { sample.top_k = Number($("f-top_k").value); }
    return sample;
  };

  function shown() {
    $("temperature-shown").textContent = Number($("f-temperature").value).toFixed(2);
    $("top_p-shown").textContent = Number($("f-top_p").value).toFixed(2);
  }

  /* The panel of the sorted, cut probabilities (the first of the sampling panels). */
  function sortedPanel() {
    return Array.prototype.filter.call($("panels").querySelectorAll(":scope > section.panel"), function (s) {
      return /\.sample\.sorted$/.test(s.getAttribute("data-id"));
    })[0];
  }

  function bringIntoView() {
    var panel = reveal && sortedPanel();
    reveal = false;
    if (!panel) { return; }
    var r = panel.getBoundingClientRect();
    if (r.top < 0 || r.top > window.innerHeight * 0.6) { HF.toTop(panel); }
  }

  document.addEventListener("hf:ready", function () {
    $("sample-box").addEventListener("input", function () { shown(); reveal = $("f-sample").checked; });
    shown();
  });
  document.addEventListener("hf:updated", bringIntoView);
})();
