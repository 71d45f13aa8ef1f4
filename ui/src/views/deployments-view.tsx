import { useState } from 'preact/hooks';
import { send } from '../api/client';
import { usePoll } from '../api/use-poll';
import type { Deployment } from '../api/wire';
import { ActionDialog } from '../components/action-dialog';
import { fmtTime, Loaded } from '../components/misc';
import { ActionWaiting } from '../components/waiting';

type Cancel = { readonly deployment: Deployment; readonly force: boolean };

/** Running deployments, each with its steps and, live, what every current action waits for. */
export function DeploymentsView() {
  const deployments = usePoll<Deployment[]>('/v2/deployments?embed=waitingFor');
  const [cancel, setCancel] = useState<Cancel | undefined>(undefined);
  return (
    <section>
      <div class="page-head"><h1>Deployments</h1></div>
      {cancel !== undefined && <CancelDialog cancel={cancel} onClose={() => setCancel(undefined)} />}
      <Loaded polled={deployments} render={(list) => list.length === 0 ? <p class="muted">No deployment is running.</p> : (
        <div>
          {list.map((d) => (
            <div key={d.id} class="card" data-testid="deployment" data-id={d.id}>
              <div class="card-head">
                <div>
                  <strong>{d.id}</strong>
                  <div class="muted">version {fmtTime(d.version)} · {[...d.affectedApps, ...d.affectedPods].join(', ')}</div>
                </div>
                <div class="actions">
                  <button type="button" onClick={() => setCancel({ deployment: d, force: false })}>Roll back…</button>
                  <button type="button" class="danger" onClick={() => setCancel({ deployment: d, force: true })}>Stop…</button>
                </div>
              </div>
              <ol class="steps">
                {d.steps.map((s, i) => (
                  <li key={i} class={i + 1 < d.currentStep ? 'done' : i + 1 === d.currentStep ? 'current' : 'todo'}>
                    {s.actions.map((a) => `${a.action} ${a.app ?? a.pod ?? ''}`).join(', ')}
                  </li>
                ))}
              </ol>
              <h3>Step {d.currentStep} of {d.totalSteps}: waiting for</h3>
              {d.currentActions.map((a) => <ActionWaiting key={`${a.action}${a.app ?? a.pod}`} action={a} />)}
            </div>
          ))}
        </div>
      )} />
    </section>
  );
}

function CancelDialog(props: { readonly cancel: Cancel; readonly onClose: () => void }) {
  const { deployment, force } = props.cancel;
  return (
    <ActionDialog
      title={force ? `Stop deployment ${deployment.id}` : `Roll back deployment ${deployment.id}`}
      confirmLabel={force ? 'Stop' : 'Roll back'} danger onClose={props.onClose}
      run={() => send('DELETE', `/v2/deployments/${encodeURIComponent(deployment.id)}${force ? '?force=true' : ''}`)}
    >
      {force
        ? <p>Stops the deployment where it is (<code>force=true</code>): nothing is rolled back, the new definitions stay.</p>
        : <p>Cancels the deployment and starts a new one that restores the definitions it changed.</p>}
    </ActionDialog>
  );
}
