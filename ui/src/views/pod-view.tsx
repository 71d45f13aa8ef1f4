import { useState } from 'preact/hooks';
import { idPath, send } from '../api/client';
import { usePoll } from '../api/use-poll';
import type { Deployment, PodInstanceStatus, PodStatus, QueueEntry } from '../api/wire';
import { ActionDialog } from '../components/action-dialog';
import { Badge, fmtTime, Loaded } from '../components/misc';
import { QueueDetails } from '../components/queue-details';
import { ActionWaiting, actionsOf, LaterStep } from '../components/waiting';
import { podRunStatus, queueById } from '../model/app-status';
import { groupByAgent } from '../model/per-agent';
import { routeHref } from '../model/route';
import { Link, navigate } from '../router';

type PodDialog = { readonly kind: 'scale' | 'delete' } | { readonly kind: 'kill'; readonly instance: PodInstanceStatus };

const force = (f: boolean): string => (f ? '?force=true' : '');

/** One pod: its status, instances per agent with their containers, why it waits, and its actions. */
export function PodView(props: { readonly id: string }) {
  const pod = usePoll<PodStatus>(`/v2/pods/${idPath(props.id)}::status`);
  return (
    <section>
      <p><Link href={routeHref({ page: 'apps' })}>← Applications</Link></p>
      <Loaded polled={pod} render={(p) => <PodBody pod={p} />} />
    </section>
  );
}

function PodBody(props: { readonly pod: PodStatus }) {
  const { pod } = props;
  const [dialog, setDialog] = useState<PodDialog | undefined>(undefined);
  const queue = usePoll<{ queue: QueueEntry[] }>('/v2/queue?embed=lastUnusedOffers');
  const deployments = usePoll<Deployment[]>('/v2/deployments?embed=waitingFor');
  const versions = usePoll<string[]>(`/v2/pods/${idPath(pod.id)}::versions`, 10_000);
  const queued = queueById(queue.data?.queue ?? []).get(pod.id);
  const mine = (deployments.data ?? []).filter((d) => d.affectedPods.includes(pod.id));
  const target = pod.spec.scaling?.instances ?? pod.instances.length;
  return (
    <>
      <div class="page-head">
        <h1>{pod.id}</h1>
        <Badge text={podRunStatus(pod, queued)} />
        <div class="actions">
          <button type="button" onClick={() => setDialog({ kind: 'scale' })}>Scale…</button>
          <button type="button" class="danger" onClick={() => setDialog({ kind: 'delete' })}>Delete…</button>
        </div>
      </div>
      {dialog !== undefined && <PodActionDialog pod={pod} dialog={dialog} onClose={() => setDialog(undefined)} />}
      <dl class="facts">
        <dt>Instances</dt><dd>{pod.instances.length} / {target} wanted</dd>
        <dt>Containers</dt><dd>{pod.spec.containers.map((c) => `${c.name} (${c.resources.cpus} cpus, ${c.resources.mem} MiB)`).join(', ')}</dd>
        <dt>Version</dt><dd>{fmtTime(pod.spec.version)}</dd>
        <dt>Status since</dt><dd>{fmtTime(pod.statusSince)}</dd>
      </dl>
      {mine.length > 0 && (
        <>
          <h2>Deploying: why it waits</h2>
          {mine.map((d) => (
            <div key={d.id} class="card">
              <div class="muted">deployment {d.id}, step {d.currentStep} of {d.totalSteps}</div>
              {actionsOf(d, pod.id).map((a) => <ActionWaiting key={a.action} action={a} />)}
              <LaterStep deployment={d} runSpecId={pod.id} />
            </div>
          ))}
        </>
      )}
      {queued !== undefined && (<><h2>Launch queue: why it is not starting</h2><QueueDetails entry={queued} /></>)}
      <h2>Instances per agent</h2>
      {pod.instances.length === 0 ? <p class="muted">No instance.</p> : groupByAgent(pod.instances, (i) => ({ id: i.agentId, hostname: i.agentHostname })).map((g) => (
        <div key={g.key} class="agent-group" data-agent={g.key}>
          <h3>{g.agent}{g.agentId !== undefined ? <span class="muted"> {g.agentId}</span> : null} <span class="muted">({g.items.length})</span></h3>
          <table class="list compact">
            <thead><tr><th>Instance</th><th>Status</th><th>Containers</th><th>Since</th><th /></tr></thead>
            <tbody>
              {g.items.map((i) => (
                <tr key={i.id}>
                  <td><code>{i.id}</code></td>
                  <td><Badge text={i.status} /></td>
                  <td>{i.containers.map((c) => <span key={c.name} class="container">{c.name} <Badge text={c.status.replace(/^TASK_/, '')} /> </span>)}</td>
                  <td>{fmtTime(i.statusSince)}</td>
                  <td><button type="button" class="small danger" onClick={() => setDialog({ kind: 'kill', instance: i })}>Kill…</button></td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ))}
      <h2>Versions</h2>
      <ul class="versions">{(versions.data ?? []).map((v) => <li key={v}>{fmtTime(v)}{v === pod.spec.version ? ' (current)' : ''}</li>)}</ul>
    </>
  );
}

function PodActionDialog(props: { readonly pod: PodStatus; readonly dialog: PodDialog; readonly onClose: () => void }) {
  const { pod, dialog, onClose } = props;
  const path = `/v2/pods/${idPath(pod.id)}`;
  switch (dialog.kind) {
    case 'scale':
      return <PodScaleDialog pod={pod} onClose={onClose} />;
    case 'delete':
      return (
        <ActionDialog title={`Delete ${pod.id}`} confirmLabel="Delete" danger forceable onClose={onClose}
          run={(f) => send('DELETE', `${path}${force(f)}`)} onDone={() => navigate(routeHref({ page: 'apps' }))}>
          <p>Kills every instance of {pod.id} and removes the pod.</p>
        </ActionDialog>
      );
    case 'kill':
      return (
        <ActionDialog title="Kill a pod instance" confirmLabel="Kill" danger onClose={onClose}
          run={() => send('DELETE', `${path}::instances/${encodeURIComponent(dialog.instance.id)}`)}>
          <p>Kills every container of <code>{dialog.instance.id}</code>; a replacement is launched.</p>
        </ActionDialog>
      );
  }
}

/** Pods have no partial update: the scale PUTs the whole current spec with the new count. */
function PodScaleDialog(props: { readonly pod: PodStatus; readonly onClose: () => void }) {
  const now = props.pod.spec.scaling?.instances ?? props.pod.instances.length;
  const [text, setText] = useState(String(now));
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= 0;
  return (
    <ActionDialog title={`Scale ${props.pod.id}`} confirmLabel="Scale" forceable ready={valid} onClose={props.onClose}
      run={(f) => send('PUT', `/v2/pods/${idPath(props.pod.id)}${force(f)}`, { ...props.pod.spec, scaling: { ...props.pod.spec.scaling, kind: 'fixed', instances: n } })}>
      <label>Instances (now {now}) <input type="number" min={0} step={1} value={text} name="instances" onInput={(e) => setText(e.currentTarget.value)} autoFocus /></label>
    </ActionDialog>
  );
}
