// Steady throughput: VUS clients send requests back to back (no think time) for DURATION seconds after WARMUP
// seconds of the same load that is not counted. With keep-alive (the default), as a client pool would.
//
//   k6 run load/k6/throughput.js                                    # /ping, 16 clients, 5 s warm-up, 10 s measured
//   VUS=200 DURATION=20 k6 run load/k6/throughput.js
//
// Env: BASE_URL (http://localhost:8080), ENDPOINT (/ping), VUS (16), WARMUP (5), DURATION (10), KEEP_ALIVE (true),
//      ERROR_RATE_MAX (0.01), SUMMARY_DIR (.), SUMMARY_NAME (throughput).
// Reports, for the measured part only: requests, requests/s, average, median, p95, p99, max, error rate.
import http from 'k6/http';
import { check } from 'k6';
import { Counter, Rate, Trend } from 'k6/metrics';
import { env, envNumber, envBool, readThreadModel, expectationFor, contentTypeOk, textSummary, thresholdsFailed } from './lib/common.js';

const BASE_URL = env('BASE_URL', 'http://localhost:8080').replace(/\/$/, '');
const ENDPOINT = env('ENDPOINT', '/ping');
const VUS = Math.max(1, Math.round(envNumber('VUS', 16)));
const WARMUP = envNumber('WARMUP', 5);
const DURATION = envNumber('DURATION', 10);
const KEEP_ALIVE = envBool('KEEP_ALIVE', true);
const ERROR_RATE_MAX = envNumber('ERROR_RATE_MAX', 0.01);
const SUMMARY_DIR = env('SUMMARY_DIR', '.');
const SUMMARY_NAME = env('SUMMARY_NAME', 'throughput');

// Only the measured phase is counted: these metrics are added to there and nowhere else.
export const errors = new Rate('errors');
export const requests = new Counter('requests');
export const responseTime = new Trend('response_time', true);

const scenarios = {
  measured: { executor: 'constant-vus', vus: VUS, duration: `${DURATION}s`, startTime: `${WARMUP}s`, gracefulStop: '5s',
    env: { MEASURED: 'true' } },
};
if (WARMUP > 0) {
  scenarios.warmup = { executor: 'constant-vus', vus: VUS, duration: `${WARMUP}s`, gracefulStop: '5s' };
}

export const options = {
  scenarios,
  thresholds: { errors: [`rate<${ERROR_RATE_MAX}`], requests: ['count>0'] },
  noConnectionReuse: !KEEP_ALIVE,
  summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'],
  setupTimeout: '30s',
};

const expectation = expectationFor(ENDPOINT);

export function setup() {
  const info = readThreadModel(BASE_URL);
  console.log(`throughput: ${BASE_URL}${ENDPOINT} vus=${VUS} warmup=${WARMUP}s duration=${DURATION}s keepAlive=${KEEP_ALIVE}`);
  return info;
}

export default function () {
  const res = http.get(`${BASE_URL}${ENDPOINT}`, { timeout: '10s', tags: { name: ENDPOINT.split('?')[0] } });
  if (__ENV.MEASURED !== 'true') return;
  const ok = check(res, {
    'status is 200': (r) => r.status === 200,
    'body has the expected data': (r) => r.status === 200 && expectation.ok(r),
    [`content-type is ${expectation.kind}`]: (r) => contentTypeOk(expectation.kind, r),
  });
  errors.add(!ok);
  requests.add(1);
  responseTime.add(res.timings.duration);
}

// One row from k6's summary data; exported for reuse, a pure function of `data`.
export function throughputRow(data) {
  const rt = (data.metrics.response_time || {}).values || {};
  const count = ((data.metrics.requests || {}).values || {}).count || 0;
  const errorRate = ((data.metrics.errors || {}).values || {}).rate;
  return {
    vus: VUS,
    duration_s: DURATION,
    requests: count,
    requests_per_s: count / DURATION,
    average_ms: rt.avg ?? null,
    median_ms: rt.med ?? null,
    p95_ms: rt['p(95)'] ?? null,
    p99_ms: rt['p(99)'] ?? null,
    max_ms: rt.max ?? null,
    error_rate: errorRate ?? null,
  };
}

export function handleSummary(data) {
  const info = data.setup_data || {};
  const row = throughputRow(data);
  const failed = thresholdsFailed(data);
  const f = (v, d) => (v === null || v === undefined ? '-' : Number(v).toFixed(d));
  const lines = [
    '',
    `     throughput (${VUS} clients, keep-alive ${KEEP_ALIVE ? 'on' : 'off'}, ${DURATION} s after ${WARMUP} s warm-up)`,
    `     requests ${row.requests}  req/s ${f(row.requests_per_s, 1)}  avg ${f(row.average_ms, 2)} ms  ` +
      `p95 ${f(row.p95_ms, 2)} ms  p99 ${f(row.p99_ms, 2)} ms  errors ${f(100 * (row.error_rate || 0), 2)} %`,
    failed.length ? `   THRESHOLDS FAILED: ${failed.join(', ')}` : '   all thresholds passed',
  ];
  const text = textSummary(data, `throughput ${BASE_URL}${ENDPOINT} (model=${info.model}, server=${info.server})`, lines);
  const out = { script: 'throughput', target: `${BASE_URL}${ENDPOINT}`, threadmodel: info, keep_alive: KEEP_ALIVE,
    warmup_s: WARMUP, row, thresholds_failed: failed, k6: data };
  return {
    stdout: text,
    [`${SUMMARY_DIR}/${SUMMARY_NAME}-summary.json`]: JSON.stringify(out, null, 2),
    [`${SUMMARY_DIR}/${SUMMARY_NAME}-summary.txt`]: text,
  };
}
