/**
 * The script of the account pages (./html.ts), served as a file and loaded with the response's CSP nonce.
 *
 * - The token arrives in the link's `?token=` (or `#token=`). The script reads it once, then removes it from the
 *   address bar and the history entry (history.replaceState), keeps it only in memory, and sends it only in the body of
 *   a POST to this API. The page and its requests send no Referer (Referrer-Policy: no-referrer).
 * - It calls only the public API routes a client app would call: nothing here has powers of its own.
 * - A sign-in made on the page (invitation, new verification link) lives only in memory and is ended (logout) as
 *   soon as its one call is made.
 * - It never navigates anywhere the request chose: no redirect parameter exists.
 */
export const ACCOUNT_PAGES_SCRIPT = `(function () {
  'use strict';
  var page = document.body.getAttribute('data-page');
  var $ = function (selector, root) { return (root || document).querySelector(selector); };
  var all = function (selector, root) { return Array.prototype.slice.call((root || document).querySelectorAll(selector)); };

  function takeToken() {
    var fromQuery = new URLSearchParams(location.search).get('token');
    var fromFragment = new URLSearchParams(location.hash.slice(1)).get('token');
    if (location.search || location.hash) history.replaceState(null, '', location.pathname);
    return (fromQuery || fromFragment || '').trim();
  }
  // The approval page's link names ids, not a token: read before takeToken clears the address.
  var linkQuery = new URLSearchParams(location.search);
  var token = takeToken();

  // ------------------------------------------------------------------ views and messages
  function clearMessage() {
    var box = $('#message');
    box.hidden = true;
    box.removeAttribute('data-code');
    $('[data-field="message"]', box).textContent = '';
    $('[data-field="problems"]', box).replaceChildren();
  }
  function show(view) {
    clearMessage();
    all('[data-view]').forEach(function (section) { section.hidden = section.getAttribute('data-view') !== view; });
    document.body.setAttribute('data-state', view);
  }
  function fill(name, value) {
    all('[data-field="' + name + '"]').forEach(function (el) { el.textContent = value; });
  }
  function sentence(text) {
    var t = String(text || '').trim();
    if (!t) return 'Something went wrong; please try again.';
    t = t.charAt(0).toUpperCase() + t.slice(1);
    return /[.!?]$/.test(t) ? t : t + '.';
  }
  function say(text, problems, code, kind) {
    var box = $('#message');
    box.className = kind === 'info' ? 'info' : '';
    box.setAttribute('data-code', code || 'ERROR');
    $('[data-field="message"]', box).textContent = text;
    var list = $('[data-field="problems"]', box);
    list.replaceChildren();
    (problems || []).forEach(function (problem) {
      var item = document.createElement('li');
      item.textContent = problem;
      list.appendChild(item);
    });
    box.hidden = false;
  }
  function sayError(error) {
    var details = Array.isArray(error.details) ? error.details : [];
    if (error.code === 'WEAK_PASSWORD') {
      // details: [{ path, problem: "<rule>: <what is wrong>" }]
      return say('This password does not meet the password policy:', details.map(function (d) {
        return sentence(String(d.problem || '').replace(/^[A-Za-z]+: /, ''));
      }), error.code);
    }
    if (error.code === 'VALIDATION_ERROR' && details.length) {
      return say('Please check what you entered:', details.map(function (d) {
        return String(d.path || '').replace(/^body\\./, '') + ': ' + d.problem;
      }), error.code);
    }
    if (error.code === 'RATE_LIMITED') {
      return say('Too many attempts. ' + sentence(error.message) + ' Please wait a moment and try again.', [], error.code);
    }
    say(sentence(error.message), [], error.code);
  }

  async function api(method, path, body, accessToken) {
    var headers = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (accessToken) headers.authorization = 'Bearer ' + accessToken;
    var res;
    try {
      res = await fetch(path, {
        method: method,
        headers: headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        cache: 'no-store',
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
      });
    } catch (err) {
      return { ok: false, status: 0, error: { code: 'NETWORK', message: 'Loom could not be reached; check your connection and try again' } };
    }
    var data = null;
    if (res.status !== 204) {
      try { data = await res.json(); } catch (err) { data = null; }
    }
    if (res.ok) return { ok: true, status: res.status, data: data };
    var error = (data && data.error) || { code: 'HTTP_' + res.status, message: 'unexpected answer from Loom (HTTP ' + res.status + ')' };
    return { ok: false, status: res.status, error: error };
  }

  async function busy(element, work) {
    var buttons = element.tagName === 'BUTTON' ? [element] : all('button', element);
    buttons.forEach(function (b) { b.disabled = true; });
    try { await work(); } finally { buttons.forEach(function (b) { b.disabled = false; }); }
  }

  /** The new password of a form with "password" and "confirm", or null (and a message) when they differ. */
  function newPasswordOf(form) {
    var password = form.elements.password.value;
    if (!password) { say('Enter a new password.', [], 'PASSWORD_MISSING'); return null; }
    if (password !== form.elements.confirm.value) {
      say('The two passwords are not the same: type the new password twice.', [], 'PASSWORDS_DIFFER');
      return null;
    }
    return password;
  }

  /** Ends the page's own sign-in; a failure leaves a session that expires on its own, so it is not shown. */
  async function signOut(accessToken) {
    await api('POST', '/api/auth/logout', undefined, accessToken);
  }

  function showPanel(name) {
    all('[data-panel]').forEach(function (panel) { panel.hidden = panel.getAttribute('data-panel') !== name; });
    all('.tab').forEach(function (tab) {
      tab.setAttribute('aria-pressed', String(tab.getAttribute('data-tab') === name || (name === 'two-factor' && tab.getAttribute('data-tab') === 'sign-in')));
    });
  }

  /** Sign-in form (and its two-factor step): calls signedIn(accessToken, user) once signed in. */
  function setUpSignIn(signedIn) {
    var form = $('#sign-in-form');
    var second = $('#two-factor-form');
    var challenge = null;
    all('.tab').forEach(function (tab) {
      tab.addEventListener('click', function () { clearMessage(); showPanel(tab.getAttribute('data-tab')); });
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      clearMessage();
      var email = form.elements.email.value.trim();
      var password = form.elements.password.value;
      if (!email || !password) return say('Enter your e-mail address and your password.', [], 'CREDENTIALS_MISSING');
      busy(form, async function () {
        var r = await api('POST', '/api/auth/login', { email: email, password: password });
        if (!r.ok) return sayError(r.error);
        form.elements.password.value = '';
        if (r.data.challenge) {
          challenge = r.data.challenge.challengeToken;
          showPanel('two-factor');
          second.elements.code.focus();
          return;
        }
        await signedIn(r.data.tokens.accessToken, r.data.user);
      });
    });
    second.addEventListener('submit', function (event) {
      event.preventDefault();
      clearMessage();
      busy(second, async function () {
        var r = await api('POST', '/api/auth/login/2fa', { challengeToken: challenge, code: second.elements.code.value.trim() });
        if (!r.ok) {
          if (r.error.code === 'INVALID_TOKEN') showPanel('sign-in');
          return sayError(r.error);
        }
        second.elements.code.value = '';
        showPanel('sign-in');
        await signedIn(r.data.tokens.accessToken, r.data.user);
      });
    });
  }

  // ------------------------------------------------------------------ accept an invitation
  async function acceptInvitationPage() {
    if (!token) return show('invalid');
    var found = await api('POST', '/api/v1/invitations/lookup', { token: token });
    if (!found.ok) {
      if (found.error.code === 'INVITATION_EXPIRED') return show('expired');
      show('invalid');
      if (found.status !== 404 && found.error.code !== 'VALIDATION_ERROR') sayError(found.error);
      return;
    }
    var invitation = found.data;
    fill('inviter', invitation.inviterName ? invitation.inviterName + ' invited you' : 'You are invited');
    fill('organization', invitation.organizationName);
    fill('role', invitation.role);
    fill('email', invitation.email);
    fill('expires', new Date(invitation.expiresAt).toLocaleString());
    $('#sign-in-form').elements.email.value = invitation.email;
    var register = $('#register-form');
    register.elements.email.value = invitation.email;

    async function accept(accessToken, user) {
      var r = await api('POST', '/api/v1/invitations/accept', { token: token }, accessToken);
      await signOut(accessToken);
      if (r.ok) {
        token = '';
        fill('organization', r.data.organization.name);
        return show('done');
      }
      if (r.error.code === 'INVITATION_EXPIRED') return show('expired');
      if (r.error.code === 'NOT_FOUND') return show('invalid');
      if (r.error.code === 'FORBIDDEN') {
        showPanel('sign-in');
        return say('You signed in as ' + user.email + ', but this invitation is for ' + invitation.email +
          '. Sign in with that address, or create an account with it.', [], r.error.code);
      }
      if (r.error.code === 'CONFLICT') return say('You are already a member of ' + invitation.organizationName + '.', [], r.error.code, 'info');
      sayError(r.error);
    }

    register.addEventListener('submit', function (event) {
      event.preventDefault();
      clearMessage();
      var password = newPasswordOf(register);
      if (!password) return;
      var name = register.elements.namedItem('name').value.trim();
      busy(register, async function () {
        var body = { email: invitation.email, password: password, invitationToken: token };
        if (name) body.name = name;
        var r = await api('POST', '/api/auth/register', body);
        if (!r.ok) {
          if (r.error.code === 'USER_EXISTS') {
            showPanel('sign-in');
            return say('A Loom account with ' + invitation.email + ' already exists: sign in with its password.', [], r.error.code, 'info');
          }
          return sayError(r.error);
        }
        register.elements.password.value = '';
        register.elements.confirm.value = '';
        await accept(r.data.tokens.accessToken, r.data.user);
      });
    });
    setUpSignIn(accept);
    showPanel('sign-in');
    show('ready');
  }

  // ------------------------------------------------------------------ confirm an e-mail address
  function verifyEmailPage() {
    setUpSignIn(async function (accessToken, user) {
      var r = await api('POST', '/api/auth/email-verification/send', undefined, accessToken);
      await signOut(accessToken);
      fill('email', user.email);
      if (r.ok) return show('resent');
      if (r.error.code === 'INVALID_STATE') return show('already');
      sayError(r.error);
    });
    showPanel('sign-in');
    if (!token) return show('invalid');
    var button = $('#verify-button');
    button.addEventListener('click', function () {
      clearMessage();
      busy(button, async function () {
        var r = await api('POST', '/api/auth/email-verification/confirm', { token: token });
        if (r.ok) {
          token = '';
          fill('email', r.data.user.email);
          return show('done');
        }
        if (r.error.code === 'INVALID_TOKEN' || r.error.code === 'VALIDATION_ERROR') {
          token = '';
          return show('invalid');
        }
        sayError(r.error);
      });
    });
    show('ready');
  }

  // ------------------------------------------------------------------ reset a password
  function resetPasswordPage() {
    var request = $('#request-form');
    request.addEventListener('submit', function (event) {
      event.preventDefault();
      clearMessage();
      var email = request.elements.email.value.trim();
      if (!email) return say('Enter the e-mail address of your account.', [], 'EMAIL_MISSING');
      busy(request, async function () {
        var r = await api('POST', '/api/auth/password-reset/request', { email: email });
        if (!r.ok) return sayError(r.error);
        fill('email', email);
        show('requested');
      });
    });
    if (!token) return show('request');
    var form = $('#reset-form');
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      clearMessage();
      var password = newPasswordOf(form);
      if (!password) return;
      busy(form, async function () {
        var r = await api('POST', '/api/auth/password-reset/confirm', { token: token, password: password });
        if (r.ok) {
          token = '';
          form.reset();
          return show('done');
        }
        var badToken = r.error.code === 'INVALID_TOKEN' ||
          (r.error.code === 'VALIDATION_ERROR' && (r.error.details || []).some(function (d) { return d.path === 'body.token'; }));
        if (badToken) {
          token = '';
          form.reset();
          fill('request-reason', 'This reset link has expired or was already used. Ask for a new one:');
          return show('request');
        }
        sayError(r.error);
      });
    });
    show('ready');
  }

  // ------------------------------------------------------------------ decide on an approval
  // The link names the organization and the approval (no secret): the person signs in here, the session switches to
  // that organization, and the API decides who may decide. The session lives in memory and is ended after the
  // decision, or when the page goes away.
  function decideApprovalPage() {
    var organizationId = (linkQuery.get('organization') || '').trim();
    var approvalId = (linkQuery.get('approval') || '').trim();
    var uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    if (!uuid.test(organizationId) || !uuid.test(approvalId)) return show('invalid');
    var session = null;
    window.addEventListener('pagehide', function () {
      if (session) fetch('/api/auth/logout', { method: 'POST', headers: { authorization: 'Bearer ' + session }, keepalive: true, credentials: 'omit' });
    });

    function fieldInput(field) {
      var label = document.createElement('label');
      label.textContent = (field.label || field.name) + (field.required ? ' (required to approve)' : '');
      var input;
      if (field.type === 'choice') {
        input = document.createElement('select');
        var empty = document.createElement('option');
        empty.value = '';
        empty.textContent = '(choose)';
        input.appendChild(empty);
        (field.options || []).forEach(function (option) {
          var item = document.createElement('option');
          item.value = option;
          item.textContent = option;
          input.appendChild(item);
        });
      } else if (field.type === 'boolean') {
        input = document.createElement('input');
        input.type = 'checkbox';
        label.insertBefore(input, label.firstChild);
      } else {
        input = document.createElement('input');
        input.type = field.type === 'number' ? 'number' : 'text';
        if (field.type === 'number') input.step = 'any';
        input.maxLength = 4000;
      }
      input.setAttribute('data-form-field', field.name);
      input.setAttribute('data-type', field.type);
      if (field.type !== 'boolean') label.appendChild(input);
      return label;
    }

    function valuesOf(form) {
      var values = {};
      all('[data-form-field]', form).forEach(function (input) {
        var name = input.getAttribute('data-form-field');
        var type = input.getAttribute('data-type');
        if (type === 'boolean') { values[name] = input.checked; return; }
        var raw = input.value.trim();
        if (raw === '') return;
        values[name] = type === 'number' ? Number(raw) : raw;
      });
      return values;
    }

    function closedReason(approval) {
      if (approval.status !== 'pending') return 'It is ' + approval.status.replace('_', ' ') + '.';
      if (approval.decisions.some(function (d) { return d.user_id === approval.viewer; })) return 'You already decided on it.';
      return 'You are not among its approvers, or you started this run and it needs another person (four eyes).';
    }

    async function load(user) {
      show('loading');
      var r = await api('GET', '/api/v1/approvals/' + approvalId, undefined, session);
      if (!r.ok) {
        if (r.status === 404) { await end(); return show('invalid'); }
        return sayError(r.error);
      }
      var approval = r.data;
      approval.viewer = user.id;
      fill('workflow', approval.workflow_name || approval.workflow_id);
      fill('node', approval.node_id);
      fill('progress', approval.decisions.filter(function (d) { return d.decision === 'approved'; }).length + ' of ' + approval.required);
      fill('expires', new Date(approval.expires_at).toLocaleString());
      fill('approval-message', approval.message || '(no message)');
      if (!approval.can_decide) {
        await end();
        fill('closed-reason', closedReason(approval));
        return show('closed');
      }
      var fields = $('#form-fields');
      fields.replaceChildren();
      approval.form.forEach(function (field) { fields.appendChild(fieldInput(field)); });
      show('ready');
    }

    async function end() {
      if (!session) return;
      var ending = session;
      session = null;
      await signOut(ending);
    }

    var form = $('#decision-form');
    var chosen = 'approve';
    all('button[name="decision"]', form).forEach(function (button) {
      button.addEventListener('click', function () { chosen = button.value; });
    });
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      clearMessage();
      var decision = (event.submitter && event.submitter.value) || chosen;
      var body = { decision: decision, values: valuesOf(form) };
      var comment = form.elements.comment.value.trim();
      if (comment) body.comment = comment;
      busy(form, async function () {
        var r = await api('POST', '/api/v1/approvals/' + approvalId + '/decision', body, session);
        if (!r.ok) return sayError(r.error);
        await end();
        fill('status', r.data.status === 'pending' ? 'waiting for more approvals' : r.data.status);
        show('done');
      });
    });

    setUpSignIn(async function (accessToken, user) {
      var switched = await api('POST', '/api/auth/switch-organization', { organizationID: organizationId }, accessToken);
      if (!switched.ok) {
        await signOut(accessToken);
        if (switched.status === 403 || switched.status === 404) return say('Your account is not a member of the organization of this approval.', [], switched.error.code);
        return sayError(switched.error);
      }
      session = switched.data.accessToken;
      await load(user);
    });
    showPanel('sign-in');
    show('sign-in');
  }

  var pages = { 'accept-invitation': acceptInvitationPage, 'verify-email': verifyEmailPage, 'reset-password': resetPasswordPage, 'decide-approval': decideApprovalPage };
  Promise.resolve(pages[page] && pages[page]()).catch(function (err) {
    say('This page failed: ' + (err && err.message ? err.message : err) + '. Reload the link from your e-mail.', [], 'PAGE_ERROR');
  });
})();
`;
