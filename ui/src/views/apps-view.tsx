import { Component } from 'preact';
import { useState } from 'preact/hooks';
import { usePoll } from '../api/use-poll';
import type { App, PodStatus, QueueEntry } from '../api/wire';
import { Badge, fmtTime } from '../components/misc';
import { ErrorBox } from '../components/error-box';
import { appStatus, healthSummary, podRunStatus, queueById, type HealthSummary } from '../model/app-status';
import { routeHref } from '../model/route';
import { shallowChanged } from '../model/shallow-changed';
import { Link } from '../router';

const APPS = '/v2/apps?embed=apps.counts&embed=apps.deployments&embed=apps.lastTaskFailure';

/** Apps and pods in one list: status, instances, health, resources, version. */
export function AppsView() {
  const apps = usePoll<{ apps: App[] }>(APPS);
  const pods = usePoll<PodStatus[]>('/v2/pods/::status');
  const queue = usePoll<{ queue: QueueEntry[] }>('/v2/queue');
  const [filter, setFilter] = useState('');
  const queued = queueById(queue.data?.queue ?? []);
  const match = (id: string): boolean => id.toLowerCase().includes(filter.toLowerCase());
  const appRows = (apps.data?.apps ?? []).filter((a) => match(a.id));
  const podRows = (pods.data ?? []).filter((p) => match(p.id));
  return (
    <section>
      <div class="page-head">
        <h1>Applications</h1>
        <input type="search" placeholder="Filter by id" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} aria-label="Filter by id" />
        <Link href={routeHref({ page: 'create' })} class="button primary">Create…</Link>
      </div>
      {apps.error !== undefined && <ErrorBox error={apps.error} />}
      {pods.error !== undefined && <ErrorBox error={pods.error} />}
      {apps.data === undefined && apps.error === undefined ? <p class="muted">Loading…</p> : (
        <table class="list" data-testid="apps-table">
          <thead>
            <tr><th>ID</th><th>Kind</th><th>Status</th><th>Running / target</th><th>Health</th><th>CPUs</th><th>Mem (MiB)</th><th>Version</th></tr>
          </thead>
          <tbody>
            {appRows.map((a) => {
              const h = healthSummary(a);
              return (
                <AppRow
                  key={a.id} id={a.id} status={appStatus(a, queued.get(a.id))} running={a.tasksRunning} target={a.instances}
                  checked={h.checked} healthy={h.healthy} unhealthy={h.unhealthy} unknown={h.unknown}
                  cpus={a.cpus} mem={a.mem} version={fmtTime(a.versionInfo?.lastConfigChangeAt ?? a.version)}
                />
              );
            })}
            {podRows.map((p) => {
              const running = p.instances.filter((i) => i.status === 'STABLE').length;
              const target = p.spec.scaling?.instances ?? p.instances.length;
              return (
                <tr key={p.id} data-id={p.id}>
                  <td><Link href={routeHref({ page: 'pod', id: p.id })}>{p.id}</Link></td>
                  <td>pod</td>
                  <td><Badge text={podRunStatus(p, queued.get(p.id))} /></td>
                  <td>{running} / {target}</td>
                  <td>—</td>
                  <td>{sum(p.spec.containers.map((c) => c.resources.cpus))}</td>
                  <td>{sum(p.spec.containers.map((c) => c.resources.mem))}</td>
                  <td>{fmtTime(p.spec.version)}</td>
                </tr>
              );
            })}
            {appRows.length + podRows.length === 0 && (
              <tr><td colSpan={8} class="muted">{filter === '' ? 'No apps or pods yet: create one.' : 'Nothing matches the filter.'}</td></tr>
            )}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** What one app's row shows: values only, so that an unchanged row is known without rendering it. */
interface AppRowProps {
  readonly id: string;
  readonly status: string;
  readonly running: number;
  readonly target: number;
  readonly checked: boolean;
  readonly healthy: number;
  readonly unhealthy: number;
  readonly unknown: number;
  readonly cpus: number;
  readonly mem: number;
  readonly version: string;
}

/**
 * One app's row, rendered again only when something it shows changed: every poll parses a new
 * list (new objects for every app), and rendering and diffing 800 unchanged rows every 2 s cost
 * the page most of its script time (a browser trial with 800 apps).
 */
class AppRow extends Component<AppRowProps> {
  override shouldComponentUpdate(next: AppRowProps): boolean {
    return shallowChanged(this.props, next);
  }

  override render() {
    const r = this.props;
    return (
      <tr data-id={r.id}>
        <td><Link href={routeHref({ page: 'app', id: r.id })}>{r.id}</Link></td>
        <td>app</td>
        <td><Badge text={r.status} /></td>
        <td>{r.running} / {r.target}</td>
        <td><Health h={{ checked: r.checked, healthy: r.healthy, unhealthy: r.unhealthy, unknown: r.unknown }} /></td>
        <td>{r.cpus}</td>
        <td>{r.mem}</td>
        <td>{r.version}</td>
      </tr>
    );
  }
}

/** Healthy / unhealthy / no result yet, as a compact coloured line. */
export function Health(props: { readonly h: HealthSummary }) {
  const { h } = props;
  if (!h.checked) return <span class="muted">no checks</span>;
  return (
    <span class="health">
      <span class="ok" title="healthy">● {h.healthy}</span>{' '}
      <span class="bad" title="unhealthy">● {h.unhealthy}</span>{' '}
      <span class="unknown" title="no result yet">● {h.unknown}</span>
    </span>
  );
}

function sum(values: readonly number[]): number {
  return Math.round(values.reduce((a, b) => a + b, 0) * 1000) / 1000;
}
