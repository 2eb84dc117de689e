// Shared by the dashboard and the playground: the API client (key handling, readable errors),
// a tiny DOM builder that only ever sets text (so nothing from the API is parsed as HTML), the
// API-key panel in the page header and small formatters.

const KEY_STORAGE = 'vigil.apiKey';
/** Fallback when sessionStorage is unavailable (privacy modes). */
let memoryKey = '';

/** An API failure in words a person can act on. */
export class ApiError extends Error {
  /**
   * @param {number} status HTTP status, 0 when the gateway could not be reached
   * @param {string} code error code from the body ("unauthorized", "network_error", ...)
   * @param {string} message
   */
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export function getApiKey() {
  try {
    return sessionStorage.getItem(KEY_STORAGE) ?? memoryKey;
  } catch {
    return memoryKey;
  }
}

export function setApiKey(key) {
  try {
    if (key) sessionStorage.setItem(KEY_STORAGE, key);
    else sessionStorage.removeItem(KEY_STORAGE);
  } catch {
    /* storage disabled: the key lives only for this page view */
  }
  memoryKey = key;
}

export function authHeaders() {
  const key = getApiKey();
  return key ? { authorization: `Bearer ${key}` } : {};
}

const listeners = new Set();
/** Called with every ApiError so the page can react (e.g. open the key panel on 401). */
export function onApiError(fn) {
  listeners.add(fn);
}
export function reportApiError(err) {
  for (const fn of listeners) fn(err);
}

/** Turns a non-2xx response into an ApiError, reading the gateway's {error, code} body. */
export async function errorFromResponse(res) {
  let code = `http_${res.status}`;
  let message = '';
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text);
    if (body && typeof body.error === 'string') message = body.error;
    if (body && typeof body.code === 'string') code = body.code;
  } catch {
    message = text.trim().slice(0, 200);
  }
  if (res.status === 401) {
    message = getApiKey()
      ? `The API key was rejected (${message || 'unauthorized'}). Check it in the API key panel.`
      : `This gateway requires an API key. Enter your tenant key in the API key panel. (${message || 'unauthorized'})`;
  } else if (res.status === 429) {
    const retry = res.headers.get('retry-after');
    message = `${message || 'Too many requests'}${retry ? ` — retry in ${retry} s` : ''}`;
  } else if (!message) {
    message = `The gateway answered ${res.status} ${res.statusText || ''}`.trim();
  }
  return new ApiError(res.status, code, message);
}

/**
 * fetch() against the gateway with the stored key; resolves to parsed JSON (or text for
 * non-JSON), rejects with an ApiError whose message can be shown as is.
 */
export async function api(path, { method = 'GET', body, signal, accept = 'application/json' } = {}) {
  /** @type {Record<string, string>} */
  const headers = { accept, ...authHeaders() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), signal, cache: 'no-store' });
  } catch (e) {
    if (e && e.name === 'AbortError') throw e;
    const err = new ApiError(0, 'network_error', `Cannot reach the gateway (${e && e.message ? e.message : 'network error'}).`);
    reportApiError(err);
    throw err;
  }
  if (!res.ok) {
    const err = await errorFromResponse(res);
    reportApiError(err);
    throw err;
  }
  const type = res.headers.get('content-type') ?? '';
  return type.includes('json') ? res.json() : res.text();
}

/**
 * Element builder. Strings become text nodes; attributes starting with "on" become listeners;
 * `false`/`null`/`undefined` attributes are skipped. Never uses innerHTML.
 * @returns {HTMLElement}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs ?? {})) {
    if (v === false || v === null || v === undefined) continue;
    if (k.startsWith('on') && typeof v === 'function') el.addEventListener(k.slice(2), v);
    else if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = String(v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** Replaces an element's children. */
export function setChildren(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/** A readable inline error (role=alert so assistive tech announces it). */
export function errorBox(err, prefix = '') {
  const msg = err instanceof Error ? err.message : String(err);
  return h('p', { class: 'error', role: 'alert' }, prefix ? `${prefix}: ${msg}` : msg);
}

/** Wires the header's API-key form; opens it and explains when the gateway answers 401. */
export function mountKeyPanel({ onChange } = {}) {
  const panel = /** @type {HTMLDetailsElement|null} */ (document.getElementById('key-panel'));
  const form = /** @type {HTMLFormElement|null} */ (document.getElementById('key-form'));
  const input = /** @type {HTMLInputElement|null} */ (document.getElementById('api-key'));
  const status = document.getElementById('key-status');
  const clear = document.getElementById('key-clear');
  if (!panel || !form || !input || !status || !clear) return;
  const describe = () => {
    const key = getApiKey();
    status.textContent = key
      ? `Using key ${key.slice(0, 8)}… for this browser tab.`
      : 'No key set. Needed only when tenants are configured.';
    panel.classList.toggle('has-key', Boolean(key));
  };
  input.value = getApiKey();
  describe();
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    setApiKey(input.value.trim());
    describe();
    onChange?.();
  });
  clear.addEventListener('click', () => {
    input.value = '';
    setApiKey('');
    describe();
    onChange?.();
  });
  onApiError((err) => {
    if (err.status !== 401) return;
    panel.open = true;
    status.textContent = err.message;
    status.classList.add('error-text');
    if (document.activeElement === document.body) input.focus();
  });
  form.addEventListener('input', () => status.classList.remove('error-text'));
}

