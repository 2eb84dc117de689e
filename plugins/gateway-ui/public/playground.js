// The chat playground: sends a message to POST /api/v1/chat/stream and renders the SSE answer as
// it arrives — text deltas, tool calls with their results (collapsible), guardrail badges and
// approval requests that can be decided in place. The session id from the `session` event is
// sent back with the next message, and kept in sessionStorage so a reload continues the thread.
import {
  api,
  authHeaders,
  badge,
  errorBox,
  errorFromResponse,
  getApiKey,
  h,
  mountKeyPanel,
  prettyJson,
  reportApiError,
  setChildren,
  timeEl,
  toneOf,
} from './common.js';
import { readSse } from './sse.js';

const SESSION_STORAGE = 'vigil.session';
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

const transcript = $('transcript');
const form = /** @type {HTMLFormElement} */ ($('composer'));
const input = /** @type {HTMLTextAreaElement} */ ($('message'));
const sendBtn = /** @type {HTMLButtonElement} */ ($('send'));
const stopBtn = /** @type {HTMLButtonElement} */ ($('stop'));

let sessionId = '';
let streaming = null; // AbortController of the turn in flight
const usage = { prompt: 0, completion: 0 };

function setSession(id, model) {
  sessionId = id || '';
  try {
    if (sessionId) sessionStorage.setItem(SESSION_STORAGE, sessionId);
    else sessionStorage.removeItem(SESSION_STORAGE);
  } catch {
    /* storage disabled: the session lives as long as the page */
  }
  const el = $('session-id');
  setChildren(el, sessionId ? h('code', { title: sessionId }, sessionId.slice(0, 13)) : 'new');
  if (model !== undefined) $('model').textContent = model || '–';
}

function showUsage() {
  $('usage').textContent = usage.prompt + usage.completion ? `${usage.prompt} prompt + ${usage.completion} completion` : '–';
}

/** Keeps the newest content in view unless the reader scrolled up to read older messages. */
function follow(force = false) {
  const nearBottom = transcript.scrollHeight - transcript.scrollTop - transcript.clientHeight < 120;
  if (force || nearBottom) transcript.scrollTop = transcript.scrollHeight;
}

function hideEmptyState() {
  document.getElementById('empty-state')?.remove();
}

function userMessage(text) {
  hideEmptyState();
  const el = h(
    'article',
    { class: 'msg msg-user', 'aria-label': 'You' },
    h('div', { class: 'msg-role', 'aria-hidden': 'true' }, 'You'),
    h('div', { class: 'msg-body msg-text' }, text),
  );
  transcript.append(el);
  follow(true);
}

/** One assistant answer, built up event by event in arrival order. */
class AssistantTurn {
  constructor() {
    hideEmptyState();
    this.body = h('div', { class: 'msg-body' });
    this.el = h(
      'article',
      { class: 'msg msg-assistant', 'aria-label': 'Agent', 'aria-busy': 'true' },
      h('div', { class: 'msg-role', 'aria-hidden': 'true' }, 'Agent'),
      this.body,
    );
    this.text = null;
    this.sawText = false;
    /** @type {Map<string, {details: HTMLDetailsElement, status: HTMLElement, out: HTMLElement}>} */
    this.tools = new Map();
    /** @type {Map<string, HTMLElement>} */
    this.approvals = new Map();
    /** Approval cards by tool call id, so a decision made elsewhere (the dashboard) closes them. */
    /** @type {Map<string, (r: any) => void>} */
    this.settleApproval = new Map();
    transcript.append(this.el);
    follow(true);
  }

  /** Text goes into the paragraph after the last tool call, so the order on screen is the order of events. */
  appendText(t) {
    if (!t) return;
    if (!this.text) {
      this.text = h('p', { class: 'msg-text' });
      this.body.append(this.text);
    }
    this.text.append(document.createTextNode(t));
    this.sawText = true;
    follow();
  }

  block(el) {
    this.text = null;
    this.body.append(el);
    follow();
    return el;
  }

