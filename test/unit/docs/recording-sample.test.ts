import { readFileSync } from 'node:fs';
import t from 'tap';
import { RECORDING_FORMAT } from '../../../src/runtime/recording/recording-format';
import { repoPath } from '../../harness/repo-path';

/**
 * The README says which format the recording in `docs/recordings/local-web` is of (it had called
 * it a `pacer-recording/1` one long after it was re-recorded in the current format): the sample is
 * of the current format, and the README names that format for it.
 */
t.test('the README names the format of docs/recordings/local-web, the current one', async (t) => {
  const first = readFileSync(repoPath('docs', 'recordings', 'local-web', 'recording.jsonl'), 'utf8').split('\n')[0] ?? '';
  const start = JSON.parse(first) as { k?: string; recording?: string };
  t.equal(start.k, 'start', 'the sample begins with its start record');
  t.equal(start.recording, RECORDING_FORMAT, 'the sample is of the current format (scripts/record-sample.sh remakes it)');
  const readme = readFileSync(repoPath('README.md'), 'utf8').replace(/\s+/g, ' ');
  const version = RECORDING_FORMAT.slice(RECORDING_FORMAT.lastIndexOf('/'));
  t.ok(readme.includes(`the sample in \`docs/recordings/local-web\` is of the current format, \`${version}\``), `the README says the sample is of format ${version}`);
});
