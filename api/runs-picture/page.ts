import { STATUS_COLOURS } from '../../lib/picture/runSvg';

/**
 * The run picture page: a static shell with no data in it. Its script reads the access token (or API key) from
 * the URL fragment — never sent to the server, so it reaches no log — keeps it in sessionStorage and loads
 * `.../picture.json` (the SVG and each node's details). While the run is live it asks again with If-None-Match
 * (304 until a node moves on) and counts running durations on itself; it stops once the run has ended.
 *
 * Every tenant value (node ids, error texts, inputs, outputs) reaches the DOM as text: the SVG is escaped by the
 * server and parsed as XML, the panel is filled with textContent only, and links are checked to be same-origin
 * paths or http(s) URLs. The page's CSP (api/http/pageCsp.ts) allows only this origin's script file.
 */
const legend = Object.entries(STATUS_COLOURS)
  .map(
    ([status, c]) =>
      `<span class="chip" style="background:${c.fill};border-color:${c.stroke};color:${c.text}">${status}</span>`,
  )
  .join(' ');

export const RUN_PICTURE_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="referrer" content="no-referrer" />
    <title>Loom run</title>
    <style>
      body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 24px; color: #111827; }
      header.top { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; margin-bottom: 12px; }
      h1 { font-size: 18px; margin: 0; }
      .chip { display: inline-block; border: 1px solid; border-radius: 999px; padding: 1px 10px; font-size: 12px; }
      #message { color: #b91c1c; }
      .hint { color: #6b7280; font-size: 13px; }
      .layout { display: flex; gap: 16px; align-items: flex-start; }
      #picture { flex: 1 1 auto; min-width: 0; overflow: auto; border: 1px solid #e5e7eb; border-radius: 12px; }
      #picture svg { display: block; }
      #picture g.node { cursor: pointer; outline: none; }
      #picture g.node:focus-visible rect.box, #picture g.node.selected rect.box { stroke: #111827; stroke-width: 3; }
      #panel { flex: 0 0 420px; max-width: 42vw; border: 1px solid #e5e7eb; border-radius: 12px; padding: 12px 16px;
        max-height: calc(100vh - 48px); overflow: auto; box-sizing: border-box; position: sticky; top: 12px; }
      #panel[hidden] { display: none; }
      #panel h2 { font-size: 16px; margin: 0; word-break: break-all; }
      #panel h3 { font-size: 13px; margin: 14px 0 4px; text-transform: uppercase; letter-spacing: .04em; color: #4b5563; }
      #panel .panel-head { display: flex; justify-content: space-between; gap: 8px; align-items: flex-start; }
      #panel dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 8px 0 0; font-size: 13px; }
      #panel dt { color: #6b7280; }
      #panel dd { margin: 0; word-break: break-word; }
      #panel pre { background: #f9fafb; border: 1px solid #e5e7eb; border-radius: 8px; padding: 8px; margin: 0;
        font-size: 12px; white-space: pre-wrap; word-break: break-word; max-height: 320px; overflow: auto; }
      #panel .note { color: #6b7280; font-size: 12px; margin: 2px 0 4px; }
      #panel-error p { margin: 0; color: #7f1d1d; background: #fee2e2; border-radius: 8px; padding: 8px; font-size: 13px;
        white-space: pre-wrap; word-break: break-word; }
      form { display: none; gap: 8px; }
      form.shown { display: flex; }
    </style>
  </head>
  <body data-run-status="loading">
    <header class="top">
      <h1>Run <code id="run-id"></code></h1>
      <span id="status" class="chip">loading</span>
      <span id="updated"></span>
      <a id="parent" hidden>parent run</a>
      <a id="temporal" target="_blank" rel="noopener noreferrer" hidden>open in Temporal Web</a>
    </header>
    <p>${legend} <span class="hint">Select a node (click, or Tab and Enter) to see its input, output and error.</span></p>
    <form id="token-form"><input id="token-input" type="password" placeholder="access token or API key" size="60" /><button>Show</button></form>
    <p id="message"></p>
    <div class="layout">
      <div id="picture"></div>
      <aside id="panel" hidden aria-labelledby="panel-title">
        <div class="panel-head"><h2 id="panel-title"></h2><button id="panel-close" type="button" aria-label="Close the node panel">×</button></div>
        <dl id="panel-facts"></dl>
        <section id="panel-error" hidden><h3>Error</h3><p><code id="panel-error-code"></code>: <span id="panel-error-message"></span></p></section>
        <section id="panel-loop" hidden><h3>Loop</h3><p id="panel-loop-text"></p></section>
        <section id="panel-child" hidden><h3>Child run</h3><a id="panel-child-link"></a></section>
        <section id="panel-input-section"><h3>Input</h3><p class="note" id="panel-input-note"></p><pre id="panel-input"></pre></section>
        <section id="panel-output-section"><h3>Output</h3><p class="note" id="panel-output-note"></p><pre id="panel-output"></pre>
          <a id="panel-output-download" target="_blank" rel="noopener noreferrer" hidden>download the whole value</a></section>
      </aside>
    </div>
    <script src="/ui/assets/run-picture.js"></script>
  </body>
