import t from 'tap';
import type { ConvertContext } from '../../../../src/marathon/convert/convert-context';
import { featureMessage } from '../../../../src/marathon/convert/feature-rules';
import { appErrors, CTX, makeAppJson, makePodJson, podErrors } from './fixtures/builders';

/*
 * The feature rules (Marathon's `featureEnabled`) apply to a definition a client sends, whose
 * context carries `--enable_features`: not to a stored record (it loads whatever the flags are
 * now) nor to a definition converted without them (the simulator's scenario files).
 */

const SECRETS = { s: { source: '/vault/s' } };
const EXTERNAL = { containerPath: 'e', mode: 'RW', external: { name: 'v', provider: 'dvdi', options: { 'dvdi/driver': 'rexray' } } };

const definitions = [
  { name: 'app gpus', kind: 'app', json: makeAppJson({ gpus: 1 }), feature: 'gpu_resources', path: '/' },
  { name: 'app secrets', kind: 'app', json: makeAppJson({ secrets: SECRETS }), feature: 'secrets', path: '/secrets' },
  { name: 'app external volume', kind: 'app', json: makeAppJson({ container: { type: 'MESOS', volumes: [EXTERNAL] } }), feature: 'external_volumes', path: '/container/volumes/0' },
  { name: 'pod secrets', kind: 'pod', json: makePodJson({ secrets: SECRETS }), feature: 'secrets', path: '/secrets' },
] as const;

const contexts: readonly { name: string; ctx: ConvertContext; refused: (feature: string) => boolean }[] = [
  { name: 'a request without the features', ctx: { ...CTX, enabledFeatures: [] }, refused: () => true },
  { name: 'a request with the other features', ctx: { ...CTX, enabledFeatures: ['vips', 'task_killing'] }, refused: () => true },
  { name: 'a request with the feature', ctx: { ...CTX, enabledFeatures: ['gpu_resources', 'secrets', 'external_volumes'] }, refused: () => false },
  { name: 'a stored record', ctx: { ...CTX, enabledFeatures: [], storedRecord: true }, refused: () => false },
  { name: 'no features in the context', ctx: CTX, refused: () => false },
];

for (const d of definitions) {
  for (const c of contexts) {
    t.test(`${d.name}, ${c.name}`, async (t) => {
      const errors = d.kind === 'app' ? appErrors(d.json, c.ctx) : podErrors(d.json, c.ctx);
      const found = errors.find((e) => e.path === d.path)?.errors ?? [];
      if (c.refused(d.feature)) t.ok(found.includes(featureMessage(d.feature)), JSON.stringify(errors));
      else t.strictSame(errors, []);
    });
  }
}

t.test("Marathon's message keeps its stray parenthesis", async (t) => {
  t.equal(featureMessage('secrets'), 'Feature secrets is not enabled. Enable with --enable_features secrets)');
});