const rtf = typeof Intl !== 'undefined' && Intl.RelativeTimeFormat ? new Intl.RelativeTimeFormat('en', { numeric: 'auto' }) : null;

/** "3 min ago" / "in 4 min" for ISO timestamps; the absolute time goes in a title attribute. */
export function relativeTime(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) return String(iso ?? '');
  const s = Math.round((t - now) / 1000);
  const abs = Math.abs(s);
  if (!rtf) return new Date(t).toLocaleString();
  if (abs < 45) return rtf.format(s, 'second');
  if (abs < 2700) return rtf.format(Math.round(s / 60), 'minute');
  if (abs < 86400 * 1.5) return rtf.format(Math.round(s / 3600), 'hour');
  return rtf.format(Math.round(s / 86400), 'day');
}

/** <time> with relative text and the exact timestamp on hover. */
export function timeEl(iso) {
  const d = new Date(iso);
  return h(
    'time',
    { datetime: Number.isNaN(d.getTime()) ? null : d.toISOString(), title: Number.isNaN(d.getTime()) ? null : d.toLocaleString() },
    relativeTime(iso),
  );
}

/** @param {'whole'} [whole] whole seconds below two minutes (for uptimes) */
export function formatDuration(seconds, whole) {
  if (!Number.isFinite(seconds)) return '–';
  if (whole && seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 0.001) return `${(seconds * 1e6).toFixed(0)} µs`;
  if (seconds < 1) return `${(seconds * 1000).toFixed(seconds < 0.01 ? 1 : 0)} ms`;
  if (seconds < 120) return `${seconds.toFixed(seconds < 10 ? 2 : 1)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 172800) return `${(seconds / 3600).toFixed(1)} h`;
  return `${(seconds / 86400).toFixed(1)} d`;
}

export function formatRate(perSecond) {
  if (!Number.isFinite(perSecond)) return '–';
  if (perSecond === 0) return '0/s';
  if (perSecond < 0.1) return `${(perSecond * 60).toFixed(1)}/min`;
  return `${perSecond < 10 ? perSecond.toFixed(2) : perSecond.toFixed(0)}/s`;
}

export function formatCount(n) {
  if (!Number.isFinite(n)) return '–';
  if (Math.abs(n) >= 1e6) return `${(n / 1e6).toFixed(1)} M`;
  if (Math.abs(n) >= 1e4) return `${(n / 1e3).toFixed(1)} k`;
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** JSON for display, shortened so one huge tool output cannot freeze the page. */
export function prettyJson(v, max = 20000) {
  let s;
  try {
    s = typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  } catch {
    s = String(v);
  }
  if (s === undefined) s = String(v);
  return s.length > max ? `${s.slice(0, max)}\n… (${s.length - max} more characters)` : s;
}

/** A status word as a coloured badge; the word itself carries the meaning (not only colour). */
export function badge(text, tone = 'neutral', title) {
  return h('span', { class: `badge badge-${tone}`, title }, text);
}

const TONES = {
  active: 'ok',
  loaded: 'ok',
  ok: 'ok',
  success: 'ok',
  approved: 'ok',
  ready: 'ok',
  healthy: 'ok',
  allow: 'ok',
  available: 'info',
  info: 'info',
  pending: 'warn',
  log: 'info',
  attention: 'warn',
  degraded: 'warn',
  redact: 'warn',
  disabled: 'neutral',
  expired: 'neutral',
  aborted: 'neutral',
  error: 'bad',
  failure: 'bad',
  denied: 'bad',
  blocked: 'bad',
  block: 'bad',
  invalid_args: 'bad',
  unknown_skill: 'bad',
  unhealthy: 'bad',
};
export function toneOf(status) {
  return TONES[String(status)] ?? 'neutral';
}
