import { STATUS_COLOURS } from '../../lib/picture/runSvg';

/**
 * The run picture page: a static shell with no data in it. Its script reads the access token (or API key) from
 * the URL fragment — never sent to the server, so it reaches no log — keeps it in sessionStorage, fetches the
 * authenticated SVG, and refreshes it every 2 s until the run has finished.
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
      header { display: flex; gap: 16px; align-items: baseline; flex-wrap: wrap; margin-bottom: 12px; }
      h1 { font-size: 18px; margin: 0; }
      .chip { display: inline-block; border: 1px solid; border-radius: 999px; padding: 1px 10px; font-size: 12px; }
      #message { color: #b91c1c; }
      #picture { overflow: auto; border: 1px solid #e5e7eb; border-radius: 12px; }
      #picture svg { display: block; }
      form { display: none; gap: 8px; }
      form.shown { display: flex; }
    </style>
  </head>
  <body data-run-status="loading">
    <header>
      <h1>Run <code id="run-id"></code></h1>
      <span id="status" class="chip">loading</span>
      <span id="updated"></span>
      <a id="temporal" target="_blank" rel="noopener noreferrer" hidden>open in Temporal Web</a>
    </header>
    <p>${legend}</p>
    <form id="token-form"><input id="token-input" type="password" placeholder="access token or API key" size="60" /><button>Show</button></form>
    <p id="message"></p>
    <div id="picture"></div>
    <script src="/ui/assets/run-picture.js"></script>
  </body>
</html>
`;

export const RUN_PICTURE_SCRIPT = `(function () {
  'use strict';
  var REFRESH_MS = 2000;
  var TERMINAL = { completed: true, failed: true, cancelled: true };
  var parts = location.pathname.split('/');
  // /ui/workflows/{id}/runs/{run_id}/picture
  var workflowId = decodeURIComponent(parts[3] || '');
  var runId = decodeURIComponent(parts[5] || '');
  var svgUrl = '/api/v1/workflows/' + encodeURIComponent(workflowId) + '/runs/' + encodeURIComponent(runId) + '/picture.svg';
  var storageKey = 'loom.token';
  var fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get('token')) {
    sessionStorage.setItem(storageKey, fragment.get('token'));
    history.replaceState(null, '', location.pathname + location.search);
  }
  var $ = function (id) { return document.getElementById(id); };
  $('run-id').textContent = runId;

  function askForToken(text) {
    $('message').textContent = text;
    $('token-form').className = 'shown';
  }
  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    sessionStorage.setItem(storageKey, $('token-input').value.trim());
    $('token-form').className = '';
    refresh();
  });

  function refresh() {
    var token = sessionStorage.getItem(storageKey);
    if (!token) return askForToken('Sign in: pass #token=<access token or API key> in the address, or paste it here.');
    fetch(svgUrl, { headers: { authorization: 'Bearer ' + token }, cache: 'no-store' })
      .then(function (res) {
        if (!res.ok) {
          return res.json().catch(function () { return {}; }).then(function (body) {
            var error = (body && body.error) || {};
            if (res.status === 401) askForToken('Not signed in: ' + (error.message || 'invalid token'));
            else $('message').textContent = (error.code || res.status) + ': ' + (error.message || 'could not load the run');
            document.body.setAttribute('data-run-status', 'error');
          });
        }
        var status = res.headers.get('x-run-status') || 'unknown';
        var temporal = res.headers.get('x-temporal-url');
        return res.text().then(function (text) {
          var doc = new DOMParser().parseFromString(text, 'image/svg+xml');
          $('picture').replaceChildren(document.importNode(doc.documentElement, true));
          $('status').textContent = status;
          $('updated').textContent = 'updated ' + new Date().toLocaleTimeString();
          $('message').textContent = '';
          if (temporal) { $('temporal').href = temporal; $('temporal').hidden = false; }
          document.body.setAttribute('data-run-status', status);
          if (!TERMINAL[status]) setTimeout(refresh, REFRESH_MS);
        });
      })
      .catch(function (err) {
        $('message').textContent = 'could not reach the API (' + err.message + '); retrying';
        setTimeout(refresh, REFRESH_MS * 2);
      });
  }
  refresh();
})();
`;