</html>
`;

export const RUN_PICTURE_SCRIPT = `(function () {
  'use strict';
  var POLL_MS = 1500;
  var TERMINAL = { completed: true, failed: true, cancelled: true };
  var parts = location.pathname.split('/');
  // /ui/workflows/{id}/runs/{run_id}/picture
  var workflowId = decodeURIComponent(parts[3] || '');
  var runId = decodeURIComponent(parts[5] || '');
  var jsonUrl = '/api/v1/workflows/' + encodeURIComponent(workflowId) + '/runs/' + encodeURIComponent(runId) + '/picture.json';
  var storageKey = 'loom.token';
  var fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get('token')) {
    sessionStorage.setItem(storageKey, fragment.get('token'));
    history.replaceState(null, '', location.pathname + location.search);
  }
  var $ = function (id) { return document.getElementById(id); };
  $('run-id').textContent = runId;

  var model = null;
  var etag = null;
  var selected = null;
  var clockOffset = 0; // server time - browser time
  var ticker = null;
  var pollTimer = null;
  var busy = false;

  function askForToken(text) {
    $('message').textContent = text;
    $('token-form').className = 'shown';
  }
  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    sessionStorage.setItem(storageKey, $('token-input').value.trim());
    $('token-form').className = '';
    poll();
  });

  function formatDuration(ms) {
    if (ms < 1000) return Math.round(ms) + ' ms';
    if (ms < 60000) return (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
    var minutes = Math.floor(ms / 60000);
    if (minutes < 60) return minutes + ' min ' + Math.round((ms % 60000) / 1000) + ' s';
    return Math.floor(minutes / 60) + ' h ' + (minutes % 60) + ' min';
  }
  function time(iso) { return iso ? new Date(iso).toLocaleString() : '—'; }
  /** Only links to this origin's paths or to http(s) URLs are followed. */
  function safeHref(url) {
    if (typeof url !== 'string') return null;
    if (/^\\/[^\\/\\\\]/.test(url)) return url;
    return /^https?:\\/\\//i.test(url) ? url : null;
  }
  function setLink(el, url, text) {
    var href = safeHref(url);
    if (!href) { el.hidden = true; el.removeAttribute('href'); return; }
    el.href = href;
    if (text !== undefined) el.textContent = text;
    el.hidden = false;
  }

  /** Durations of running nodes (and of the run) count on between answers. */
  function tick() {
    var now = Date.now() + clockOffset;
    var live = document.querySelectorAll('#picture [data-since]');
    for (var i = 0; i < live.length; i++) {
      var since = Date.parse(live[i].getAttribute('data-since'));
      if (!isNaN(since)) live[i].textContent = (live[i].getAttribute('data-prefix') || '') + formatDuration(Math.max(0, now - since));
    }
    if (selected && model && model.nodes[selected] && model.nodes[selected].status === 'running') fillFacts(model.nodes[selected]);
  }

  function fact(list, name, value) {
    var dt = document.createElement('dt');
    dt.textContent = name;
    var dd = document.createElement('dd');
    dd.textContent = value;
    list.appendChild(dt);
    list.appendChild(dd);
  }
  function fillFacts(node) {
    var list = $('panel-facts');
    list.replaceChildren();
    fact(list, 'type', node.tool ? node.type + ' · ' + node.tool : node.type);
    if (node.name) fact(list, 'name', node.name);
    fact(list, 'status', node.status + (node.via ? ' (via ' + node.via + ')' : ''));
    fact(list, 'attempts', String(node.attempts));
    fact(list, 'started', time(node.startedAt));
    fact(list, 'finished', time(node.finishedAt));
    if (node.startedAt) {
      var end = node.finishedAt ? Date.parse(node.finishedAt) : Date.now() + clockOffset;
      fact(list, 'duration', formatDuration(Math.max(0, end - Date.parse(node.startedAt))));
    }
    if (node.branchOf) fact(list, 'branch', node.branchOf.parallel + ' › ' + node.branchOf.branch);
    if (node.parallel) {
      fact(list, 'join', node.parallel.joinStrategy + (node.parallel.n ? ' (n = ' + node.parallel.n + ')' : ''));
      fact(list, 'branches', node.parallel.branches.map(function (b) { return b.id + ': ' + b.nodes.join(', '); }).join('; '));
    }
  }
  function fillValue(pre, note, preview, empty) {
    if (!preview) { pre.textContent = ''; pre.hidden = true; note.textContent = empty; return; }
    pre.hidden = false;
    pre.textContent = preview.text;
    note.textContent = preview.truncated
      ? 'truncated: the first ' + preview.text.length.toLocaleString() + ' of ' + preview.totalChars.toLocaleString() + ' characters'
      : '';
  }

  function showPanel(id) {
    var node = model && model.nodes[id];
    if (!node) { closePanel(); return; }
    selected = id;
    $('panel').hidden = false;
    $('panel').setAttribute('data-node-id', id);
    $('panel-title').textContent = id;
    fillFacts(node);
    $('panel-error').hidden = !node.error;
    $('panel-error-code').textContent = node.error ? node.error.code : '';
    $('panel-error-message').textContent = node.error ? node.error.message : '';
    $('panel-loop').hidden = !node.loop;
    $('panel-loop-text').textContent = node.loop
      ? (node.loop.text || 'not started') + (node.loop.failedItems.length ? ' — failed items: ' + node.loop.failedItems.join(', ') : '')
      : '';
    if (node.childRun) {
      $('panel-child').hidden = false;
      setLink($('panel-child-link'), node.childRun.picture, 'run ' + node.childRun.runId);
    } else {
      $('panel-child').hidden = true;
    }
    if (node.valuesOmitted) {
      fillValue($('panel-input'), $('panel-input-note'), null, node.valuesOmitted);
      fillValue($('panel-output'), $('panel-output-note'), null, node.valuesOmitted);
    } else {
      fillValue($('panel-input'), $('panel-input-note'), node.input, '');
      if (node.input) $('panel-input-note').textContent = node.inputNote + ($('panel-input-note').textContent ? ' — ' + $('panel-input-note').textContent : '');
      fillValue($('panel-output'), $('panel-output-note'), node.output, node.status === 'failed' ? 'no output: the node failed' : 'no output yet');
    }
    setLink($('panel-output-download'), node.output && node.output.downloadUrl);
    var marked = document.querySelectorAll('#picture g.node.selected');
    for (var i = 0; i < marked.length; i++) marked[i].classList.remove('selected');
    var g = nodeElement(id);
    if (g) g.classList.add('selected');
    fit();
  }
  /** Wide pictures shrink to the room there is, down to 60 %; past that the picture scrolls. */
  function fit() {
    var svg = $('picture').querySelector('svg');
    if (!svg) return;
    var width = Number(svg.getAttribute('width'));
    var height = Number(svg.getAttribute('height'));
    if (!width || !height) return;
    var scale = Math.min(1, Math.max(0.6, ($('picture').clientWidth - 2) / width));
    svg.style.width = Math.floor(width * scale) + 'px';
    svg.style.height = Math.floor(height * scale) + 'px';
  }
  window.addEventListener('resize', fit);

  function closePanel() {
    selected = null;
    $('panel').hidden = true;
    var marked = document.querySelectorAll('#picture g.node.selected');
    for (var i = 0; i < marked.length; i++) marked[i].classList.remove('selected');
    fit();
  }
  function nodeElement(id) {
    var nodes = document.querySelectorAll('#picture g.node');
    for (var i = 0; i < nodes.length; i++) if (nodes[i].getAttribute('data-node-id') === id) return nodes[i];
    return null;
  }
  $('panel-close').addEventListener('click', function () {
    var id = selected;
    closePanel();
    var g = id && nodeElement(id);
    if (g) g.focus();
  });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && selected) closePanel();
  });
  $('picture').addEventListener('click', function (event) {
    var g = event.target.closest && event.target.closest('g.node');
    if (g) showPanel(g.getAttribute('data-node-id'));
  });
  $('picture').addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    var g = event.target.closest && event.target.closest('g.node');
    if (!g) return;
    event.preventDefault();
    showPanel(g.getAttribute('data-node-id'));
  });

  function apply(next) {
    model = next;
    var focused = document.activeElement && document.activeElement.closest && document.activeElement.closest('#picture g.node');
    var focusedId = focused ? focused.getAttribute('data-node-id') : null;
    var doc = new DOMParser().parseFromString(next.svg, 'image/svg+xml');
    if (doc.getElementsByTagName('parsererror').length) throw new Error('the picture could not be read');
    $('picture').replaceChildren(document.importNode(doc.documentElement, true));
    fit();
    if (focusedId) { var again = nodeElement(focusedId); if (again) again.focus(); }
    clockOffset = Date.parse(next.now) - Date.now() || 0;
    var status = next.run.status;
    $('status').textContent = status;
    $('message').textContent = '';
    setLink($('temporal'), next.run.temporal);
    if (next.run.parent) setLink($('parent'), next.run.parent.picture, 'parent run (' + next.run.parent.node_id + ')');
    document.title = next.title + ' — ' + status;
    if (selected) showPanel(selected);
  }

  function schedule(status) {
    $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
    document.body.setAttribute('data-run-status', status);
    if (TERMINAL[status]) {
      if (ticker) { clearInterval(ticker); ticker = null; }
      tick();
      return;
    }
    if (!ticker) ticker = setInterval(tick, 1000);
    pollTimer = setTimeout(poll, POLL_MS);
  }

  function poll() {
    pollTimer = null;
    if (document.hidden) return; // picked up again on visibilitychange
    var token = sessionStorage.getItem(storageKey);
    if (!token) return askForToken('Sign in: pass #token=<access token or API key> in the address, or paste it here.');
    var headers = { authorization: 'Bearer ' + token };
    if (etag && model) headers['if-none-match'] = etag;
    busy = true;
    fetch(jsonUrl, { headers: headers, cache: 'no-store' })
      .then(function (res) {
        busy = false;
        if (res.status === 304) return schedule(model.run.status);
        if (!res.ok) {
          return res.json().catch(function () { return {}; }).then(function (body) {
            var error = (body && body.error) || {};
            if (res.status === 401) askForToken('Not signed in: ' + (error.message || 'invalid token'));
            else $('message').textContent = (error.code || res.status) + ': ' + (error.message || 'could not load the run');
            document.body.setAttribute('data-run-status', 'error');
          });
        }
        var tag = res.headers.get('etag');
        return res.json().then(function (next) {
          apply(next);
          etag = tag;
          schedule(next.run.status);
        });
      })
      .catch(function (err) {
        busy = false;
        $('message').textContent = 'could not reach the API (' + err.message + '); retrying';
        pollTimer = setTimeout(poll, POLL_MS * 2);
      });
  }
  document.addEventListener('visibilitychange', function () {
    if (!document.hidden && !busy && !pollTimer && (!model || !TERMINAL[model.run.status])) poll();
  });
  poll();
})();
`;
