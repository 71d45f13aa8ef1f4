import { useState } from 'preact/hooks';
import { idPath } from '../api/client';
import { usePoll } from '../api/use-poll';
import type { App, Deployment, QueueEntry, Task } from '../api/wire';
import { Badge, fmtTime, Loaded } from '../components/misc';
import { QueueDetails } from '../components/queue-details';
import { ActionWaiting, actionsOf, LaterStep } from '../components/waiting';
import { appStatus, healthSummary, noInstancesText, queueById } from '../model/app-status';
import { groupByAgent } from '../model/per-agent';
import { routeHref } from '../model/route';
import { Link } from '../router';
import { AppActionDialog, type AppDialog } from './app-actions';
import { Health } from './apps-view';

const EMBED = 'embed=app.tasks&embed=app.counts&embed=app.deployments&embed=app.lastTaskFailure';

/** One app: what it runs, where (instances per agent), why it waits, its versions, and its actions. */
export function AppView(props: { readonly id: string }) {
  const app = usePoll<{ app: App }>(`/v2/apps/${idPath(props.id)}?${EMBED}`);
  return (
    <section>
      <p><Link href={routeHref({ page: 'apps' })}>← Applications</Link></p>
      <Loaded polled={app} render={(d) => <AppBody app={d.app} />} />
    </section>
  );
}

function AppBody(props: { readonly app: App }) {
  const { app } = props;
  const [dialog, setDialog] = useState<AppDialog | undefined>(undefined);
  const queue = usePoll<{ queue: QueueEntry[] }>('/v2/queue?embed=lastUnusedOffers');
  const deployments = usePoll<Deployment[]>(app.deployments.length > 0 ? '/v2/deployments?embed=waitingFor' : undefined);
  const versions = usePoll<{ versions: string[] }>(`/v2/apps/${idPath(app.id)}/versions`, 10_000);
  const queued = queueById(queue.data?.queue ?? []).get(app.id);
  const mine = (deployments.data ?? []).filter((d) => app.deployments.some((x) => x.id === d.id));
  const current = app.versionInfo?.lastConfigChangeAt ?? app.version;
  return (
    <>
      <div class="page-head">
        <h1>{app.id}</h1>
        <Badge text={appStatus(app, queued)} />
        <div class="actions">
          <button type="button" onClick={() => setDialog({ kind: 'scale' })}>Scale…</button>
          <button type="button" onClick={() => setDialog({ kind: 'restart' })}>Restart…</button>
          <button type="button" onClick={() => setDialog({ kind: 'suspend' })} disabled={app.instances === 0}>Suspend…</button>
          <button type="button" onClick={() => setDialog({ kind: 'edit' })}>Edit JSON…</button>
          <button type="button" class="danger" onClick={() => setDialog({ kind: 'delete' })}>Delete…</button>
        </div>
      </div>
      {dialog !== undefined && <AppActionDialog app={app} dialog={dialog} onClose={() => setDialog(undefined)} />}
      <dl class="facts">
        <dt>Instances</dt><dd data-testid="app-instances">{app.tasksRunning} running / {app.instances} wanted{app.tasksStaged > 0 ? `, ${app.tasksStaged} staging` : ''}</dd>
        <dt>Health</dt><dd><Health h={healthSummary(app)} /></dd>
        <dt>Resources</dt><dd>{app.cpus} cpus, {app.mem} MiB mem, {app.disk} MiB disk</dd>
        <dt>Command</dt><dd><code>{app.cmd ?? '—'}</code></dd>
        <dt>Role</dt><dd>{app.role ?? '—'}</dd>
        <dt>Constraints</dt><dd>{(app.constraints ?? []).map((c) => <code key={c.join()}>{JSON.stringify(c)} </code>)}{(app.constraints ?? []).length === 0 && '—'}</dd>
        <dt>Version</dt><dd>{fmtTime(app.version)} (config {fmtTime(current)}, scaled {fmtTime(app.versionInfo?.lastScalingAt)})</dd>
      </dl>
      {app.lastTaskFailure !== undefined && (
        <div class="warn">Last task failure: {app.lastTaskFailure.state} on {app.lastTaskFailure.host} at {fmtTime(app.lastTaskFailure.timestamp)}: {app.lastTaskFailure.message}</div>
      )}
      {mine.length > 0 && (
        <>
          <h2>Deploying: why it waits</h2>
          {mine.map((d) => (
            <div key={d.id} class="card">
              <div class="muted">deployment <Link href={routeHref({ page: 'deployments' })}>{d.id}</Link>, step {d.currentStep} of {d.totalSteps}</div>
              {actionsOf(d, app.id).map((a) => <ActionWaiting key={a.action} action={a} />)}
              <LaterStep deployment={d} runSpecId={app.id} />
            </div>
          ))}
        </>
      )}
      {queued !== undefined && (
        <>
          <h2>Launch queue: why it is not starting</h2>
          <QueueDetails entry={queued} />
        </>
      )}
      <h2>Instances per agent</h2>
      <TasksPerAgent tasks={app.tasks ?? []} wanted={app.instances} currentVersion={current} onKill={(task) => setDialog({ kind: 'kill', task })} />
      <h2>Versions</h2>
      <ul class="versions">
        {(versions.data?.versions ?? []).map((v) => (
          <li key={v}>{fmtTime(v)}{v === app.version ? ' (current)' : ''}</li>
        ))}
      </ul>
    </>
  );
}

function TasksPerAgent(props: { readonly tasks: readonly Task[]; readonly wanted: number; readonly currentVersion: string; readonly onKill: (t: Task) => void }) {
  if (props.tasks.length === 0) return <p class="muted" data-testid="no-instances">{noInstancesText(props.wanted)}</p>;
  return (
    <div class="agents">
      {groupByAgent(props.tasks, (t) => ({ id: t.slaveId, hostname: t.host })).map((g) => (
        <div key={g.key} class="agent-group" data-agent={g.key}>
          <h3>{g.agent}{g.agentId !== undefined ? <span class="muted"> {g.agentId}</span> : null}{g.items[0]?.zone !== undefined ? <span class="muted"> zone {g.items[0].zone}</span> : null} <span class="muted">({g.items.length})</span></h3>
          <table class="list compact">
            <thead><tr><th>Task</th><th>State</th><th>Health</th><th>Version</th><th>Ports</th><th>Started</th><th /></tr></thead>
            <tbody>
              {g.items.map((t) => (
                <tr key={t.id} data-task={t.id}>
                  <td><code>{t.id}</code></td>
                  <td><Badge text={t.state.replace(/^TASK_/, '')} /></td>
                  <td><TaskHealth task={t} /></td>
                  <td>{t.version === undefined ? '—' : `${fmtTime(t.version)}${t.version < props.currentVersion ? ' (old)' : ''}`}</td>
                  <td>{t.ports.join(', ')}</td>
                  <td>{fmtTime(t.startedAt)}</td>
                  <td><button type="button" class="small danger" onClick={() => props.onKill(t)}>Kill…</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </div>
  );
}

function TaskHealth(props: { readonly task: Task }) {
  const results = props.task.healthCheckResults;
  if (results.length === 0) return <span class="muted">—</span>;
  const alive = results.every((r) => r.alive);
  const cause = results.find((r) => r.lastFailureCause !== undefined)?.lastFailureCause;
  return <span class={alive ? 'ok' : 'bad'} title={cause}>{alive ? 'healthy' : `unhealthy (${Math.max(...results.map((r) => r.consecutiveFailures))} failures)`}</span>;
}
