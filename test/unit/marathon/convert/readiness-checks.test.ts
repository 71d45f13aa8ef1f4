import t from 'tap';
import { appEcho, appErrors, convertApp, makeAppJson } from './fixtures/builders';

const PORTS = { portDefinitions: [{ port: 0, name: 'http-api' }, { port: 0, name: 'admin' }] };

t.test('readiness check defaults (fact 31) are filled and echoed; the port name resolves to its host port', async (t) => {
  const spec = convertApp(makeAppJson({ ...PORTS, readinessChecks: [{}] }));
  t.same(spec.readinessChecks, [{
    name: 'readinessCheck', protocol: 'HTTP', path: '/', portName: 'http-api', portIndex: 0, intervalMs: 30_000,
    timeoutMs: 10_000, httpStatusCodesForReady: [200], preserveLastResponse: false,
  }]);
  t.same(appEcho(spec).readinessChecks, [{
    name: 'readinessCheck', protocol: 'HTTP', path: '/', portName: 'http-api', intervalSeconds: 30,
    timeoutSeconds: 10, httpStatusCodesForReady: [200], preserveLastResponse: false,
  }]);
});

t.test('given values are kept; a named second port is probed on its own host port', async (t) => {
  const spec = convertApp(makeAppJson({
    ...PORTS,
    readinessChecks: [{ name: 'warm', protocol: 'https', path: '/ok', portName: 'admin', intervalSeconds: 5, timeoutSeconds: 2, httpStatusCodesForReady: [200, 204], preserveLastResponse: true }],
  }));
  t.match(spec.readinessChecks?.[0], { name: 'warm', protocol: 'HTTPS', portIndex: 1, intervalMs: 5000, timeoutMs: 2000, httpStatusCodesForReady: [200, 204], preserveLastResponse: true });
});

t.test('no readinessChecks: none, and left out of the echo (fact 27)', async (t) => {
  const spec = convertApp(makeAppJson(PORTS));
  t.equal(spec.readinessChecks, undefined);
  t.notOk('readinessChecks' in appEcho(spec));
});

const INVALID: [string, Record<string, unknown>, { path: string; errors: string[] }[]][] = [
  ['two checks', { ...PORTS, readinessChecks: [{}, {}] }, [{ path: '/readinessChecks', errors: ['Only one readinessCheck is allowed'] }]],
  ['an unknown port name', { ...PORTS, readinessChecks: [{ portName: 'nope' }] },
    [{ path: '/readinessChecks/0/portName', errors: ['No port definition reference for portName nope'] }]],
  ['timeout not below interval', { ...PORTS, readinessChecks: [{ intervalSeconds: 10, timeoutSeconds: 10 }] },
    [{ path: '/readinessChecks/0/timeoutSeconds', errors: ['timeoutSeconds must be smaller than intervalSeconds'] }]],
  ['a TCP protocol', { ...PORTS, readinessChecks: [{ protocol: 'TCP' }] },
    [{ path: '/readinessChecks/0/protocol', errors: ['must be one of HTTP, HTTPS'] }]],
  ['a status code out of range', { ...PORTS, readinessChecks: [{ httpStatusCodesForReady: [42] }] },
    [{ path: '/readinessChecks/0/httpStatusCodesForReady/0', errors: ['must be an HTTP status code (100-999)'] }]],
];

for (const [name, json, expected] of INVALID) {
  t.test(`invalid: ${name}`, async (t) => {
    t.same(appErrors(makeAppJson(json)), expected);
  });
}
