// What the k6 scripts share: their environment, the target's thread model, the checks of an answer, the metrics
// and the end-of-test summary. Local module: no jslib download, runs offline.
import http from 'k6/http';
import exec from 'k6/execution';
import { Counter, Rate, Trend } from 'k6/metrics';

export function env(name, dflt) {
  const v = __ENV[name];
  return v === undefined || v === '' ? dflt : v;
}

export function envNumber(name, dflt) {
  const v = Number(env(name, dflt));
  if (!isFinite(v)) throw new Error(`${name} must be a number, got ${__ENV[name]}`);
  return v;
}

export function envBool(name, dflt) {
  const v = String(env(name, dflt)).toLowerCase();
  return v === 'true' || v === '1' || v === 'yes' || v === 'on';
}

// BASE_URL without a trailing slash.
export function baseUrl() {
  return env('BASE_URL', 'http://localhost:8080').replace(/\/$/, '');
}

// The trend statistics every script's summary lists.
export const TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

// The metrics of a script that measures one kind of request: errors (a failed check), requests, response_time.
// Call it in the init context (k6 creates metrics only there).
export function requestMetrics() {
  return { errors: new Rate('errors'), requests: new Counter('requests'), responseTime: new Trend('response_time', true) };
}

// Tags every sample this VU emits (http_*, checks, custom metrics) with what it measured.
export function tagVu(info) {
  exec.vu.metrics.tags.model = info.model;
  exec.vu.metrics.tags.server = info.server;
  exec.vu.metrics.tags.flavour = info.flavour;
}

// Reads what the app says it runs on, once, in setup(). An app without the endpoint still gets
// measured, tagged "unknown", so a wrong target is visible in the results rather than fatal.
export function readThreadModel(baseUrl) {
  const res = http.get(`${baseUrl}/actuator/threadmodel`, {
    timeout: '10s',
    tags: { name: 'threadmodel' },
    responseCallback: http.expectedStatuses(200),
  });
  const info = { model: 'unknown', server: 'unknown', flavour: 'unknown', applicationReadyMs: null };
  if (res.status !== 200) {
    console.warn(`GET ${baseUrl}/actuator/threadmodel -> ${res.status}; tagging results model=unknown`);
    return info;
  }
  try {
    const j = res.json();
    info.model = j.model || 'unknown';
    info.server = j.server || 'unknown';
    info.flavour = flavourName(j.runtime && j.runtime.flavour);
    info.applicationReadyMs = (j.startup && j.startup.applicationReadyMs) ?? null;
  } catch (e) {
    console.warn(`/actuator/threadmodel is not JSON: ${e}`);
  }
  return info;
}

// runtime.flavour is either a string ("jvm") or an object with a name ({"name": "jvm", "cds": false, ...}).
export function flavourName(f) {
  if (typeof f === 'string' && f) return f;
  if (f && typeof f === 'object' && typeof f.name === 'string' && f.name) return f.name;
  return 'unknown';
}

function jsonBody(r) {
  try {
    return r.json();
  } catch (e) {
    return undefined;
  }
}

