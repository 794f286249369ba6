// Concurrency steps, like `oha -n N -c N --disable-keepalive` for N = 100, 300, 900, 2700:
// each step starts N VUs at once and each VU sends exactly one request. Steps run one after the
// other, each in its own time window.
//
//   k6 run load/k6/steps.js                                        # /greetings?name=k6, 100,300,900,2700
//   STEPS=10,30 STEP_WINDOW=10 k6 run load/k6/steps.js             # smoke test
//   KEEP_ALIVE=true k6 run load/k6/steps.js                        # reuse connections
//
// Env: BASE_URL (http://localhost:8080), ENDPOINT (/greetings?name=k6), STEPS (100,300,900,2700),
//      STEP_WINDOW (seconds per step, 60; a request still running then is cut and counts as failed),
//      STEP_PAUSE (seconds between windows, 1), KEEP_ALIVE (false), ERROR_RATE_MAX (0.10),
//      SUMMARY_DIR (target/k6), SUMMARY_NAME (steps).
// Per step it reports requests, success %, total time, slowest, fastest, average, p95, requests/s
// (times are client-side per request: blocked + connect + send + wait + receive, as oha counts them).
import http from 'k6/http';
import { check } from 'k6';
import { Rate, Trend } from 'k6/metrics';
import {
  TREND_STATS, answerChecks, baseUrl, env, envBool, envNumber, expectationFor, fixed, readThreadModel, requestMetrics,
  summaryFiles, tagVu,
} from './lib/common.js';

const BASE_URL = baseUrl();
const ENDPOINT = env('ENDPOINT', '/greetings?name=k6');
const STEPS = String(env('STEPS', '100,300,900,2700')).split(',').map((s) => parseInt(s.trim(), 10)).filter((n) => n > 0);
const STEP_WINDOW = envNumber('STEP_WINDOW', 60);
const STEP_PAUSE = envNumber('STEP_PAUSE', 1);
const KEEP_ALIVE = envBool('KEEP_ALIVE', false);
const ERROR_RATE_MAX = envNumber('ERROR_RATE_MAX', 0.10);
if (STEPS.length === 0) throw new Error('STEPS must list at least one positive number');

const { errors, requests, responseTime } = requestMetrics();
// Per-step series; tagged {step: N}. step_begin/step_end hold epoch ms, so min(begin)..max(end) is
// the step's wall time.
const stepLatency = new Trend('step_latency', true);
const stepOk = new Rate('step_ok');
const stepBegin = new Trend('step_begin');
const stepEnd = new Trend('step_end');

const scenarios = {};
const thresholds = {
  errors: [`rate<${ERROR_RATE_MAX}`],
  // Every response counted, none lost to the window.
  requests: [`count>=${STEPS.reduce((a, b) => a + b, 0)}`],
};
let start = 0;
for (const n of STEPS) {
  scenarios[`step_${n}`] = {
    executor: 'per-vu-iterations',
    vus: n,
    iterations: 1,
    startTime: `${start}s`,
    maxDuration: `${STEP_WINDOW}s`,
    gracefulStop: '0s',
    tags: { step: String(n) },
    env: { STEP: String(n) },
  };
  start += STEP_WINDOW + STEP_PAUSE;
  // Always-true thresholds: they make k6 keep the per-step sub-metrics for handleSummary.
  for (const m of ['step_latency', 'step_ok', 'step_begin', 'step_end']) {
    thresholds[`${m}{step:${n}}`] = m === 'step_ok' ? ['rate>=0'] : ['min>=0'];
  }
}

export const options = {
  scenarios,
  thresholds,
  noConnectionReuse: !KEEP_ALIVE,
  batchPerHost: 0,
  summaryTrendStats: TREND_STATS,
  setupTimeout: '30s',
};

const expectation = expectationFor(ENDPOINT);

export function setup() {
  const info = readThreadModel(BASE_URL);
  console.log(`steps: ${BASE_URL}${ENDPOINT} model=${info.model} server=${info.server} steps=${STEPS.join(',')} ` +
    `keepAlive=${KEEP_ALIVE} window=${STEP_WINDOW}s`);
  return info;
}

export default function (info) {
  tagVu(info);
  const step = __ENV.STEP;
  const tags = { step };

  const begin = Date.now();
  const res = http.get(`${BASE_URL}${ENDPOINT}`, {
    timeout: `${Math.max(1, STEP_WINDOW - 1)}s`,
    tags: { name: ENDPOINT.split('?')[0], step },
  });
  const end = Date.now();
  const ok = check(res, answerChecks(expectation), tags);
  const t = res.timings;
  const latency = t.blocked + t.connecting + t.tls_handshaking + t.duration;
  errors.add(!ok, tags);
  requests.add(1, tags);
  responseTime.add(t.duration, tags);
  stepLatency.add(latency, tags);
  stepOk.add(ok, tags);
  stepBegin.add(begin, tags);
  stepEnd.add(end, tags);
}

// Turns k6's summary data into one row per step. Exported for reuse; pure function of `data`.
export function stepRows(data, steps) {
  const rows = [];
  for (const n of steps) {
    const m = (name) => (data.metrics[`${name}{step:${n}}`] || {}).values || {};
    const lat = m('step_latency');
    const ok = m('step_ok');
    const begin = m('step_begin');
    const end = m('step_end');
    const done = (ok.passes || 0) + (ok.fails || 0);
    const totalS = done ? (end.max - begin.min) / 1000 : null;
    rows.push({
      step: n,
      concurrency: n,
      requests: n,
      completed: done,
      succeeded: ok.passes || 0,
      success_pct: (100 * (ok.passes || 0)) / n,
      total_s: totalS,
      slowest_s: done ? lat.max / 1000 : null,
      fastest_s: done ? lat.min / 1000 : null,
      average_s: done ? lat.avg / 1000 : null,
      p95_s: done ? lat['p(95)'] / 1000 : null,
      requests_per_s: totalS ? done / totalS : null,
    });
  }
  return rows;
}

export function handleSummary(data) {
  const info = data.setup_data || {};
  const rows = stepRows(data, STEPS);
  // The per-step helper thresholds always pass; drop them from the printed list to keep it readable.
  const shown = JSON.parse(JSON.stringify(data));
  for (const k of Object.keys(shown.metrics)) if (/^step_(latency|ok|begin|end)(\{|$)/.test(k)) delete shown.metrics[k];
  const table = [
    '',
    `     steps (keep-alive ${KEEP_ALIVE ? 'on' : 'off'})`,
    '     requests  concurrency  success %  total s  slowest s  fastest s  average s  p95 s  req/s',
    ...rows.map((r) =>
      `     ${String(r.requests).padStart(8)}  ${String(r.concurrency).padStart(11)}  ${fixed(r.success_pct, 2).padStart(9)}  ` +
      `${fixed(r.total_s, 3).padStart(7)}  ${fixed(r.slowest_s, 3).padStart(9)}  ${fixed(r.fastest_s, 3).padStart(9)}  ` +
      `${fixed(r.average_s, 3).padStart(9)}  ${fixed(r.p95_s, 3).padStart(5)}  ${fixed(r.requests_per_s, 1).padStart(6)}`),
  ];
  return summaryFiles('steps', data, {
    title: `steps ${BASE_URL}${ENDPOINT} (model=${info.model}, server=${info.server}, flavour=${info.flavour})`,
    fields: { target: `${BASE_URL}${ENDPOINT}`, threadmodel: info, keep_alive: KEEP_ALIVE, step_window_s: STEP_WINDOW,
      steps: rows },
    lines: table,
    shown,
  });
}
