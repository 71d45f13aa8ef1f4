import { usePoll } from '../api/use-poll';
import type { Info, SimView } from '../api/wire';
import { Badge, fmtDuration, fmtTime, Loaded, Meter } from '../components/misc';
import type { ApiFailure } from '../api/client';
import { ErrorBox } from '../components/error-box';
import { clusterLabel, infoFailureText, simPageState } from '../model/cluster';

/** The path of pacer's simulation endpoint (src/api/ui/sim-routes.ts). */
export const SIM_PATH = '/pacer/v1/sim';

/**
 * `--cluster sim` only: the virtual clock, the simulated agents and the workload's faults. `info`
 * (`/v2/info`, undefined until it answers) says whether the cluster is the simulator: only then is
 * `/pacer/v1/sim` read (elsewhere it is an unknown route), else the page says what it is for.
 */
export function SimulationView(props: { readonly info: Info | undefined; readonly infoError: ApiFailure | undefined }) {
  const { info, infoError } = props;
  const state = simPageState(info, infoError !== undefined);
  const sim = usePoll<SimView>(state === 'sim' ? SIM_PATH : undefined, 1000);
  return (
    <section>
      <div class="page-head"><h1>Simulation</h1></div>
      {state === 'not-sim' && info !== undefined && (
        <p class="muted" data-testid="not-sim">The simulation page is for pacer started with <code>--cluster sim</code> (this one: {clusterLabel(info)}).</p>
      )}
      {state === 'unknown' && infoError !== undefined && (
        <>
          <p class="muted" data-testid="sim-unknown">
            The simulation page is for pacer started with <code>--cluster sim</code>; which cluster this is cannot be told
            ({infoFailureText(infoError.status)}): <code>/v2/info</code> did not answer it.
          </p>
          <ErrorBox error={infoError} />
        </>
      )}
      {(state === 'sim' || state === 'loading') && <Loaded polled={sim} render={(s) => <SimBody sim={s} />} />}
    </section>
  );
}

function SimBody(props: { readonly sim: SimView }) {
  const { sim } = props;
  const w = sim.workload;
  return (
    <>
      <dl class="facts">
        <dt>Virtual time</dt><dd data-testid="virtual-time"><strong>{fmtDuration(sim.virtualTime.elapsedMs)}</strong> <span class="muted">({fmtTime(sim.virtualTime.now)})</span></dd>
        <dt>Workload</dt><dd>{w.name} <Badge text={w.verdict} /> <span class="muted">seed {w.seed}, {fmtDuration(w.durationMs)}, ×{w.speed} real time</span></dd>
        {w.description !== undefined && (<><dt>About</dt><dd>{w.description}</dd></>)}
      </dl>
      {w.violations.length > 0 && <div class="error">Invariant violated: {w.violations.join('; ')}</div>}
      <h2>Agents</h2>
      <table class="list" data-testid="agents-table">
        <thead><tr><th>Agent</th><th>Zone</th><th>State</th><th>Tasks</th><th>CPUs</th><th>Mem (MiB)</th><th>Ports</th><th>Attributes</th></tr></thead>
        <tbody>
          {sim.agents.map((a) => {
            const pool = a.pools[0];
            return (
              <tr key={a.agentId} data-agent={a.agentId}>
                <td>{a.hostname}</td>
                <td>{[a.region, a.zone].filter((x) => x !== undefined).join(' / ') || '—'}</td>
                <td><Badge text={a.dead ? 'dead' : a.phase} /></td>
                <td>{a.tasks}</td>
                <td>{pool !== undefined && <Meter label="cpus" used={pool.cpus.used} total={pool.cpus.total} />}</td>
                <td>{pool !== undefined && <Meter label="mem" used={pool.mem.used} total={pool.mem.total} />}</td>
                <td>{pool !== undefined && <Meter label="ports" used={pool.ports.used} total={pool.ports.total} />}</td>
                <td>{Object.entries(a.attributes).map(([k, v]) => `${k}:${v}`).join(' ')}{a.pools.length > 1 ? ` · reserved for ${a.pools.slice(1).map((p) => p.role).join(', ')}` : ''}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <h2>Faults of the workload</h2>
      {sim.faults.length === 0 ? <p class="muted">The workload has no fault steps.</p> : (
        <table class="list compact" data-testid="faults-table">
          <thead><tr><th>At</th><th>Fault</th><th>Agents</th><th /></tr></thead>
          <tbody>
            {sim.faults.map((f, i) => (
              <tr key={i} class={f.done ? 'done' : 'todo'}>
                <td>{fmtDuration(f.atMs)}</td>
                <td>{f.kind}</td>
                <td>{f.agentIds.join(', ')}</td>
                <td>{f.done ? 'happened' : 'upcoming'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
