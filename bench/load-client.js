// Load generator for the loopback benchmarks, run as its own process so the client does not
// share the server's event loop (on 2 cores: one for each). Bounded: stops after DURATION_MS.
//   node bench/load-client.js URL BODY_JSON CONCURRENCY DURATION_MS
import http from 'node:http';

const [url, body, concArg, msArg] = process.argv.slice(2);
const conc = Number(concArg ?? 16);
const durationMs = Number(msArg ?? 4000);
const u = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: conc });
const payload = Buffer.from(body);
let done = 0;
let failed = 0;
const lat = [];
const end = Date.now() + durationMs;

function once() {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': payload.length },
      },
      (res) => {
        res.resume();
        res.on('end', () => {
          lat.push(Number(process.hrtime.bigint() - t0) / 1e6);
          if (res.statusCode === 200) done++;
          else failed++;
          resolve();
        });
      },
    );
    req.on('error', () => {
      failed++;
      resolve();
    });
    req.end(payload);
  });
}

const t0 = performance.now();
await Promise.all(
  Array.from({ length: conc }, async () => {
    while (Date.now() < end) await once();
  }),
);
const secs = (performance.now() - t0) / 1000;
lat.sort((a, b) => a - b);
agent.destroy();
console.log(
  JSON.stringify({ done, failed, secs, p50: lat[Math.floor(lat.length / 2)] ?? null, p99: lat[Math.floor(lat.length * 0.99)] ?? null }),
);
