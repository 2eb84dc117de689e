// The control-plane dashboard: readiness, live traffic from /metrics, pending approvals (with
// approve/deny), skills, plugins, recent sessions and the audit log. Each section loads on its
// own, so one failing endpoint shows its error in its own card and the others keep working.
import {
  api,
  badge,
  errorBox,
  formatCount,
  formatDuration,
  formatRate,
  h,
  mountKeyPanel,
  prettyJson,
  setChildren,
  timeEl,
  toneOf,
} from './common.js';
import { barList, gauge, sparkline } from './charts.js';
import { histogramBuckets, histogramQuantile, increase, increaseBy, parsePrometheus, sumBy } from './prom.js';

// ?refresh=N (1..60 seconds) changes the scrape interval, for a wall screen or a test; lists
// refresh at twice the interval.
const refreshParam = Number(new URL(location.href).searchParams.get('refresh'));
const METRICS_EVERY_MS = Number.isInteger(refreshParam) && refreshParam >= 1 && refreshParam <= 60 ? refreshParam * 1000 : 5000;
const LISTS_EVERY_MS = METRICS_EVERY_MS * 2;
const HISTORY = 60; // samples kept for the sparklines: 5 minutes at one scrape per 5 s

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/** Toast line under the heading (role=status), cleared after a while. */
let toastTimer = 0;
function toast(text, bad = false) {
  const el = $('toast');
  el.textContent = text;
  el.classList.toggle('bad', bad);
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (el.textContent = ''), 8000);
}

/** A table with a header row; rows are arrays of cells (strings or nodes). Cells carry their
 *  column name so narrow screens can show each row as a labelled card (see .stack in ui.css). */
function table(caption, headers, rows, { numeric = [] } = {}) {
  return h(
    'div',
    { class: 'table-wrap', role: 'region', 'aria-label': caption, tabindex: '0' },
    h(
      'table',
      { class: 'stack' },
      h('caption', { class: 'visually-hidden' }, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          headers.map((x, i) => h('th', { scope: 'col', class: numeric.includes(i) ? 'num' : null }, x)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            r.map((c, i) => h('td', { class: numeric.includes(i) ? 'num' : null, 'data-label': headers[i] || null }, c)),
          ),
        ),
      ),
    ),
  );
}

/** Section loader: shows the error in the section itself instead of failing silently. */
async function load(sectionId, fn) {
  const el = $(sectionId);
  try {
    await fn(el);
  } catch (e) {
    setChildren(el, errorBox(e, 'Could not load'));
  } finally {
    el.removeAttribute('aria-busy');
  }
}

// ---------------------------------------------------------------- readiness

function checkItem(c) {
  return h(
    'li',
    { 'data-check': c.id },
    h(
      'div',
      { class: 'check-head' },
      badge(c.status, toneOf(c.status)),
      h('span', { class: 'check-title' }, c.title),
      h('span', { class: 'hint' }, c.category),
    ),
    h('p', { class: 'check-detail' }, c.detail),
    c.next_action ? h('p', { class: 'next' }, h('strong', {}, 'Next: '), c.next_action) : null,
  );
}

// Disclosure state survives the periodic re-render, so an operator reading the list keeps it open.
const openState = new Map();
function disclosure(key, summary, content, defaultOpen = false) {
  const d = /** @type {HTMLDetailsElement} */ (
    h('details', { open: openState.get(key) ?? defaultOpen }, h('summary', {}, summary), content)
  );
  d.addEventListener('toggle', () => openState.set(key, d.open));
  return d;
}