  toolCall(id, name, args) {
    const status = badge('running', 'info');
    const out = h('div', {});
    const details = /** @type {HTMLDetailsElement} */ (
      h(
        'details',
        { class: 'tool', 'data-tool-call': id },
        h('summary', {}, h('span', { class: 'hint' }, 'Tool call'), h('code', {}, name), status),
        h('div', { class: 'tool-body' }, h('h4', {}, 'Arguments'), h('pre', {}, prettyJson(parseMaybeJson(args))), out),
      )
    );
    this.tools.set(id, { details, status, out });
    this.block(details);
  }

  toolResult(r) {
    let t = this.tools.get(r.id);
    if (!t) {
      this.toolCall(r.id, r.name, r.arguments);
      t = /** @type {NonNullable<typeof t>} */ (this.tools.get(r.id));
    }
    this.settleApproval.get(r.id)?.(r);
    const label = r.status === 'ok' ? 'ok' : r.status;
    t.status.replaceWith(
      (t.status = badge(`${label}${Number.isFinite(r.duration_ms) ? ` · ${Math.round(r.duration_ms)} ms` : ''}`, toneOf(r.status))),
    );
    setChildren(
      t.out,
      h('h4', {}, r.ok ? 'Result' : 'Error'),
      h('pre', {}, r.ok ? prettyJson(r.output) : prettyJson(r.error ?? r.output ?? r.status)),
    );
    follow();
  }

  guardrail(g) {
    const what = `${g.layer} · ${g.action}`;
    const title = `${g.direction}${g.kinds?.length ? `: ${g.kinds.join(', ')}` : ''}`;
    let row = this.body.lastElementChild;
    if (!row || !row.classList.contains('badges'))
      row = this.block(h('div', { class: 'badges', role: 'group', 'aria-label': 'Guardrail events' }));
    row.append(badge(`guardrail: ${what}`, g.action === 'block' ? 'bad' : g.action === 'redact' ? 'warn' : 'info', title));
    row.append(h('span', { class: 'visually-hidden' }, ` (${title}) `));
  }

  approval(p) {
    if (this.approvals.has(p.approval_id)) return;
    const t = this.tools.get(p.tool_call_id);
    if (t) t.status.replaceWith((t.status = badge('awaiting approval', 'warn')));
    const reason = /** @type {HTMLInputElement} */ (
      h('input', { type: 'text', placeholder: 'reason (optional)', 'aria-label': `Reason for the ${p.skill} decision`, maxlength: '500' })
    );
    const approve = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'approve' }, 'Approve'));
    const deny = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'danger' }, 'Deny'));
    const status = h('p', { class: 'hint', role: 'status' });
    const actions = h('div', { class: 'approval-actions' }, reason, approve, deny);
    const card = h(
      'div',
      { class: 'approval', role: 'group', 'aria-label': `Approval needed for ${p.skill}`, 'data-approval': p.approval_id },
      h(
        'p',
        {},
        h('strong', {}, 'Approval needed: '),
        'the agent wants to run ',
        h('code', {}, p.skill),
        '. It waits until someone decides (expires ',
        timeEl(p.expires_at),
        ').',
      ),
      h('details', {}, h('summary', {}, 'Input'), h('pre', {}, prettyJson(p.input))),
      actions,
      status,
    );
    let decidedHere = false;
    this.settleApproval.set(p.tool_call_id, (r) => {
      if (decidedHere) return;
      const denied = r.status === 'denied';
      actions.replaceWith(h('p', {}, badge(denied ? 'denied' : 'approved', denied ? 'bad' : 'ok'), ' decided outside this page'));
      status.textContent = denied ? 'The call did not run.' : 'The call ran; its result is above.';
    });
    const decide = async (decision) => {
      decidedHere = true;
      approve.disabled = deny.disabled = true;
      status.textContent = 'Sending your decision…';
      try {
        const r = reason.value.trim();
        const res = await api(`/api/v1/approvals/${encodeURIComponent(p.approval_id)}`, {
          method: 'POST',
          body: { decision, ...(r ? { reason: r } : {}) },
        });
        // The buttons give way to the outcome, so the card reads as a record of what was decided.
        actions.replaceWith(h('p', {}, badge(res.status, toneOf(res.status)), res.reason ? ` Reason: ${res.reason}` : ''));
        status.textContent = `${res.status === 'approved' ? 'Approved' : 'Denied'}.${streaming ? ' The agent continues below.' : ' The agent resumes in the background; its answer is saved in this session.'}`;
      } catch (e) {
        decidedHere = false;
        status.textContent = '';
        status.append(errorBox(e, `Could not ${decision}`));
        // 409: someone else decided first; the buttons stay disabled.
        if (e.status !== 409) approve.disabled = deny.disabled = false;
      }
    };
    approve.addEventListener('click', () => void decide('approve'));
    deny.addEventListener('click', () => void decide('deny'));
    this.approvals.set(p.approval_id, card);
    // Focus stays where the user is; the card is announced through the log's live region and
    // its buttons are the previous tab stops before the message box.
    this.block(card);
  }

  error(err) {
    this.block(errorBox(err));
  }

  note(text) {
    this.block(h('p', { class: 'msg-meta' }, text));
  }

  finish(result) {
    this.el.setAttribute('aria-busy', 'false');
    if (!result) return;
    if (!this.sawText && result.response) this.appendText(result.response);
    if (result.pending_approval) this.approval(result.pending_approval);
    const u = result.usage;
    this.block(
      h(
        'p',
        { class: 'msg-meta' },
        [result.model, u ? `${u.prompt_tokens} + ${u.completion_tokens} tokens` : null].filter(Boolean).join(' · '),
      ),
    );
  }
}

