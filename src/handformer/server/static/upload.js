/* The corpus from a file: read in the browser into the corpus text area, then the walk
   recomputes. The file must be UTF-8 (a byte order mark is dropped); any other is refused
   with a message rather than garbled. The server never sees a path; the file's size is checked here first
   (the server checks the corpus again like any typed one). */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$;

  function refuse(key, values) {
    HF.clearErrors(["corpus"]);
    HF.showError("corpus", HF.t(key, values), true);
    $("f-corpus-file").value = "";
  }

  function load(text, file) {
    var max = HF.limits.max_corpus_chars;
    if (text.length > max) { refuse("file_too_big", {name: file.name, size: text.length, max: max}); return; }
    $("f-corpus").value = text;
    HF.clearErrors(["corpus"]);
    $("f-corpus").dispatchEvent(new Event("input", {bubbles: true}));  /* the walk and the pairs list follow */
  }

  $("f-corpus-file").addEventListener("change", function () {
    var file = this.files && this.files[0];
    if (!file) { return; }
    var max = HF.limits.max_corpus_chars;
    /* UTF-8 takes at most 4 bytes a character: a larger file cannot fit the limit */
    if (file.size > 4 * max) { refuse("file_too_big", {name: file.name, size: file.size, max: max}); return; }
    file.arrayBuffer().then(function (bytes) {
      var text;
      try { text = new TextDecoder("utf-8", {fatal: true}).decode(bytes); }
      catch (e) { refuse("file_not_utf8", {name: file.name}); return; }  /* not garbled: refused */
      load(text.replace(/^\uFEFF/, ""), file);
    }, function () { refuse("file_unreadable", {name: file.name}); });
  });
})();