async function loadReadiness(el) {
  const r = await api('/api/v1/enterprise/readiness');
  const order = { attention: 0, available: 1, active: 2 };
  const checks = [...(r.checks ?? [])].sort(
    (a, b) => (order[a.status] ?? 3) - (order[b.status] ?? 3) || String(a.category).localeCompare(String(b.category)),
  );
  const counts = { active: 0, available: 0, attention: 0 };
  for (const c of checks) counts[c.status] = (counts[c.status] ?? 0) + 1;
  const attention = checks.filter((c) => c.status === 'attention');
  const rt = r.runtime ?? {};
  const actions = r.next_actions ?? [];
  setChildren(
    el,
    h(
      'div',
      { class: 'readiness-score' },
      gauge(r.score, r.posture),
      h('div', {}, badge(String(r.posture ?? 'unknown').replace(/_/g, ' '), r.posture === 'ready' ? 'ok' : 'warn')),
      h('div', { class: 'hint' }, `version ${r.version ?? '?'}`),
    ),
    h(
      'div',
      {},
      h(
        'ul',
        { class: 'runtime', 'aria-label': 'Runtime' },
        h(
          'li',
          {},
          h('span', { class: 'hint' }, 'Skills'),
          h('strong', { 'data-testid': 'skills-registered' }, String(rt.skills_registered ?? '–')),
        ),
        h('li', {}, h('span', { class: 'hint' }, 'Active sessions'), h('strong', {}, String(rt.active_sessions ?? '–'))),
        h('li', {}, h('span', { class: 'hint' }, 'Connections'), h('strong', {}, String(rt.active_connections ?? '–'))),
        h('li', {}, h('span', { class: 'hint' }, 'Uptime'), h('strong', {}, formatDuration(Math.round(rt.uptime_seconds ?? NaN), 'whole'))),
      ),
      h(
        'div',
        { class: 'checks-summary' },
        badge(`${counts.active} active`, 'ok'),
        badge(`${counts.available} available`, 'info'),
        badge(`${counts.attention} need attention`, counts.attention ? 'warn' : 'neutral'),
      ),
      attention.length
        ? h('div', {}, h('h3', { class: 'attention-h' }, 'Needs attention'), h('ul', { class: 'checks' }, attention.map(checkItem)))
        : h('p', { class: 'muted' }, 'No check needs attention.'),
      disclosure(
        'checks',
        `All checks (${checks.length})`,
        h('ul', { class: 'checks' }, checks.filter((c) => c.status !== 'attention').map(checkItem)),
      ),
      actions.length
        ? disclosure(
            'actions',
            `Suggested next actions (${actions.length})`,
            h(
              'ol',
              { class: 'next-actions' },
              actions.map((a) => h('li', {}, a)),
            ),
          )
        : null,
    ),
  );
}

// ---------------------------------------------------------------- metrics

const UI_ROUTE = /^\/(dashboard|playground)(\/|$)|^\/metrics$/;
const isApiRoute = (l) => l.surface === 'gateway' && !UI_ROUTE.test(l.route ?? '');

const history = { rate: [], p95: [], errors: [], guardrails: [], turns: [] };
let prevScrape = null;
let prevAt = 0;

function push(arr, v) {
  arr.push(v);
  if (arr.length > HISTORY) arr.shift();
}

function stat(label, value, sub, chart, testid) {
  return h(
    'div',
    { class: 'stat', 'data-testid': testid },
    h('div', { class: 'stat-label' }, label),
    h('div', { class: 'stat-value' }, value),
    h('div', { class: 'stat-sub' }, sub),
    chart,
  );
}