function parseMaybeJson(v) {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

async function send(message) {
  userMessage(message);
  const turn = new AssistantTurn();
  const ac = new AbortController();
  streaming = ac;
  sendBtn.disabled = true;
  stopBtn.disabled = false;
  let finished = false;
  try {
    let res;
    try {
      res = await fetch('/api/v1/chat/stream', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...authHeaders() },
        body: JSON.stringify({ message, ...(sessionId ? { session_id: sessionId } : {}) }),
        signal: ac.signal,
        cache: 'no-store',
      });
    } catch (e) {
      if (e.name === 'AbortError') throw e;
      throw Object.assign(new Error(`Cannot reach the gateway (${e.message}).`), { status: 0 });
    }
    if (!res.ok) {
      const err = await errorFromResponse(res);
      reportApiError(err);
      if (err.code === 'session_not_found') {
        setSession('', '');
        err.message += ' A new session starts with your next message.';
      }
      turn.error(err);
      finished = true;
      return;
    }
    if (!res.body) throw new Error('The browser gave no response stream to read.');
    await readSse(res.body, (name, data) => {
      const d = /** @type {any} */ (data);
      switch (name) {
        case 'session':
          setSession(d.session_id, d.model);
          break;
        case 'delta':
          turn.appendText(d.text ?? '');
          break;
        case 'tool_call':
          turn.toolCall(d.id, d.name, d.arguments);
          break;
        case 'tool_result':
          turn.toolResult(d);
          break;
        case 'approval_required':
          turn.approval(d);
          break;
        case 'guardrail':
          turn.guardrail(d);
          break;
        case 'done':
          finished = true;
          if (d.usage) {
            usage.prompt += d.usage.prompt_tokens ?? 0;
            usage.completion += d.usage.completion_tokens ?? 0;
            showUsage();
          }
          if (d.model) $('model').textContent = d.model;
          turn.finish(d);
          break;
        case 'error':
          finished = true;
          turn.error(new Error(`${d.error ?? 'The agent failed'}${d.code ? ` (${d.code})` : ''}`));
          break;
        default:
          break; // unknown events are ignored, so newer servers stay compatible
      }
    });
    if (!finished) turn.error(new Error('The stream ended before the answer was complete. Try sending the message again.'));
  } catch (e) {
    if (e && e.name === 'AbortError') turn.note('Stopped. The partial answer above is not saved as complete.');
    else turn.error(e);
  } finally {
    turn.el.setAttribute('aria-busy', 'false');
    streaming = null;
    sendBtn.disabled = false;
    stopBtn.disabled = true;
  }
}