function isObject(v) {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

// What "the body has the expected data" means for each sample endpoint.
// Returns { kind: 'json'|'text', ok: (response) => boolean }.
export function expectationFor(endpoint) {
  const path = endpoint.split('?')[0];
  if (path === '/greetings') {
    const m = /[?&]name=([^&]*)/.exec(endpoint);
    const name = m ? decodeURIComponent(m[1].replace(/\+/g, ' ')) : 'World';
    return { kind: 'text', ok: (r) => typeof r.body === 'string' && r.body.trim().endsWith(` ${name}!`) };
  }
  if (path === '/ping') return { kind: 'text', ok: (r) => typeof r.body === 'string' && r.body.trim() === '1' };
  if (path === '/health') return { kind: 'json', ok: (r) => { const j = jsonBody(r); return isObject(j) && j.health === 'ok'; } };
  if (path.startsWith('/products/')) {
    return { kind: 'json', ok: (r) => { const j = jsonBody(r); return isObject(j) && 'id' in j && Object.keys(j).length > 1; } };
  }
  if (path.startsWith('/users/')) return { kind: 'json', ok: (r) => { const j = jsonBody(r); return isObject(j) && 'email' in j; } };
  // /cpu and anything else: a non-empty JSON object.
  return { kind: 'json', ok: (r) => { const j = jsonBody(r); return isObject(j) && Object.keys(j).length > 0; } };
}

export function contentTypeOk(kind, r) {
  const ct = String(r.headers['Content-Type'] || r.headers['content-type'] || '').toLowerCase();
  return kind === 'json' ? ct.includes('json') : ct.startsWith('text/');
}

// The checks of an answer as the endpoint gives it when all is well: 200, the expected data, the content type.
export function answerChecks(expectation) {
  return {
    'status is 200': (r) => r.status === 200,
    'body has the expected data': (r) => r.status === 200 && expectation.ok(r),
    [`content-type is ${expectation.kind}`]: (r) => contentTypeOk(expectation.kind, r),
  };
}

// A number with `digits` decimals, '-' for none.
export function fixed(v, digits) {
  return v === null || v === undefined ? '-' : Number(v).toFixed(digits);
}

function fmtMs(v) {
  if (v === undefined || v === null || !isFinite(v)) return '-';
  return v >= 1000 ? `${(v / 1000).toFixed(2)}s` : `${v.toFixed(2)}ms`;
}

// A compact text summary (the stock one lives in a remote jslib, which this project cannot fetch).
export function textSummary(data, title, extraLines) {
  const lines = [];
  lines.push('', `     ${title}`, '');
  const names = Object.keys(data.metrics).sort();
  for (const name of names) {
    const m = data.metrics[name];
    const v = m.values || {};
    let shown;
    if (m.type === 'trend') {
      const isTime = m.contains === 'time';
      shown = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)']
        .filter((k) => k in v)
        .map((k) => `${k}=${isTime ? fmtMs(v[k]) : Number(v[k]).toFixed(2)}`)
        .join(' ');
    } else if (m.type === 'rate') {
      shown = `${(100 * (v.rate || 0)).toFixed(2)}% (${v.passes || 0} of ${(v.passes || 0) + (v.fails || 0)})`;
    } else if (m.type === 'counter') {
      shown = `${v.count} (${Number(v.rate || 0).toFixed(2)}/s)`;
    } else {
      shown = `value=${v.value} min=${v.min} max=${v.max}`;
    }
    let mark = ' ';
    if (m.thresholds) mark = Object.values(m.thresholds).every((t) => t.ok) ? '✓' : '✗';
    lines.push(`   ${mark} ${name.padEnd(40, '.')} ${shown}`);
    if (m.thresholds) {
      for (const [expr, t] of Object.entries(m.thresholds)) lines.push(`       ${t.ok ? 'ok  ' : 'FAIL'} ${expr}`);
    }
  }
  const checks = [];
  (function walk(g) {
    for (const c of g.checks || []) checks.push(c);
    for (const sub of g.groups || []) walk(sub);
  })(data.root_group || {});
  if (checks.length) {
    lines.push('', '     checks');
    for (const c of checks) lines.push(`   ${c.fails ? '✗' : '✓'} ${c.name}: ${c.passes} passed, ${c.fails} failed`);
  }
  for (const l of extraLines || []) lines.push(l);
  lines.push('');
  return lines.join('\n');
}

export function thresholdsFailed(data) {
  return Object.entries(data.metrics)
    .filter(([, m]) => m.thresholds && Object.values(m.thresholds).some((t) => !t.ok))
    .map(([name]) => name);
}

// Where the summary files go: SUMMARY_DIR, else the project's target/k6, whatever the current directory (the path is
// resolved from this file). k6 cannot create a directory and fails to write into a missing one, so the default is
// taken only when it exists; otherwise the files go to the temporary directory, and the summary says where.
// open() in the init context is the only way k6 has to look at a path: it refuses a directory with its own message.
function isDirectory(path) {
  try {
    open(path);
    return false;
  } catch (e) {
    return /with directories/.test(String(e)); // "open() can't be used with directories"; missing: "no such file"
  }
}

function defaultSummaryDir() {
  const target = decodeURIComponent(import.meta.resolve('../../../target/k6').replace(/^file:\/\//, ''));
  return isDirectory(target) ? target : env('TMPDIR', '/tmp');
}

export const SUMMARY_DIR = env('SUMMARY_DIR', '') || defaultSummaryDir();

// handleSummary's answer: the text summary on stdout, and <SUMMARY_DIR>/<SUMMARY_NAME>-summary.json (the script's
// `fields`, the thresholds that failed and k6's data) and -summary.txt. SUMMARY_NAME defaults to the script's name.
// `lines` go below the metrics, then whether every threshold held; `shown`: the data the text lists, when not all.
export function summaryFiles(script, data, { title, fields = {}, lines = [], shown = data }) {
  const failed = thresholdsFailed(data);
  const path = `${SUMMARY_DIR}/${env('SUMMARY_NAME', script)}-summary`;
  const text = textSummary(shown, title, [
    ...lines,
    failed.length ? `   THRESHOLDS FAILED: ${failed.join(', ')}` : '   all thresholds passed',
    `   summary: ${path}.json, .txt`,
  ]);
  const doc = { script, ...fields, thresholds_failed: failed, k6: data };
  return { stdout: text, [`${path}.json`]: JSON.stringify(doc, null, 2), [`${path}.txt`]: text };
}
