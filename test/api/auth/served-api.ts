import type { Test } from 'tap';
import type { ApiAuthentication } from '../../../src/api/auth/api-authentication';
import { EventStreamHub } from '../../../src/api/events/event-stream-hub';
import { buildServer } from '../../../src/api/server';
import { ApiListeners } from '../../../src/runtime/api-listeners';
import { defaultConfig, type PacerConfig } from '../../../src/runtime/config';
import { withListenerFacts } from '../../../src/runtime/runtime-parts';
import { makeApi, TEST_API_CONFIG } from '../api-fixture';

/**
 * The API over a simulated core behind `auth`, served by pacer's own listeners on 127.0.0.1 at a
 * free port, for tests that need a real client and real connections; closed (with `auth`) at the
 * test's end. Answers the `host:port` it listens on.
 */
export async function serveWithAuth(t: Test, auth: ApiAuthentication): Promise<string> {
  const config: PacerConfig = { ...defaultConfig(process.cwd()), address: '127.0.0.1', port: 0 };
  const listeners = new ApiListeners(config);
  const api = makeApi();
  const hub = new EventStreamHub({ subscribe: (listener) => api.harness.scheduler.subscribe(listener), clock: api.deps.clock });
  const app = buildServer({ deps: { ...api.deps, events: hub, config: withListenerFacts(TEST_API_CONFIG, listeners) }, stream: hub, auth, serverFactory: listeners.serverFactory });
  const listening = await listeners.listen(app);
  t.teardown(async () => {
    auth.close();
    await Promise.all([app.close(), listeners.close()]);
    await api.app.close();
  });
  return listening[0].address;
}
