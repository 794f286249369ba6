// The 6-stage ramp of the published "virtual threads with k6" run: 7 minutes, peaking at 35 VUs.
//
//   k6 run load/k6/ramp.js                                  # 7 min against http://localhost:8080/products/1
//   STAGE_SCALE=0.05 k6 run load/k6/ramp.js                 # same shape in 21 s (smoke test)
//   BASE_URL=http://127.0.0.1:9090 ENDPOINT=/greetings?name=k6 PEAK_VUS=70 k6 run load/k6/ramp.js
//   K6_WEB_DASHBOARD=true K6_WEB_DASHBOARD_EXPORT=report.html k6 run load/k6/ramp.js   # HTML report
//
// Env: BASE_URL, ENDPOINT, PEAK_VUS (35), STAGE_SCALE (1), SUMMARY_DIR (target/k6), SUMMARY_NAME (ramp),
//      SLEEP_S (think time between iterations, 0.1).
// A threshold miss makes k6 exit with code 99.
import http from 'k6/http';
import { check, sleep } from 'k6';
import {
  TREND_STATS, answerChecks, baseUrl, env, envNumber, expectationFor, readThreadModel, requestMetrics, summaryFiles, tagVu,
} from './lib/common.js';

const BASE_URL = baseUrl();
const ENDPOINT = env('ENDPOINT', '/products/1');
const PEAK_VUS = Math.max(1, Math.round(envNumber('PEAK_VUS', 35)));
const STAGE_SCALE = envNumber('STAGE_SCALE', 1);
const SLEEP_S = envNumber('SLEEP_S', 0.1);

// [seconds at full length, fraction of PEAK_VUS]: 1 + 1 + 1 + 1 + 2 + 1 = 7 minutes.
export const STAGE_SHAPE = [
  [60, 5 / 35],
  [60, 10 / 35],
  [60, 20 / 35],
  [60, 1],
  [120, 1],
  [60, 0],
];

const stages = STAGE_SHAPE.map(([secs, frac]) => ({
  duration: `${Math.max(1, Math.round(secs * STAGE_SCALE))}s`,
  target: Math.round(frac * PEAK_VUS),
}));

const { errors, requests, responseTime } = requestMetrics();

export const options = {
  scenarios: {
    ramp: { executor: 'ramping-vus', startVUs: 0, stages, gracefulRampDown: '10s', gracefulStop: '10s' },
  },
  thresholds: {
    errors: ['rate<0.10'],
    // A script that throws before recording anything must not pass on an empty error rate.
    requests: ['count>0'],
    http_req_duration: ['p(95)<5000'],
    'http_req_duration{expected_response:true}': ['p(90)<3000'],
    response_time: ['p(95)<5000'],
  },
  summaryTrendStats: TREND_STATS,
};

const expectation = expectationFor(ENDPOINT);

export function setup() {
  const info = readThreadModel(BASE_URL);
  console.log(`ramp: ${BASE_URL}${ENDPOINT} model=${info.model} server=${info.server} flavour=${info.flavour} ` +
    `stages=${stages.map((s) => `${s.duration}->${s.target}`).join(',')}`);
  return info;
}

export default function (info) {
  tagVu(info);
  const res = http.get(`${BASE_URL}${ENDPOINT}`, {
    timeout: '30s',
    tags: { name: ENDPOINT.split('?')[0] },
  });
  const ok = check(res, { ...answerChecks(expectation), 'response time < 3s': (r) => r.timings.duration < 3000 });
  errors.add(!ok);
  requests.add(1);
  responseTime.add(res.timings.duration);
  if (SLEEP_S > 0) sleep(SLEEP_S);
}

export function handleSummary(data) {
  const info = data.setup_data || {};
  return summaryFiles('ramp', data, {
    title: `ramp ${BASE_URL}${ENDPOINT} (model=${info.model}, server=${info.server}, flavour=${info.flavour})`,
    fields: { target: `${BASE_URL}${ENDPOINT}`, threadmodel: info, peak_vus: PEAK_VUS, stage_scale: STAGE_SCALE, stages },
  });
}
