// CPU-heavy requests mixed with fast ones: CPU_VUS clients call /cpu?ms=CPU_MS back to back while FAST_VUS
// clients call /ping (with SLEEP_S think time). Virtual threads are not time-sliced, so the CPU-bound requests
// can hold every carrier thread and delay the fast ones; the fast requests' latency (p99) shows it.
//
//   k6 run load/k6/mix.js                                   # 8 CPU + 8 fast clients for 60 s against :8080
//   BASE_URL=http://127.0.0.1:9090 DURATION=126 CPU_MS=20 k6 run load/k6/mix.js
//   CPU_PATH=/lanes/cpu k6 run load/k6/mix.js                # sample-web's CPU route in a lane (profile lanes)
//
// Env: BASE_URL, DURATION (seconds, 60), CPU_VUS (8), CPU_MS (20), CPU_PATH (/cpu), FAST_VUS (8), FAST_ENDPOINT (/ping),
//      SLEEP_S (fast clients' think time, 0.05), SUMMARY_DIR (target/k6), SUMMARY_NAME (mix).
// Metrics: requests (Counter, both kinds), fast_response_time and cpu_response_time (Trends), errors (Rate).
// Every sample is tagged kind=fast or kind=cpu. A threshold miss makes k6 exit with code 99.
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Counter, Rate, Trend } from 'k6/metrics';
import { TREND_STATS, baseUrl, env, envNumber, readThreadModel, summaryFiles, tagVu } from './lib/common.js';

const BASE_URL = baseUrl();
const DURATION = Math.max(1, Math.round(envNumber('DURATION', 60)));
const CPU_VUS = Math.max(1, Math.round(envNumber('CPU_VUS', 8)));
const CPU_MS = envNumber('CPU_MS', 20);
const CPU_PATH = env('CPU_PATH', '/cpu');
const FAST_VUS = Math.max(1, Math.round(envNumber('FAST_VUS', 8)));
const FAST_ENDPOINT = env('FAST_ENDPOINT', '/ping');
const SLEEP_S = envNumber('SLEEP_S', 0.05);

export const errors = new Rate('errors');
export const requests = new Counter('requests');
export const fastResponseTime = new Trend('fast_response_time', true);
export const cpuResponseTime = new Trend('cpu_response_time', true);

export const options = {
  scenarios: {
    cpu: { executor: 'constant-vus', exec: 'cpu', vus: CPU_VUS, duration: `${DURATION}s`, gracefulStop: '10s',
      tags: { kind: 'cpu' } },
    fast: { executor: 'constant-vus', exec: 'fast', vus: FAST_VUS, duration: `${DURATION}s`, gracefulStop: '10s',
      tags: { kind: 'fast' } },
  },
  thresholds: {
    errors: ['rate<0.10'],
    requests: ['count>0'],
    // Listed so that the summary reports each kind on its own.
    'http_req_duration{kind:fast}': ['p(99)<30000'],
    'http_req_duration{kind:cpu}': ['p(99)<30000'],
  },
  summaryTrendStats: TREND_STATS,
};

export function setup() {
  const info = readThreadModel(BASE_URL);
  console.log(`mix: ${BASE_URL} model=${info.model} server=${info.server} ${CPU_VUS} x ${CPU_PATH}?ms=${CPU_MS} + ` +
    `${FAST_VUS} x ${FAST_ENDPOINT} for ${DURATION}s`);
  return info;
}

export function cpu(info) {
  tagVu(info);
  const res = http.get(`${BASE_URL}${CPU_PATH}?ms=${CPU_MS}`, { timeout: '30s', tags: { name: CPU_PATH } });
  const ok = check(res, { 'cpu status is 200': (r) => r.status === 200 });
  errors.add(!ok);
  requests.add(1);
  cpuResponseTime.add(res.timings.duration);
}

export function fast(info) {
  tagVu(info);
  const res = http.get(`${BASE_URL}${FAST_ENDPOINT}`, { timeout: '30s', tags: { name: FAST_ENDPOINT.split('?')[0] } });
  const ok = check(res, { 'fast status is 200': (r) => r.status === 200 });
  errors.add(!ok);
  requests.add(1);
  fastResponseTime.add(res.timings.duration);
  if (SLEEP_S > 0) sleep(SLEEP_S);
}

export function handleSummary(data) {
  const info = data.setup_data || {};
  return summaryFiles('mix', data, {
    title: `mix ${BASE_URL} (model=${info.model}, server=${info.server})`,
    fields: { target: `${BASE_URL}${CPU_PATH}?ms=${CPU_MS} + ${BASE_URL}${FAST_ENDPOINT}`, threadmodel: info, duration_s: DURATION,
      cpu_vus: CPU_VUS, fast_vus: FAST_VUS },
  });
}
