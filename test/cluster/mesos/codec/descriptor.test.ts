import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { formatOfMediaType, MEDIA_TYPES } from '../../../../src/cluster/mesos/codec/media-type';
import { mesosDescriptor } from '../../../../src/cluster/mesos/proto/descriptor';
import { buildMesosDescriptor, renderDescriptorModule } from '../../../../src/cluster/mesos/proto/generate-descriptor';
import { repoPath } from '../../../harness/repo-path';

const PROTO_DIR = repoPath('src', 'cluster', 'mesos', 'proto');

t.test('descriptor.ts is generated from the current .proto files (run generate-descriptor.ts)', async (t) => {
  const fresh = buildMesosDescriptor(PROTO_DIR);
  t.strictSame(mesosDescriptor, JSON.parse(JSON.stringify(fresh)), 'same descriptor');
  t.equal(readFileSync(join(PROTO_DIR, 'descriptor.ts'), 'utf8'), renderDescriptorModule(fresh), 'same file text');
});

t.test('media types are matched exactly, as the master does (spec §1.2)', async (t) => {
  const cases: [string | undefined, string | undefined][] = [
    ['application/x-protobuf', 'protobuf'],
    ['application/json', 'json'],
    ['application/json; charset=utf-8', undefined],
    ['Application/JSON', undefined],
    ['application/recordio', undefined],
    [undefined, undefined],
  ];
  for (const [contentType, want] of cases) t.equal(formatOfMediaType(contentType), want, String(contentType));
  t.same(MEDIA_TYPES, { protobuf: 'application/x-protobuf', json: 'application/json' });
});