async function loadMetrics(el) {
  const text = await api('/metrics', { accept: 'text/plain' });
  const cur = parsePrometheus(typeof text === 'string' ? text : '');
  const now = performance.now();
  const dt = prevScrape ? (now - prevAt) / 1000 : NaN;
  const reqName = 'vigil_http_request_duration_seconds';

  const totalReq = sumBy(cur, `${reqName}_count`, [], isApiRoute)[0]?.value ?? 0;
  const rate = prevScrape ? increase(prevScrape, cur, `${reqName}_count`, isApiRoute) / dt : NaN;
  const errRate = prevScrape ? increase(prevScrape, cur, `${reqName}_count`, (l) => isApiRoute(l) && /^5/.test(l.status ?? '')) / dt : NaN;
  const windowBuckets = histogramBuckets(prevScrape, cur, reqName, isApiRoute);
  const allBuckets = histogramBuckets(null, cur, reqName, isApiRoute);
  const p50 = histogramQuantile(0.5, windowBuckets);
  const p95 = histogramQuantile(0.95, windowBuckets);
  const p95All = histogramQuantile(0.95, allBuckets);
  const guardHits = sumBy(cur, 'vigil_guardrail_hits_total', ['layer', 'action']);
  const guardTotal = guardHits.reduce((a, g) => a + g.value, 0);
  const guardRate = prevScrape ? increase(prevScrape, cur, 'vigil_guardrail_hits_total') / dt : NaN;
  const turnsRate = prevScrape ? increase(prevScrape, cur, 'vigil_agent_turns_total') / dt : NaN;
  const turns = sumBy(cur, 'vigil_agent_turns_total', ['outcome']);
  const skills = sumBy(cur, 'vigil_skill_calls_total', ['skill', 'outcome']);
  const tokens = sumBy(cur, 'vigil_llm_tokens_total', ['type']);
  const llmP95 = histogramQuantile(0.95, histogramBuckets(null, cur, 'vigil_llm_request_duration_seconds'));

  if (prevScrape) {
    push(history.rate, rate);
    push(history.p95, p95);
    push(history.errors, errRate);
    push(history.guardrails, guardRate);
    push(history.turns, turnsRate);
  }
  prevScrape = cur;
  prevAt = now;

  // Per-route numbers over the last interval, plus totals since the process started.
  const routeWindow = increaseBy(null, cur, `${reqName}_count`, ['method', 'route'], isApiRoute);
  const routes = routeWindow.slice(0, 8).map((r) => {
    const only = (l) => isApiRoute(l) && l.route === r.labels.route && l.method === r.labels.method;
    return [
      h('code', {}, `${r.labels.method} ${r.labels.route}`),
      formatCount(r.value),
      formatDuration(histogramQuantile(0.5, histogramBuckets(null, cur, reqName, only))),
      formatDuration(histogramQuantile(0.95, histogramBuckets(null, cur, reqName, only))),
    ];
  });

  const pending = !Number.isFinite(dt);
  setChildren(
    el,
    h(
      'div',
      { class: 'stats' },
      stat(
        'Requests',
        pending ? '…' : formatRate(rate),
        `${formatCount(totalReq)} since start · pages and /metrics excluded`,
        sparkline(history.rate, { label: 'Request rate', format: formatRate }),
        'stat-rate',
      ),
      stat(
        'Latency p95',
        Number.isFinite(p95) ? formatDuration(p95) : pending ? '…' : 'idle',
        Number.isFinite(p50)
          ? `p50 ${formatDuration(p50)} · since start p95 ${formatDuration(p95All)}`
          : `since start p95 ${formatDuration(p95All)}`,
        sparkline(history.p95, { label: 'Latency p95', format: formatDuration, tone: 'warn' }),
        'stat-latency',
      ),
      stat(
        'Server errors',
        pending ? '…' : formatRate(errRate),
        '5xx answers',
        sparkline(history.errors, { label: 'Server error rate', format: formatRate, tone: 'bad' }),
        'stat-errors',
      ),
      stat(
        'Guardrail hits',
        formatCount(guardTotal),
        pending ? 'since start' : `${formatRate(guardRate)} now`,
        sparkline(history.guardrails, { label: 'Guardrail hit rate', format: formatRate, tone: 'bad' }),
        'stat-guardrails',
      ),
      stat(
        'Agent turns',
        formatCount(turns.reduce((a, t) => a + t.value, 0)),
        `${tokens.map((t) => `${formatCount(t.value)} ${t.labels.type}`).join(' · ') || 'no tokens yet'}${Number.isFinite(llmP95) ? ` · LLM p95 ${formatDuration(llmP95)}` : ''}`,
        sparkline(history.turns, { label: 'Agent turn rate', format: formatRate }),
        'stat-turns',
      ),
    ),
    h(
      'div',
      { class: 'breakdowns' },
      h(
        'div',
        {},
        h('h3', {}, 'Guardrail hits by layer'),
        barList(
          guardHits.map((g) => ({
            label: `${g.labels.layer} · ${g.labels.action}`,
            value: g.value,
            tone: g.labels.action === 'block' ? 'bad' : g.labels.action === 'redact' ? 'warn' : 'info',
          })),
          { label: 'Guardrail hits by layer and action', format: formatCount, empty: 'No guardrail hits yet.' },
        ),
      ),
      h(
        'div',
        {},
        h('h3', {}, 'Skill calls'),
        barList(
          skills.map((s) => ({
            label: `${s.labels.skill} · ${s.labels.outcome}`,
            value: s.value,
            tone: toneOf(s.labels.outcome) === 'neutral' ? 'accent' : toneOf(s.labels.outcome),
          })),
          { label: 'Skill calls by skill and outcome', format: formatCount, empty: 'No skill calls yet.' },
        ),
      ),
      h(
        'div',
        {},
        h('h3', {}, 'Agent turns by outcome'),
        barList(
          turns.map((t) => ({
            label: t.labels.outcome,
            value: t.value,
            tone: toneOf(t.labels.outcome) === 'neutral' ? 'accent' : toneOf(t.labels.outcome),
          })),
          { label: 'Agent turns by outcome', format: formatCount, empty: 'No agent turns yet.' },
        ),
      ),
    ),
    routes.length
      ? h(
          'div',
          { class: 'routes' },
          h('h3', {}, 'Busiest routes since start'),
          table('Busiest routes', ['Route', 'Requests', 'p50', 'p95'], routes, { numeric: [1, 2, 3] }),
        )
      : null,
  );
}

