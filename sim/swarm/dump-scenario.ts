import { Document, isMap, isSeq, visit } from 'yaml';
import { generateRawScenario } from './generate-raw-scenario';

/** Collections whose flow form (`{ a: 1 }`, `[x, y]`) is at most this long are written on one line. */
const FLOW_MAX_CHARS = 100;

/**
 * One swarm seed's scenario as a YAML file that `npm run sim FILE` runs, replaying exactly what
 * the swarm ran for that seed (same document, same seed, so the same trace): the starting point
 * of a regression scenario. Short collections are written in flow style, like the hand-written
 * scenarios, so that the file is readable enough to cut down by hand.
 */
export function dumpScenario(seed: number, fileName = `swarm-${seed}.yaml`): string {
  const doc = new Document(generateRawScenario(seed));
  visit(doc, {
    Pair(_, pair) {
      // Only values of keys: timeline steps (items of a sequence) stay in block style.
      const value = pair.value;
      if ((isMap(value) || isSeq(value)) && JSON.stringify(value.toJSON()).length <= FLOW_MAX_CHARS) value.flow = true;
    },
  });
  doc.commentBefore = ` Swarm seed ${seed}: npm run sim -- ${fileName}\n`
    + ` (the same run as: npm run sim -- swarm --seeds 1 --from ${seed})`;
  return doc.toString({ lineWidth: 120 });
}
