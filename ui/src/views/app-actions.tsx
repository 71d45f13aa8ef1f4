import { useState } from 'preact/hooks';
import { asFailure, idPath, send } from '../api/client';
import type { App, Task } from '../api/wire';
import { ActionDialog, useErrorSlot } from '../components/action-dialog';
import { WhatIfPanel } from '../components/what-if-panel';
import type { WhatIfAnswer } from '../model/what-if-text';
import { routeHref } from '../model/route';
import { navigate } from '../router';

/** Which dialog of an app page is open. */
export type AppDialog =
  | { readonly kind: 'scale' | 'restart' | 'suspend' | 'delete' | 'edit' }
  | { readonly kind: 'kill'; readonly task: Task };

const force = (f: boolean): string => (f ? '?force=true' : '');

/** The confirmation dialog of one app action (scale, restart, suspend, edit, delete, kill a task). */
export function AppActionDialog(props: { readonly app: App; readonly dialog: AppDialog; readonly onClose: () => void }) {
  const { app, dialog, onClose } = props;
  const path = `/v2/apps/${idPath(app.id)}`;
  switch (dialog.kind) {
    case 'scale':
      return <ScaleDialog app={app} onClose={onClose} />;
    case 'restart':
      return (
        <ActionDialog title={`Restart ${app.id}`} confirmLabel="Restart" forceable onClose={onClose}
          run={(f) => send('POST', `${path}/restart${force(f)}`)}>
          <p>Replaces every instance of {app.id} by a new one, within its upgrade strategy.</p>
        </ActionDialog>
      );
    case 'suspend':
      return (
        <ActionDialog title={`Suspend ${app.id}`} confirmLabel="Suspend" danger forceable onClose={onClose}
          run={(f) => send('PUT', `${path}${force(f)}`, { instances: 0 })}>
          <p>Scales {app.id} to 0 instances: all {app.tasksRunning} running instances are killed. The definition is kept.</p>
        </ActionDialog>
      );
    case 'delete':
      return (
        <ActionDialog title={`Delete ${app.id}`} confirmLabel="Delete" danger forceable onClose={onClose}
          run={(f) => send('DELETE', `${path}${force(f)}`)}
          onDone={() => navigate(routeHref({ page: 'apps' }))}>
          <p>Kills every instance of {app.id} and removes the app and its versions.</p>
        </ActionDialog>
      );
    case 'edit':
      return <EditDialog app={app} onClose={onClose} />;
    case 'kill':
      return <KillDialog app={app} task={dialog.task} onClose={onClose} />;
  }
}

function ScaleDialog(props: { readonly app: App; readonly onClose: () => void }) {
  const [text, setText] = useState(String(props.app.instances));
  const n = Number(text);
  const valid = text.trim() !== '' && Number.isInteger(n) && n >= 0;
  return (
    <ActionDialog title={`Scale ${props.app.id}`} confirmLabel="Scale" forceable ready={valid} onClose={props.onClose}
      run={(f) => send('PUT', `/v2/apps/${idPath(props.app.id)}${force(f)}`, { instances: n })}>
      <label>
        Instances (now {props.app.instances}){' '}
        <input type="number" min={0} step={1} value={text} name="instances" onInput={(e) => setText(e.currentTarget.value)} autoFocus />
      </label>
    </ActionDialog>
  );
}

/** The fields of an app's JSON that the API computes; an update leaves them out. */
const READ_ONLY_FIELDS = [
  'version', 'versionInfo', 'tasksStaged', 'tasksRunning', 'tasksHealthy', 'tasksUnhealthy', 'deployments', 'tasks',
  'lastTaskFailure', 'readinessCheckResults', 'taskStats',
];

function EditDialog(props: { readonly app: App; readonly onClose: () => void }) {
  const initial = Object.fromEntries(Object.entries(props.app).filter(([k]) => !READ_ONLY_FIELDS.includes(k)));
  const [text, setText] = useState(JSON.stringify(initial, null, 2));
  const [whatIf, setWhatIf] = useState<{ readonly answer?: WhatIfAnswer; readonly busy?: boolean }>({});
  // One error for both requests: a what-if or a deploy clears the previous one's, so it never shows stale or twice.
  const errorSlot = useErrorSlot();
  const path = `/v2/apps/${idPath(props.app.id)}`;
  // What-if (docs/what-if.md): the same PUT, simulated on a copy of the cluster for 30 minutes.
  const simulate = async (): Promise<void> => {
    setWhatIf({ busy: true });
    errorSlot.set(undefined);
    try {
      setWhatIf({ answer: (await send<WhatIfAnswer>('PUT', `${path}?dryRun=true&simulate=${WHAT_IF_SPAN}`, text)).body });
    } catch (err) {
      setWhatIf({});
      errorSlot.set(asFailure(err, 'what-if'));
    }
  };
  return (
    <ActionDialog title={`Edit ${props.app.id}`} confirmLabel="Deploy the change" forceable onClose={props.onClose}
      errorSlot={errorSlot} run={(f) => send('PUT', `${path}${force(f)}`, text)}>
      <p>The app's definition (PUT /v2/apps{props.app.id}): a change of anything but <code>instances</code> restarts its instances.</p>
      <textarea class="json" rows={20} value={text} spellcheck={false} onInput={(e) => {
        setText(e.currentTarget.value);
        setWhatIf({});
      }} />
      <p>
        <button type="button" data-testid="what-if-button" disabled={whatIf.busy === true} onClick={() => void simulate()}>
          {whatIf.busy === true ? 'Simulating…' : 'What if? (simulate 30 min)'}
        </button>
      </p>
      {whatIf.answer !== undefined && <WhatIfPanel answer={whatIf.answer} />}
    </ActionDialog>
  );
}

/** How far the edit dialog's what-if looks ahead. */
const WHAT_IF_SPAN = 'PT30M';

function KillDialog(props: { readonly app: App; readonly task: Task; readonly onClose: () => void }) {
  const [mode, setMode] = useState<'none' | 'scale' | 'wipe'>('none');
  const query = mode === 'none' ? '' : `?${mode}=true`;
  return (
    <ActionDialog title="Kill a task" confirmLabel="Kill" danger onClose={props.onClose}
      run={() => send('DELETE', `/v2/apps/${idPath(props.app.id)}/tasks/${encodeURIComponent(props.task.id)}${query}`)}>
      <p>Kills <code>{props.task.id}</code> on {props.task.host ?? 'no agent'}.</p>
      <fieldset>
        <label><input type="radio" name="kill-mode" checked={mode === 'none'} onChange={() => setMode('none')} /> and launch a replacement</label>
        <label><input type="radio" name="kill-mode" checked={mode === 'scale'} onChange={() => setMode('scale')} /> and scale the app down by one (<code>scale=true</code>)</label>
        <label><input type="radio" name="kill-mode" checked={mode === 'wipe'} onChange={() => setMode('wipe')} /> and wipe its reservation (<code>wipe=true</code>)</label>
      </fieldset>
    </ActionDialog>
  );
}