// ---------------------------------------------------------------- approvals

/** Ids of the approvals on screen; null forces the next load to re-render. */
let shownApprovals = null;

async function decide(a, decision, reasonInput, buttons) {
  for (const b of buttons) b.disabled = true;
  try {
    const reason = reasonInput.value.trim();
    await api(`/api/v1/approvals/${encodeURIComponent(a.id)}`, { method: 'POST', body: { decision, ...(reason ? { reason } : {}) } });
    toast(`${decision === 'approve' ? 'Approved' : 'Denied'}: ${a.skill} (${a.id.slice(0, 8)})`);
    shownApprovals = null;
    await load('approvals', loadApprovals);
    $('approvals-h').focus();
  } catch (e) {
    toast(`Could not ${decision} ${a.skill}: ${e.message}`, true);
    for (const b of buttons) b.disabled = false;
  }
}

async function loadApprovals(el) {
  let body;
  try {
    body = await api('/api/v1/approvals?status=pending');
  } catch (e) {
    shownApprovals = null; // the error replaces the table; the next success must redraw it
    throw e;
  }
  const list = body.approvals ?? [];
  $('approvals-count').textContent = list.length ? String(list.length) : '';
  // Re-render only when the set changes, so typing a reason or focus on a button survives polling.
  const key = list.map((a) => a.id).join(',');
  if (key === shownApprovals) return;
  shownApprovals = key;
  if (list.length === 0) {
    setChildren(el, h('p', { class: 'muted' }, 'No approvals waiting. Skills under an approval policy pause here until someone decides.'));
    return;
  }
  const rows = list.map((a) => {
    const reason = /** @type {HTMLInputElement} */ (
      h('input', {
        type: 'text',
        'aria-label': `Reason for ${a.skill} ${a.id.slice(0, 8)}`,
        placeholder: 'reason (optional)',
        maxlength: '500',
      })
    );
    const approve = /** @type {HTMLButtonElement} */ (
      h('button', { type: 'button', class: 'approve', 'aria-label': `Approve ${a.skill} ${a.id.slice(0, 8)}` }, 'Approve')
    );
    const deny = /** @type {HTMLButtonElement} */ (
      h('button', { type: 'button', class: 'danger', 'aria-label': `Deny ${a.skill} ${a.id.slice(0, 8)}` }, 'Deny')
    );
    approve.addEventListener('click', () => decide(a, 'approve', reason, [approve, deny]));
    deny.addEventListener('click', () => decide(a, 'deny', reason, [approve, deny]));
    return [
      h('code', {}, a.skill),
      h('details', {}, h('summary', {}, 'input'), h('pre', {}, prettyJson(a.input))),
      h('code', { title: a.session_id }, String(a.session_id ?? '').slice(0, 8)),
      a.tenant ?? 'local',
      timeEl(a.created_at),
      timeEl(a.expires_at),
      h('div', { class: 'approval-actions', 'data-approval': a.id }, reason, approve, deny),
    ];
  });
  setChildren(el, table('Pending approvals', ['Skill', 'Input', 'Session', 'Tenant', 'Requested', 'Expires', 'Decision'], rows));
}

// ---------------------------------------------------------------- skills, plugins, sessions

