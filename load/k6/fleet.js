// Steady load spread over several instances of one app (the fleet check, load/fleet_switch.py): each iteration sends
// one request to the next instance in turn, so every instance gets the same share.
//
//   BASE_URLS=http://127.0.0.1:8081,http://127.0.0.1:8082,http://127.0.0.1:8083 k6 run load/k6/fleet.js
//
// Env: BASE_URLS (comma-separated, required), ENDPOINT (/products/1), VUS (30), DURATION (30s), SLEEP_S (0.1),
//      SUMMARY_DIR (target/k6), SUMMARY_NAME (fleet).
// Every request must succeed: a single failed request (no answer, or not 200 with the expected body) fails the run
// (k6 exits 99). The summary has the requests and failures of each instance (tag instance=0,1,2...).
import http from 'k6/http';
import { check, sleep } from 'k6';
import { Rate } from 'k6/metrics';
import { TREND_STATS, env, envNumber, expectationFor, summaryFiles } from './lib/common.js';

const BASE_URLS = env('BASE_URLS', '').split(',').map((u) => u.trim().replace(/\/$/, '')).filter((u) => u);
if (BASE_URLS.length === 0) throw new Error('BASE_URLS must name at least one instance');
const ENDPOINT = env('ENDPOINT', '/products/1');
const VUS = Math.max(1, Math.round(envNumber('VUS', 30)));
const DURATION = env('DURATION', '30s');
const SLEEP_S = envNumber('SLEEP_S', 0.1);

// A request whose status or body is not what the endpoint answers when all is well.
export const errors = new Rate('errors');

const perInstance = {};
BASE_URLS.forEach((_, i) => {
  // Thresholds on the tagged sub-metrics put each instance's counts into the summary.
  perInstance[`http_reqs{instance:${i}}`] = ['count>0'];
  perInstance[`http_req_failed{instance:${i}}`] = ['rate==0'];
});

export const options = {
  scenarios: {
    fleet: { executor: 'constant-vus', vus: VUS, duration: DURATION, gracefulStop: '10s' },
  },
  thresholds: {
    http_req_failed: ['rate==0'],
    errors: ['rate==0'],
    ...perInstance,
  },
  summaryTrendStats: TREND_STATS,
};

const expectation = expectationFor(ENDPOINT);
let turn = 0;

export default function () {
  // The VU number staggers the start, so that the VUs do not all hit the same instance at the same moment.
  const instance = (__VU + turn++) % BASE_URLS.length;
  const res = http.get(`${BASE_URLS[instance]}${ENDPOINT}`, {
    timeout: '30s',
    tags: { name: ENDPOINT.split('?')[0], instance: String(instance) },
  });
  const ok = check(res, {
    'status is 200': (r) => r.status === 200,
    'body as expected': (r) => expectation.ok(r),
  }, { instance: String(instance) });
  errors.add(!ok, { instance: String(instance) });
  sleep(SLEEP_S);
}

export function handleSummary(data) {
  return summaryFiles('fleet', data, { title: `fleet: ${BASE_URLS.length} instances, ${ENDPOINT}, ${VUS} VUs for ${DURATION}` });
}
