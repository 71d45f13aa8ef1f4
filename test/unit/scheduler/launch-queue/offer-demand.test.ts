import t from 'tap';
import { OfferDemand } from '../../../../src/scheduler/launch-queue/offer-demand';
import type { ClusterDriver } from '../../../../src/scheduler/ports/cluster-driver';
import type { RunSpecState } from '../../../../src/scheduler/state/run-spec-state';

/** The fields of a run spec's state the demand reads, for a non-resident app of role `role`. */
interface FakeRunSpec {
  spec: { id: string; role: string; resident: boolean; versionInfo: { lastConfigChangeAt: string } };
  scheduled: { length: number };
  toCreate: number;
  deleting: boolean;
  releasing: undefined;
  backoff: undefined;
}

function fakeRunSpec(id: string, role: string): FakeRunSpec {
  return {
    spec: { id, role, resident: false, versionInfo: { lastConfigChangeAt: '2026-01-01T00:00:00.000Z' } },
    scheduled: { length: 0 }, toCreate: 0, deleting: false, releasing: undefined, backoff: undefined,
  };
}

/** A demand whose driver calls are logged as text. */
function demandWithLog(): { demand: OfferDemand; log: string[] } {
  const log: string[] = [];
  const driver = {
    revive: (roles: readonly string[]) => log.push(`revive ${roles.join(',')}`),
    suppress: (roles: readonly string[]) => log.push(`suppress ${roles.join(',')}`),
  } as unknown as ClusterDriver;
  return { demand: new OfferDemand(driver, { nowMs: () => 0 }), log };
}

type Step =
  | { readonly op: 'queue'; readonly app: number; readonly n: number } // instances waiting, the app marked dirty (who queues them does)
  | { readonly op: 'quiet'; readonly app: number; readonly n: number } // instances waiting, nobody told (the matcher's placements)
  | { readonly op: 'placed'; readonly app: number } // the matcher tells the demand it placed from the app
  | { readonly op: 'dirty'; readonly app: number }
  | { readonly op: 'sync' };

/**
 * Runs `steps` twice: as the matcher does now (`placed` → notePlaced while instances wait, dirty when
 * drained) and as it did before (`placed` → dirty): the driver must see the same calls.
 */
function bothWays(steps: readonly Step[]): { noted: string[]; dirty: string[] } {
  const out: string[][] = [];
  for (const way of ['noted', 'dirty'] as const) {
    const { demand, log } = demandWithLog();
    const apps = [fakeRunSpec('/a', '*'), fakeRunSpec('/b', '*'), fakeRunSpec('/c', 'prod')];
    const live = new Set<unknown>(apps);
    const dirty = new Set<RunSpecState>();
    const state = (i: number): RunSpecState => apps[i] as unknown as RunSpecState;
    for (const step of steps) {
      switch (step.op) {
        case 'queue':
          apps[step.app].scheduled.length = step.n;
          dirty.add(state(step.app));
          break;
        case 'quiet':
          apps[step.app].scheduled.length = step.n;
          break;
        case 'placed': {
          const rs = state(step.app);
          const entry = [...demand.wantingEntries()].find((e) => e.rs === rs);
          if (way === 'noted' && entry !== undefined && rs.scheduled.length > 0) demand.notePlaced(entry);
          else dirty.add(rs);
          break;
        }
        case 'dirty':
          dirty.add(state(step.app));
          break;
        case 'sync':
          demand.sync(dirty, (rs) => live.has(rs));
          log.push(`wanting ${[...demand.wantingEntries()].map((e) => e.rs.spec.id).join(',')}`);
          break;
      }
    }
    out.push(log);
  }
  return { noted: out[0], dirty: out[1] };
}

t.test('a placement noted without a look decides as a placement marked dirty', async (t) => {
  const cases: { name: string; steps: Step[]; want: string[] }[] = [
    {
      name: 'placed, some left: nothing to call, still wanting',
      steps: [{ op: 'queue', app: 0, n: 10 }, { op: 'sync' }, { op: 'quiet', app: 0, n: 6 }, { op: 'placed', app: 0 }, { op: 'sync' }],
      want: ['revive *', 'wanting /a', 'wanting /a'],
    },
    {
      name: 'the noted smaller count is what new work is compared with',
      steps: [
        { op: 'queue', app: 0, n: 10 }, { op: 'sync' }, { op: 'quiet', app: 0, n: 6 }, { op: 'placed', app: 0 }, { op: 'sync' },
        { op: 'queue', app: 0, n: 8 }, { op: 'sync' },
      ],
      want: ['revive *', 'wanting /a', 'wanting /a', 'revive *', 'wanting /a'],
    },
    {
      name: 'more queued after the placement in the same input: examined, revived',
      steps: [{ op: 'queue', app: 0, n: 10 }, { op: 'sync' }, { op: 'quiet', app: 0, n: 6 }, { op: 'placed', app: 0 }, { op: 'quiet', app: 0, n: 12 }, { op: 'sync' }],
      want: ['revive *', 'wanting /a', 'revive *', 'wanting /a'],
    },
    {
      name: 'marked dirty by someone else too: examined as usual',
      steps: [{ op: 'queue', app: 0, n: 10 }, { op: 'sync' }, { op: 'quiet', app: 0, n: 4 }, { op: 'placed', app: 0 }, { op: 'dirty', app: 0 }, { op: 'sync' }],
      want: ['revive *', 'wanting /a', 'wanting /a'],
    },
    {
      name: 'drained: dirty, stops wanting, its role suppressed',
      steps: [{ op: 'queue', app: 2, n: 3 }, { op: 'sync' }, { op: 'quiet', app: 2, n: 0 }, { op: 'placed', app: 2 }, { op: 'sync' }],
      want: ['revive prod', 'wanting /c', 'suppress prod', 'wanting '],
    },
    {
      name: 'drained after being noted in the same input (a later cycle): stops wanting',
      steps: [
        { op: 'queue', app: 0, n: 5 }, { op: 'queue', app: 1, n: 5 }, { op: 'sync' },
        { op: 'quiet', app: 0, n: 2 }, { op: 'placed', app: 0 }, { op: 'quiet', app: 0, n: 0 }, { op: 'sync' },
      ],
      want: ['revive *', 'wanting /a,/b', 'wanting /b'],
    },
  ];
  for (const c of cases) {
    const got = bothWays(c.steps);
    t.same(got.noted, got.dirty, `${c.name}: the same calls both ways`);
    t.same(got.noted, c.want, c.name);
  }
});