/** Re-renders a saved session (from ?session= or the last one in this tab). */
async function loadHistory(id) {
  try {
    const s = await api(`/api/v1/sessions/${encodeURIComponent(id)}`);
    setSession(s.id, s.model ?? undefined);
    let turn = null;
    const results = new Map();
    for (const m of s.messages ?? []) if (m.role === 'tool' && m.tool_call_id) results.set(m.tool_call_id, m);
    for (const m of s.messages ?? []) {
      if (m.role === 'user') {
        turn?.finish(null);
        turn = null;
        userMessage(m.content ?? '');
      } else if (m.role === 'assistant') {
        turn ??= new AssistantTurn();
        if (m.content) turn.appendText(m.content);
        for (const c of m.tool_calls ?? []) {
          turn.toolCall(c.id, c.name, c.arguments);
          const r = results.get(c.id);
          if (r) {
            const out = parseMaybeJson(r.content);
            const ok = (r.status ?? (out && out.ok === false ? 'error' : 'ok')) === 'ok';
            turn.toolResult({
              id: c.id,
              name: c.name,
              status: r.status ?? (ok ? 'ok' : 'error'),
              ok,
              output: out && typeof out === 'object' && 'output' in out ? out.output : out,
              error: out?.error,
              duration_ms: NaN,
            });
          }
        }
      }
    }
    turn?.finish(null);
    if ((s.messages ?? []).length === 0) return;
    transcript.append(h('p', { class: 'msg-meta' }, 'Earlier messages of this session. New messages continue it.'));
    follow(true);
  } catch (e) {
    if (e.status === 404) {
      setSession('', '');
      transcript.append(
        errorBox(new Error('That session does not exist (or belongs to another tenant). A new one starts with your next message.')),
      );
    } else {
      transcript.append(errorBox(e, 'Could not load the session'));
    }
  }
}

async function loadSkills() {
  const el = $('skills');
  try {
    const body = await api('/api/v1/skills');
    const skills = body.skills ?? [];
    if (skills.length === 0) return setChildren(el, h('p', { class: 'muted' }, 'No skills registered.'));
    setChildren(
      el,
      h(
        'ul',
        { class: 'skill-list' },
        skills.map((s) =>
          h(
            'li',
            {},
            h(
              'span',
              {},
              h('code', {}, s.name),
              ' ',
              s.allowed === false ? badge('blocked', 'bad', `missing: ${(s.missing_capabilities ?? []).join(', ')}`) : null,
            ),
            h('span', { class: 'desc' }, s.description),
          ),
        ),
      ),
    );
  } catch (e) {
    setChildren(el, errorBox(e, 'Could not load skills'));
  }
}

function newConversation() {
  streaming?.abort();
  setSession('', '–');
  usage.prompt = usage.completion = 0;
  showUsage();
  transcript.replaceChildren(
    h('div', { id: 'empty-state', class: 'empty-state' }, h('p', {}, 'New conversation. Your next message starts a new session.')),
  );
  const url = new URL(location.href);
  if (url.searchParams.has('session')) {
    url.searchParams.delete('session');
    history.replaceState(null, '', url);
  }
  input.focus();
}

function main() {
  mountKeyPanel({ onChange: () => void loadSkills() });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value;
    if (!text.trim() || streaming) return;
    input.value = '';
    void send(text);
  });
  input.addEventListener('keydown', (e) => {
    // Enter sends, Shift+Enter is a new line; never send in the middle of an IME composition.
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing && !e.altKey && !e.ctrlKey && !e.metaKey) {
      e.preventDefault();
      if (!streaming) form.requestSubmit();
    }
  });
  stopBtn.addEventListener('click', () => streaming?.abort());
  $('new-session').addEventListener('click', newConversation);
  for (const b of document.querySelectorAll('button.example')) {
    b.addEventListener('click', () => {
      input.value = b.textContent ?? '';
      input.focus();
    });
  }
  void loadSkills();
  const fromUrl = new URL(location.href).searchParams.get('session');
  let stored = '';
  try {
    stored = sessionStorage.getItem(SESSION_STORAGE) ?? '';
  } catch {
    /* ignore */
  }
  const id = fromUrl || stored;
  if (id) void loadHistory(id);
  if (!getApiKey()) $('key-status').textContent = 'No key set. Needed only when tenants are configured.';
}

main();