async function loadSkills(el) {
  const body = await api('/api/v1/skills');
  const skills = body.skills ?? [];
  if (skills.length === 0) return setChildren(el, h('p', { class: 'muted' }, 'No skills registered.'));
  const blocked = skills.filter((s) => s.allowed === false).length;
  setChildren(
    el,
    h(
      'p',
      { class: 'hint' },
      `${skills.length} skills, ${blocked} blocked by the permission set`,
      body.permission_set ? [' ', h('code', {}, body.permission_set)] : null,
      body.capabilities ? ` (grants ${body.capabilities.join(', ') || 'nothing'})` : null,
    ),
    h(
      'ul',
      { class: 'skill-grid scroll-box', 'aria-label': 'Skills' },
      skills.map((s) =>
        h(
          'li',
          { 'data-skill': s.name },
          h(
            'div',
            { class: 'skill-head' },
            h('code', {}, s.name),
            s.allowed === false ? badge('blocked', 'bad') : badge('allowed', 'ok'),
            s.runtime === 'wasm' ? badge('wasm', 'neutral') : null,
          ),
          h('span', { class: 'desc' }, s.description),
          h(
            'span',
            { class: 'caps' },
            `needs ${(s.capabilities ?? []).join(', ') || 'nothing'}`,
            s.allowed === false && s.missing_capabilities?.length ? ` · missing ${s.missing_capabilities.join(', ')}` : '',
            s.plugin ? ` · from ${s.plugin}` : '',
          ),
        ),
      ),
    ),
  );
}

async function loadPlugins(el) {
  const body = await api('/api/v1/plugins');
  const rank = { error: 0, disabled: 1, loaded: 2 };
  // Problems first: the list is long and an operator opens it to find what is broken.
  const plugins = [...(body.plugins ?? [])].sort((a, b) => (rank[a.status] ?? 3) - (rank[b.status] ?? 3) || a.id.localeCompare(b.id));
  const bad = plugins.filter((p) => p.status === 'error').length;
  setChildren(
    el,
    h('p', { class: 'hint' }, `${plugins.length} plugins, ${bad} in error`),
    h(
      'div',
      { class: 'scroll-box' },
      table(
        'Plugins',
        ['Plugin', 'Kind', 'Status'],
        plugins.map((p) => [
          h(
            'div',
            {},
            h('code', {}, p.id),
            p.version ? h('span', { class: 'hint' }, ` ${p.version}`) : null,
            p.error ? h('div', { class: 'error-text detail' }, p.error) : null,
          ),
          p.kind,
          badge(p.status, toneOf(p.status), p.error ?? undefined),
        ]),
      ),
    ),
  );
}

async function loadSessions(el) {
  const body = await api('/api/v1/sessions?limit=10');
  const sessions = body.sessions ?? [];
  if (sessions.length === 0) return setChildren(el, h('p', { class: 'muted' }, 'No sessions yet. Start one in the playground.'));
  setChildren(
    el,
    table(
      'Recent sessions',
      ['Session', 'Title', 'Model', 'Started', 'Last activity', ''],
      sessions.map((s) => [
        h('code', { title: s.id }, s.id.slice(0, 8)),
        s.title ?? h('span', { class: 'muted' }, 'untitled'),
        s.model ?? '–',
        timeEl(s.created_at),
        timeEl(s.updated_at),
        h(
          'a',
          {
            href: `/playground?session=${encodeURIComponent(s.id)}`,
            'aria-label': `Continue session ${s.id.slice(0, 8)} in the playground`,
          },
          'Continue',
        ),
      ]),
    ),
  );
}

// ---------------------------------------------------------------- audit

const seenTypes = new Set();

const AUDIT_PAGE_SIZE = 20;
let auditShown = AUDIT_PAGE_SIZE;
const AUDIT_PAGES = 5;

function auditQuery() {
  const f = /** @type {HTMLFormElement} */ ($('audit-filters'));
  const data = new FormData(f);
  const q = new URLSearchParams();
  const type = String(data.get('type') ?? '').trim();
  const outcome = String(data.get('outcome') ?? '');
  if (type) q.set('type', type);
  if (outcome) q.set('outcome', outcome);
  for (const k of ['from', 'to']) {
    const v = String(data.get(k) ?? '');
    // datetime-local is local time without a zone; the API wants an instant.
    if (v) q.set(k, new Date(v).toISOString());
  }
  return { q, hideHttp: data.get('hide_http') === 'on' && !type };
}

