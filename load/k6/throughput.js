// Steady throughput: VUS clients send requests back to back (no think time) for DURATION seconds after WARMUP
// seconds of the same load that is not counted. With keep-alive (the default), as a client pool would.
//
//   k6 run load/k6/throughput.js                                    # /ping, 16 clients, 5 s warm-up, 10 s measured
//   VUS=200 DURATION=20 k6 run load/k6/throughput.js
//
// Env: BASE_URL (http://localhost:8080), ENDPOINT (/ping), VUS (16), WARMUP (5), DURATION (10), KEEP_ALIVE (true),
//      ERROR_RATE_MAX (0.01), SUMMARY_DIR (target/k6), SUMMARY_NAME (throughput).
// Reports, for the measured part only: requests, requests/s, average, median, p95, p99, max, error rate.
import http from 'k6/http';
import { check } from 'k6';
import {
  TREND_STATS, answerChecks, baseUrl, env, envBool, envNumber, expectationFor, fixed, readThreadModel, requestMetrics,
  summaryFiles,
} from './lib/common.js';

const BASE_URL = baseUrl();
const ENDPOINT = env('ENDPOINT', '/ping');
const VUS = Math.max(1, Math.round(envNumber('VUS', 16)));
const WARMUP = envNumber('WARMUP', 5);
const DURATION = envNumber('DURATION', 10);
const KEEP_ALIVE = envBool('KEEP_ALIVE', true);
const ERROR_RATE_MAX = envNumber('ERROR_RATE_MAX', 0.01);

// Only the measured phase is counted: these metrics are added to there and nowhere else.
const { errors, requests, responseTime } = requestMetrics();

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
  summaryTrendStats: TREND_STATS,
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
  const ok = check(res, answerChecks(expectation));
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
  return summaryFiles('throughput', data, {
    title: `throughput ${BASE_URL}${ENDPOINT} (model=${info.model}, server=${info.server})`,
    fields: { target: `${BASE_URL}${ENDPOINT}`, threadmodel: info, keep_alive: KEEP_ALIVE, warmup_s: WARMUP, row },
    lines: [
      '',
      `     throughput (${VUS} clients, keep-alive ${KEEP_ALIVE ? 'on' : 'off'}, ${DURATION} s after ${WARMUP} s warm-up)`,
      `     requests ${row.requests}  req/s ${fixed(row.requests_per_s, 1)}  avg ${fixed(row.average_ms, 2)} ms  ` +
        `p95 ${fixed(row.p95_ms, 2)} ms  p99 ${fixed(row.p99_ms, 2)} ms  errors ${fixed(100 * (row.error_rate || 0), 2)} %`,
    ],
  });
}
