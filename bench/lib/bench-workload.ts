import { appFromWire } from '../../src/marathon/convert/app-from-wire';
import type { AppSpec } from '../../src/scheduler/model/app';

/**
 * The benchmark workload: `apps` apps totalling `instances` instances, through the same converter
 * as the API. A mix of ten app kinds, by index: UNIQUE hostname, GROUP_BY @zone, MAX_PER rack,
 * CLUSTER @region (with value), LIKE on a text attribute, UNLIKE on a set attribute, IS on a
 * scalar, role `prod` with reserved and unreserved resources, two dynamic host ports, plain.
 */
export function benchWorkload(apps: number, instances: number, regions: number, racks: number): AppSpec[] {
  const out: AppSpec[] = [];
  const base = Math.floor(instances / apps);
  let rest = instances - base * apps;
  for (let k = 0; k < apps; k++) {
    const n = base + (rest-- > 0 ? 1 : 0);
    const result = appFromWire(definition(k, n, regions, racks), { defaultRole: '*', versionIso: '2026-01-01T00:00:00.000Z' });
    if (!result.ok) throw new Error(`bench workload app ${k}: ${JSON.stringify(result.errors)}`);
    out.push(result.spec);
  }
  return out;
}

function definition(k: number, n: number, regions: number, racks: number): Record<string, unknown> {
  const def: Record<string, unknown> = { id: `/bench/app-${k}`, cmd: 'sleep 3600', instances: n, cpus: 0.1, mem: 32, portDefinitions: [] };
  switch (k % 10) {
    case 0: def.constraints = [['hostname', 'UNIQUE']]; break;
    case 1: def.constraints = [['@zone', 'GROUP_BY']]; break;
    case 2: def.constraints = [['rack', 'MAX_PER', String(Math.ceil(n / racks) + 2)]]; break;
    case 3: def.constraints = [['@region', 'CLUSTER', `region-${k % regions}`]]; break;
    case 4: def.constraints = [['kernel', 'LIKE', '5\\..*']]; break;
    case 5: def.constraints = [['disks', 'UNLIKE', '\\{hdd.*']]; break;
    case 6: def.constraints = [['generation', 'IS', '2']]; break;
    case 7:
      def.id = `/prod/app-${k}`;
      def.role = 'prod';
      def.acceptedResourceRoles = ['*', 'prod'];
      break;
    case 8: def.portDefinitions = [{ port: 0 }, { port: 0 }]; break;
    default: break;
  }
  return def;
}