async function loadAudit(el) {
  const { q, hideHttp } = auditQuery();
  // Newest first from the server: a busy gateway writes thousands of request events an hour, and
  // what an operator opens this page for is what just happened.
  const ranged = q.has('from') || q.has('to');
  q.set('order', 'desc');
  q.set('limit', '1000');
  const events = [];
  let cursor = null;
  for (let page = 0; page < AUDIT_PAGES; page++) {
    if (cursor) {
      q.set('cursor', cursor);
      q.delete('order'); // a cursor carries its direction
    }
    const body = await api(`/api/v1/audit/events?${q}`);
    events.push(...(body.events ?? []));
    cursor = body.next_cursor ?? null;
    const matchingSoFar = hideHttp ? events.filter((e) => e.type !== 'http.request').length : events.length;
    if (!cursor || matchingSoFar >= auditShown) break;
  }
  for (const e of events) seenTypes.add(e.type);
  setChildren(
    $('audit-types'),
    [...seenTypes].sort().map((t) => h('option', { value: t })),
  );
  const matching = hideHttp ? events.filter((e) => e.type !== 'http.request') : events;
  const shown = matching.slice(0, auditShown);
  const scope = `${ranged ? ' in the chosen range' : ''}${hideHttp ? ', HTTP request events hidden' : ''}`;
  if (shown.length === 0) return setChildren(el, h('p', { class: 'muted' }, `No audit events${scope}.`));
  const more = matching.length > shown.length || cursor !== null;
  setChildren(
    el,
    h('p', { class: 'hint' }, `Newest ${shown.length} ${more ? '' : `of ${matching.length} `}events${scope}, newest first.`),
    table(
      'Audit events',
      ['Time', 'Type', 'Outcome', 'Tenant', 'Actor', 'Detail'],
      shown.map((e) => [
        timeEl(e.ts),
        h('code', {}, e.type),
        badge(e.outcome, toneOf(e.outcome)),
        e.tenant ?? 'local',
        e.actor ?? '–',
        h('code', { class: 'detail' }, prettyJson(e.detail ?? {}, 240).replace(/\s*\n\s*/g, ' ')),
      ]),
    ),
    more
      ? h(
          'button',
          {
            type: 'button',
            class: 'secondary more',
            onclick: () => {
              auditShown += AUDIT_PAGE_SIZE;
              void load('audit', loadAudit);
            },
          },
          `Show ${AUDIT_PAGE_SIZE} older events`,
        )
      : null,
  );
}

// ---------------------------------------------------------------- refresh loop

let paused = false;
let lastLists = 0;

async function refreshLists() {
  lastLists = Date.now();
  await Promise.all([
    load('readiness', loadReadiness),
    load('approvals', loadApprovals),
    load('skills', loadSkills),
    load('plugins', loadPlugins),
    load('sessions', loadSessions),
    load('audit', loadAudit),
  ]);
}

async function tick() {
  if (paused || document.hidden) return;
  const jobs = [load('traffic', loadMetrics)];
  if (Date.now() - lastLists >= LISTS_EVERY_MS - 100) jobs.push(refreshLists());
  await Promise.all(jobs);
  $('live-status').textContent = `Updated ${new Date().toLocaleTimeString()}`;
}

function main() {
  mountKeyPanel({ onChange: () => void refreshAll() });
  $('metrics-interval').textContent = String(METRICS_EVERY_MS / 1000);
  $('approvals-h').setAttribute('tabindex', '-1');
  const toggle = $('live-toggle');
  toggle.addEventListener('click', () => {
    paused = !paused;
    toggle.setAttribute('aria-pressed', String(paused));
    toggle.textContent = paused ? 'Resume updates' : 'Pause updates';
    $('live-status').textContent = paused ? 'Paused' : 'Resuming…';
    if (!paused) void tick();
  });
  const filters = /** @type {HTMLFormElement} */ ($('audit-filters'));
  filters.addEventListener('submit', (e) => {
    e.preventDefault();
    auditShown = AUDIT_PAGE_SIZE;
    void load('audit', loadAudit);
  });
  filters.addEventListener('reset', () =>
    setTimeout(() => {
      auditShown = AUDIT_PAGE_SIZE;
      void load('audit', loadAudit);
    }, 0),
  );
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) void tick();
  });
  void refreshAll();
  setInterval(() => void tick(), METRICS_EVERY_MS);
}

async function refreshAll() {
  lastLists = 0;
  shownApprovals = null;
  await tick();
}

main();
