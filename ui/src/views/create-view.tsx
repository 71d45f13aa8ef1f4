import { useState } from 'preact/hooks';
import { ApiFailure, send } from '../api/client';
import { refreshAll } from '../api/use-poll';
import { ErrorBox } from '../components/error-box';
import { notify } from '../components/toasts';
import { routeHref } from '../model/route';
import { navigate } from '../router';

type Kind = 'app' | 'pod' | 'group';

const EXAMPLES: Readonly<Record<Kind, unknown>> = {
  app: { id: '/hello', cmd: 'exec python3 -m http.server $PORT0 --bind 127.0.0.1', cpus: 0.1, mem: 64, instances: 1 },
  pod: { id: '/hello-pod', containers: [{ name: 'main', exec: { command: { shell: 'sleep 3600' } }, resources: { cpus: 0.1, mem: 32 } }], scaling: { kind: 'fixed', instances: 1 } },
  group: { id: '/team', apps: [{ id: '/team/worker', cmd: 'sleep 3600', cpus: 0.1, mem: 32, instances: 2 }] },
};

const ENDPOINT: Readonly<Record<Kind, string>> = { app: '/v2/apps', pod: '/v2/pods', group: '/v2/groups' };

/** Creates an app, pod or group from its Marathon JSON (POST), showing the API's validation errors. */
export function CreateView() {
  const [kind, setKind] = useState<Kind>('app');
  const [text, setText] = useState(JSON.stringify(EXAMPLES.app, null, 2));
  const [error, setError] = useState<ApiFailure | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const choose = (k: Kind): void => {
    setKind(k);
    setText(JSON.stringify(EXAMPLES[k], null, 2));
    setError(undefined);
  };
  const create = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    try {
      const answer = await send('POST', ENDPOINT[kind], text);
      const id = (answer.body as { id?: unknown } | undefined)?.id;
      refreshAll();
      notify(`Created ${kind}${typeof id === 'string' ? ` ${id}` : ''}${answer.deploymentId !== undefined ? `: deployment ${answer.deploymentId}` : ''}`);
      if (kind !== 'group' && typeof id === 'string') navigate(routeHref({ page: kind, id }));
      else navigate(routeHref({ page: kind === 'group' ? 'groups' : 'apps' }));
    } catch (err) {
      setError(err instanceof ApiFailure ? err : new ApiFailure(0, String(err), undefined, `POST ${ENDPOINT[kind]}`));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section>
      <div class="page-head"><h1>Create</h1></div>
      <fieldset class="kinds">
        {(['app', 'pod', 'group'] as const).map((k) => (
          <label key={k}><input type="radio" name="kind" checked={kind === k} onChange={() => choose(k)} /> {k} <code>POST {ENDPOINT[k]}</code></label>
        ))}
      </fieldset>
      <textarea class="json" rows={18} spellcheck={false} value={text} aria-label="Definition (JSON)" onInput={(e) => setText(e.currentTarget.value)} />
      {error !== undefined && <ErrorBox error={error} onClose={() => setError(undefined)} />}
      <div class="modal-actions">
        <button type="button" class="primary" disabled={busy} onClick={() => void create()}>{busy ? 'Creating…' : `Create ${kind}`}</button>
      </div>
    </section>
  );
}
