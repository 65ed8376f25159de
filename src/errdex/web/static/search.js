// errdex static site: paste matching, search and repo filters in the browser.
//
// A static host cannot run the match stage, so this script matches against
// /api/search-index.json (rows of [id, repo, kind, exception, title, pieces,
// path, line]; pieces are a template's literal texts with null where a
// placeholder absorbs a value).  It builds the DOM with textContent only:
// pasted text and indexed messages are untrusted and never parsed as HTML.
"use strict";

(function () {
  var indexPromise = null;

  function loadIndex(url) {
    if (!indexPromise) {
      indexPromise = fetch(url, { headers: { Accept: "application/json" } }).then(function (r) {
        if (!r.ok) { throw new Error("cannot load the search index (" + r.status + ")"); }
        return r.json();
      });
    }
    return indexPromise;
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    if (attrs) { Object.keys(attrs).forEach(function (k) { node.setAttribute(k, attrs[k]); }); }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function fold(s) { return s.replace(/\s+/g, " ").trim(); }

  var EXC_LINE = /^\s*(?:E\s+)?([A-Za-z_][\w.]*(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Group))(?::\s?(.*))?$/;
  var STOP = /^(-{5,}|During handling of the above exception|The above exception was the direct cause)/;

  // The exception and message a traceback reports: its last "Type: message" line (plus continuation lines).
  function parsePaste(text) {
    var lines = text.replace(/\u001b\[[0-9;]*m/g, "").split(/\r?\n/);
    for (var i = lines.length - 1; i >= 0; i--) {
      var m = EXC_LINE.exec(lines[i]);
      if (!m) { continue; }
      var msg = [m[2] || ""];
      for (var j = i + 1; j < lines.length && !STOP.test(lines[j].trim()) && lines[j].trim() !== ""; j++) {
        msg.push(lines[j]);
      }
      return { exception: m[1], message: fold(msg.join("\n")) };
    }
    return { exception: "", message: fold(text) };
  }

  // Literal pieces in order, placeholders absorbing the text between them (linear in the message length).
  function matchRow(pieces, message) {
    var pos = 0, matched = 0, values = [], gapStart = -1;
    for (var k = 0; k < pieces.length; k++) {
      var p = pieces[k];
      if (p === null) { gapStart = pos; continue; }
      var lit = fold(p);
      if (!lit) { continue; }
      var at = message.indexOf(lit, pos);
      if (at < 0) { return null; }
      if (gapStart >= 0) { values.push(message.slice(gapStart, at).trim()); gapStart = -1; }
      pos = at + lit.length;
      matched += lit.length;
    }
    if (gapStart >= 0) { values.push(message.slice(gapStart).trim()); }
    if (matched === 0) { return null; }
    return { matched: matched, values: values };
  }

  function rank(index, parsed, top) {
    var out = [];
    index.errors.forEach(function (row) {
      var r = matchRow(row[5], parsed.message);
      if (!r) { return; }
      var score = Math.min(1, r.matched / Math.max(1, parsed.message.length));
      if (parsed.exception && parsed.exception.split(".").pop() === row[3]) { score = Math.min(1, score + 0.1); }
      out.push({ row: row, score: score, values: r.values });
    });
    out.sort(function (a, b) { return b.score - a.score; });
    return out.slice(0, top);
  }

  function placeholders(pieces) {
    return pieces.filter(function (p) { return p === null; }).length;
  }

  function renderMatches(target, found, parsed) {
    target.textContent = "";
    target.appendChild(el("h2", null, "Ranked matches"));
    if (!found.length) {
      var p = el("p", { "class": "none" }, "No error in this catalog matches this text. ");
      var a = el("a", { href: "/search/?q=" + encodeURIComponent(parsed.message.slice(0, 200)) }, "Search for its words");
      p.appendChild(a);
      target.appendChild(p);
      return;
    }
    var ol = el("ol", { "class": "matches" });
    found.forEach(function (f) {
      var row = f.row;
      var li = el("li", { "class": "match" });
      var kicker = el("p", { "class": "kicker" }, row[1] + " · " + row[2] + " · " + row[3] + " ");
      kicker.appendChild(el("span", { "class": "score" }, "score " + f.score.toFixed(2)));
      li.appendChild(kicker);
      var title = el("p", { "class": "match-title" });
      title.appendChild(el("a", { href: "/errors/" + row[0] + "/" }, row[4]));
      li.appendChild(title);
      li.appendChild(el("p", { "class": "dim" }, row[6] + ":" + row[7]));
      if (f.values.length && placeholders(row[5])) {
        var table = el("table", { "class": "values" });
        f.values.forEach(function (v, i) {
          var tr = el("tr");
          tr.appendChild(el("td", null, "placeholder " + (i + 1)));
          var td = el("td");
          td.appendChild(el("code", null, v));
          tr.appendChild(td);
          table.appendChild(tr);
        });
        li.appendChild(table);
      }
      ol.appendChild(li);
    });
    target.appendChild(ol);
  }

  function setupPaste() {
    var form = document.getElementById("paste");
    var url = form && form.getAttribute("data-static-index");
    if (!url) { return; }
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var text = document.getElementById("paste-text").value;
      var target = document.getElementById("paste-results");
      target.textContent = "Matching…";
      loadIndex(url).then(function (index) {
        var parsed = parsePaste(text);
        renderMatches(target, rank(index, parsed, 5), parsed);
      }).catch(function (err) { target.textContent = String(err.message || err); });
    });
  }

  function setupSearch() {
    var results = document.getElementById("results");
    if (!results || !results.hasAttribute("data-query")) { return; }
    var q = new URLSearchParams(window.location.search).get("q") || "";
    if (!q) { return; }
    var input = document.getElementById("q");
    if (input) { input.value = q; }
    var words = q.toLowerCase().split(/[^\w]+/).filter(Boolean);
    loadIndex("/api/search-index.json").then(function (index) {
      var hits = index.errors.filter(function (row) {
        var hay = [row[3], row[4], row[5].filter(Boolean).join(" "), row[6]].join(" ").toLowerCase();
        return words.every(function (w) { return hay.indexOf(w) >= 0; });
      }).slice(0, 100);
      results.textContent = "";
      results.appendChild(el("p", { "class": "dim" }, hits.length + " result" + (hits.length === 1 ? "" : "s") + "."));
      var ul = el("ul", { "class": "error-list" });
      hits.forEach(function (row) {
        var li = el("li");
        li.appendChild(el("a", { href: "/errors/" + row[0] + "/" }, row[4]));
        li.appendChild(el("span", { "class": "dim" }, " " + row[1] + " · " + row[2] + " · " + row[3] + " · " + row[6] + ":" + row[7]));
        ul.appendChild(li);
      });
      results.appendChild(ul);
    });
  }

  // Repo pages list every error on a static site; ?kind= and ?exception= hide the others.
  function setupFilters() {
    var list = document.getElementById("errors");
    if (!list) { return; }
    var params = new URLSearchParams(window.location.search);
    var kind = params.get("kind"), exc = params.get("exception");
    if (!kind && !exc) { return; }
    list.querySelectorAll("li[data-kind]").forEach(function (li) {
      var keep = (!kind || li.getAttribute("data-kind") === kind) && (!exc || li.getAttribute("data-exception") === exc);
      li.hidden = !keep;
    });
    list.querySelectorAll("ul.error-list").forEach(function (ul) {
      var any = ul.querySelector("li:not([hidden])");
      ul.hidden = !any;
      var h = ul.previousElementSibling;
      if (h && h.tagName === "H3") { h.hidden = !any; }
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    setupPaste();
    setupSearch();
    setupFilters();
  });
})();
