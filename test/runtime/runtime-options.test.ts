import t from 'tap';
import { defaultConfig } from '../../src/runtime/config';
import { schedulerOptionsOf } from '../../src/runtime/runtime-parts';
import { localClusterOptions } from '../../src/runtime/start-local';
import { silentLog } from '../../src/runtime/pacer-log';

// The offer-handling flags reach the core and the local cluster (issue 13 / 15: launch rate).

t.test('the offer flags become the core\'s options', async (t) => {
  const config = { ...defaultConfig('/tmp'), maxInstancesPerOffer: 50, declineOfferDurationMs: 3000, acceptRefuseDurationMs: 700 };
  t.match(schedulerOptionsOf(config), { maxInstancesPerOffer: 50, declineRefuseMs: 3000, acceptRefuseMs: 700 });
});

t.test('--local_offer_interval becomes the local cluster\'s offer interval', async (t) => {
  const config = { ...defaultConfig('/tmp'), localOfferIntervalMs: 25, localAgents: 2 };
  t.match(localClusterOptions(config, silentLog()), { offerIntervalMs: 25, agents: 2, sandboxRoot: config.sandboxRoot });
});
