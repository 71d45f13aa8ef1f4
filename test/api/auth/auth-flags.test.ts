import t from 'tap';
import { resolve } from 'node:path';
import { defaultConfig, parseConfig, usage, type PacerConfig } from '../../../src/runtime/config';
import { exposureWarnings, isLoopback } from '../../../src/runtime/exposure-warnings';

const CWD = '/srv/pacer';

function parsed(argv: readonly string[], env: NodeJS.ProcessEnv = {}): PacerConfig {
  const config = parseConfig(argv, env, CWD);
  if (config === 'help' || 'error' in config) throw new Error(`unexpected: ${JSON.stringify(config)}`);
  return config;
}

t.test('defaults: open API, Marathon\'s realm, /ping open, https_port 8443, HTTP on', async (tt) => {
  const config = defaultConfig(CWD);
  tt.match(config, { httpRealm: 'Mesosphere', httpAuthOpenPaths: ['/ping'], httpsPort: 8443, disableHttp: false });
  tt.equal(config.httpCredentials, undefined);
  tt.equal(config.sslCert, undefined);
});

t.test('the new flags and their environment variables', async (tt) => {
  const config = parsed([
    '--http_credentials', 'a:b', '--http_credentials_file', 'creds', '--http_tokens_file=tok', '--http_realm', 'Ops',
    '--http_auth_open_paths', '/ping, /metrics', '--ssl_cert', 'c.pem', '--ssl_key', 'k.pem', '--https_port', '9443', '--disable_http',
    '--mesos_authentication_principal', 'pacer', '--mesos_authentication_secret_file', 'secret',
  ]);
  tt.match(config, {
    httpCredentials: 'a:b', httpCredentialsFile: resolve(CWD, 'creds'), httpTokensFile: resolve(CWD, 'tok'), httpRealm: 'Ops',
    httpAuthOpenPaths: ['/ping', '/metrics'], sslCert: resolve(CWD, 'c.pem'), sslKey: resolve(CWD, 'k.pem'), httpsPort: 9443, disableHttp: true,
    mesosAuthenticationPrincipal: 'pacer', mesosAuthenticationSecretFile: resolve(CWD, 'secret'),
  });
  const fromEnv = parsed([], {
    PACER_HTTP_CREDENTIALS: 'x:y', PACER_DISABLE_HTTP: 'TRUE', PACER_SSL_CERT: 'c', PACER_SSL_KEY: 'k', PACER_HTTP_AUTH_OPEN_PATHS: '',
  });
  tt.match(fromEnv, { httpCredentials: 'x:y', disableHttp: true, httpAuthOpenPaths: [] });
  tt.equal(parsed(['--ssl_cert', 'c', '--ssl_key', 'k', '--disable_http=false']).disableHttp, false, 'a switch takes =false');
  tt.equal(parsed(['--disable_http', '--port', '9000', '--ssl_cert', 'c', '--ssl_key', 'k']).port, 9000, 'a switch takes no value');
  tt.match(usage(), /--disable_http {2,}serve HTTPS only/);
});

t.test('combinations that cannot work are refused with the flag named', async (tt) => {
  const cases: ReadonlyArray<readonly [readonly string[], RegExp]> = [
    [['--disable_http'], /--disable_http needs --ssl_cert and --ssl_key: Invalid configuration: Neither HTTP nor HTTPS support has been configured\./],
    [['--ssl_cert', 'c.pem'], /--ssl_cert and --ssl_key go together/],
    [['--ssl_key', 'k.pem'], /--ssl_cert and --ssl_key go together/],
    [['--ssl_cert', 'c', '--ssl_key', 'k', '--port', '8443'], /--port and --https_port are both 8443/],
    [['--http_auth_open_paths', 'ping'], /expected route paths starting with \//],
    [['--http_credentials', ''], /expected user:password/],
    [['--http_credentials', 'nocolon'], /--http_credentials \(hidden\): pair 1: expected user:password/],
    [['--http_credentials', 'a:b,a:c'], /pair 2: user "a" is given twice/],
    [['--disable_http=maybe'], /expected true or false/],
    [['--https_port', '70000'], /expected an integer from 0 to 65535/],
    [['--mesos_authentication_secret_file', 's'], /--mesos_authentication_secret_file needs --mesos_authentication_principal/],
  ];
  for (const [argv, message] of cases) {
    const result = parseConfig(argv, {}, CWD);
    tt.match(result, { error: message }, argv.join(' '));
  }
});

t.test('start-up warnings: open beyond loopback, or credentials over plain HTTP beyond loopback', async (tt) => {
  const base = defaultConfig(CWD);
  tt.same(exposureWarnings(base), [], 'loopback: no warning');
  tt.same(exposureWarnings({ ...base, address: 'localhost' }), []);
  tt.same(exposureWarnings({ ...base, address: '::1' }), []);
  tt.match(exposureWarnings({ ...base, address: '0.0.0.0' }), [/the API listens on 0\.0\.0\.0 without authentication/]);
  tt.match(exposureWarnings({ ...base, address: '10.1.2.3', httpTokensFile: '/t' }), [/credentials cross the network in clear text over HTTP on 10\.1\.2\.3:8080/]);
  tt.same(exposureWarnings({ ...base, address: '10.1.2.3', httpCredentials: 'a:b', sslCert: 'c', sslKey: 'k', disableHttp: true }), []);
  for (const [address, loopback] of [['127.0.0.1', true], ['127.8.9.1', true], ['[::1]', true], ['0.0.0.0', false], ['::', false], ['pacer.example', false], ['128.0.0.1', false]] as const) {
    tt.equal(isLoopback(address), loopback, address);
  }
});
