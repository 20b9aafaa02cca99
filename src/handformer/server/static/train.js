/* Train live: start a job on the pairs listed (pairs.js), poll its progress, draw the loss curve
   as it grows, pause it, step it (trainview.js shows the step's update), change its lr and
   epochs while it runs, stop it; then walk the trained model (its panels in place of the form's
   model's), show the
   trained prediction beside the random one, translate with its model and show the decoding steps. */
(function () {
  "use strict";
  var HF = window.HF, $ = HF.$, job = null, poll = null, last = null;
  var SVG = "http://www.w3.org/2000/svg";

  function el(name, attrs, text) {
    var node = document.createElementNS(SVG, name);
    Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  /* The x-axis spans the epochs done (at least 2), not the epochs asked for: at epoch 115 of
     2000 the curve fills the box; the label says how many are asked. */
  function xOf(i, span) { return 28 + (300 - 28 - 6) * (span > 1 ? i / (span - 1) : 0); }

  function drawCurve(losses, total, accuracy) {
    var svg = $("loss-curve"), h = 120, pad = 28, span = Math.max(losses.length, 2);
    var top = Math.max.apply(null, losses.concat([1e-9]));
    svg.replaceChildren(
      el("line", {x1: pad, y1: h - 22, x2: 300 - 4, y2: h - 22, "class": "axis"}),
      el("line", {x1: pad, y1: 4, x2: pad, y2: h - 22, "class": "axis"}),
      el("text", {x: 2, y: 12, "class": "tick"}, top.toFixed(2)),
      el("text", {x: 2, y: h - 24, "class": "tick"}, "0"),
      el("text", {x: 300 - 4, y: h - 6, "class": "tick", "text-anchor": "end"},
         HF.t("epoch") + " " + losses.length + " / " + total),
      el("text", {x: pad + 4, y: h - 6, "class": "tick"}, HF.t("loss")),
      el("polyline", {points: line(losses, span, top), "class": "loss", fill: "none"}),
      el("text", {x: 300 - 4, y: 12, "class": "tick acc", "text-anchor": "end"}, HF.t("acc") + " 100%"),
      el("polyline", {points: line(accuracy || [], span, 1), "class": "acc", fill: "none"}));
    svg.setAttribute("aria-label", HF.t("curve"));
    svg.setAttribute("data-span", String(span));
  }

  /* Loss on its own scale (top: its largest), accuracy on 0…1, drawn over the same axes. */
  function line(values, span, top) {
    return values.map(function (v, i) {
      return xOf(i, span).toFixed(1) + "," + (6 + (120 - 28) * (1 - v / top)).toFixed(1);
    }).join(" ");
  }

  function pct(x) { return x === null || x === undefined ? "–" : (100 * x).toFixed(1) + "%"; }

  var STATE_KEYS = {running: "state.running", done: "state.done", cancelled: "state.cancelled",
                    failed: "state.failed"};  /* keys written out, so a search finds them */

  function show(s) {
    last = s;
    $("train-progress").max = s.epochs;
    $("train-progress").value = s.epochs_done;
    var line = HF.t(STATE_KEYS[s.state] || s.state) + " · " + HF.t("progress", {done: s.epochs_done, total: s.epochs,
      loss: s.loss === null ? "–" : s.loss.toFixed(4)});
    if (s.final) { line += " · " + HF.t("final", {acc: pct(s.final.accuracy), exact: pct(s.final.exact)}); }
    if (s.paused_out) { line += " · " + HF.t("pause_limit", {s: s.paused_out}); }
    else if (s.error) { line += " · " + s.error; }
    $("train-status").textContent = line;
    $("train-status").setAttribute("data-state", s.state);
    drawCurve(s.losses, s.epochs, s.accuracy);
    var running = s.state === "running";
    $("stop").disabled = !running;
    $("pause").disabled = !running; $("step").disabled = !running || !s.paused;
    $("pause").setAttribute("aria-pressed", String(!!s.paused));
    $("pause").setAttribute("data-t", s.paused ? "resume" : "pause");
    $("pause").textContent = HF.t(s.paused ? "resume" : "pause");
    if (s.paused) { $("train-status").textContent += " · " + HF.t("paused"); }
    $("train").disabled = running;
    $("translate").disabled = running || !s.model;
    $("walk-trained").hidden = running || !s.model;
    $("f-quiz-model").querySelector('option[value="job"]').disabled = running || !s.model;
    offerTrainedB(!running && !!s.model);
    if (HF.showUpdate) { HF.showUpdate(s); }
  }

  /* The compare's "B is the trained model", offered while the job has a model (a new job
     running takes it back: B is the current run again). */
  function offerTrainedB(ready) {
    var b = $("f-cmp-b");
    b.querySelector('option[value="job"]').disabled = !ready;
    if (!ready && b.value === "job") { b.value = ""; b.dispatchEvent(new Event("change")); }
  }

  HF.job = function () { return job; };
  HF.attach = function (id) { job = id; follow(true); };

  /* ``quiet``: attaching the job in the page's address; if the server does not have it (or
     the address was not one this page wrote), the address drops it and the page says so. */
  function follow(quiet) {
    HF.fetch("/api/train/" + encodeURIComponent(job))
      .then(function (r) {
        var s = r.data;
        if (!r.ok || !s.state) {
          if (quiet === true) {
            job = null; HF.link(); offerTrainedB(false);
            if (r.status === 404 && !s.key) { HF.showError("job", HF.t("err.job_gone"), true, true); return; }
          }
          HF.showAnswer(s, quiet === true);
          return;
        }
        show(s);
        if (s.state === "running") { poll = setTimeout(follow, 300); }
        else if (s.model) { predict(); HF.showBeside(job); }
      });
  }

  function train() { HF.whenPairs().then(trainPairs); }

  function trainPairs() {
    HF.clearErrors(["epochs", "lr", "optimizer", "config", "corpus", "preset", "job", "tokenizer", ""]);
    var body = HF.walkBody(), pairs = HF.pairsText();
    if (pairs === null) { return; }  /* pairs.js said which pair is incomplete */
    delete body.src; delete body.tgt; delete body.corpus;
    body.pairs = pairs;  /* the list as shown (pairs.js), edits included */
    body.epochs = Number($("f-epochs").value);
    if ($("f-lr").value !== "") { body.lr = Number($("f-lr").value); }
    body.optimizer = $("f-optimizer").value;
    $("trained").hidden = true;
    HF.showBeside(null);
    walkTrained(false);
    clearTimeout(poll);
    HF.post("/api/train", body).then(function (r) {
      if (!r.ok) { HF.showAnswer(r.data); return; }
      job = r.data.id;
      HF.link();  /* the job goes into the address: a reload re-attaches it while it lives */
      if ($("f-speed").value) { pace({epochs_per_second: Number($("f-speed").value)}); }
      show(r.data);
      poll = setTimeout(follow, 300);
    });
  }

  /* What the trained model says for the walkthrough's source sentence. */
  function predict() {
    HF.post("/api/translate", {job: job, sentence: $("f-src").value, beam: 1, explain: false})
      .then(function (r) {
        if (!r.ok) { return; }
        $("trained-text").textContent = r.data.text;
        $("trained").hidden = false;
      });
  }

  /* Pause, resume, one epoch at a time, epochs per second (server/pace.py). */
  function pace(body) {
    if (!job) { return; }
    HF.post("/api/train/" + encodeURIComponent(job) + "/pace", body).then(function (r) {
      if (r.ok) { show(r.data); if (r.data.state === "running") { clearTimeout(poll); poll = setTimeout(follow, 300); } }
    });
  }

  /* lr and epochs changed while a job runs apply to it from its next update and epoch. */
  function retune(name, value) {
    if (!last || last.state !== "running" || value === "" || !isFinite(Number(value))) { return; }
    HF.clearErrors([name]);
    var body = {};
    body[name] = Number(value);
    HF.post("/api/train/" + encodeURIComponent(job) + "/pace", body).then(function (r) {
      if (r.ok) { show(r.data); } else { HF.showAnswer(r.data, true); }
    });
  }

  /* The walkthrough of the trained model (on the form's sentences), or of the form's model. */
  function walkTrained(on) {
    var was = !!HF.walkJob;
    HF.walkJob = on && job ? job : null;
    $("walk-trained").setAttribute("aria-pressed", String(!!HF.walkJob));
    if (was !== !!HF.walkJob) { HF.recompute(); }
  }

  function stop() {
    if (!job) { return; }
    HF.fetch("/api/train/" + encodeURIComponent(job), {method: "DELETE"})
      .then(function (r) { if (!r.ok) { HF.showAnswer(r.data); } });
  }

  function translate() {
    HF.clearErrors(["sentence", "job", ""]);
    if (!job) { HF.showError("job", HF.t("no_model"), true); return; }
    HF.post("/api/translate", {job: job, sentence: $("f-sentence").value,
                               beam: Number($("f-beam").value), explain: true})
      .then(function (r) {
        if (!r.ok) { HF.showAnswer(r.data); return; }
        $("translation-text").textContent = r.data.text;
        $("translation").hidden = false;
        var box = $("decoding");
        var head = document.createElement("h2");
        head.className = "decoding-head";
        head.setAttribute("data-t", "phase.decode");
        head.textContent = HF.t("phase.decode");
        var panels = document.createElement("div");
        HF.swapPanels(panels, r.data.panels);
        box.replaceChildren(head, panels);
        box.hidden = false;
        HF.toTop(box);  /* the decoding steps just asked for */
      });
  }

  function ready() {
    $("train").addEventListener("click", train);
    $("stop").addEventListener("click", stop);
    $("pause").addEventListener("click", function () { pace({pause: !(last && last.paused)}); });
    $("step").addEventListener("click", function () { HF.stepAsked = true; pace({step: 1}); });
    $("f-speed").addEventListener("change", function () {
      pace({epochs_per_second: $("f-speed").value ? Number($("f-speed").value) : null});
    });
    $("translate").addEventListener("click", translate);
    $("walk-trained").addEventListener("click", function () { walkTrained(!HF.walkJob); });
    $("f-epochs").addEventListener("input", HF.applyText);
    $("f-lr").addEventListener("change", function () { retune("lr", $("f-lr").value); });
    $("f-epochs").addEventListener("change", function () { retune("epochs", $("f-epochs").value); });
    HF.onWalk.push(function (why) { if (why === "lang" && last) { show(last); } });
  }

  ready();
})();
