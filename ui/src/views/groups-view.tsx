import { useState } from 'preact/hooks';
import { idPath, send } from '../api/client';
import { usePoll } from '../api/use-poll';
import type { Group } from '../api/wire';
import { ActionDialog } from '../components/action-dialog';
import { Loaded } from '../components/misc';
import { routeHref } from '../model/route';
import { Link } from '../router';

/** The group tree: groups, their apps and pods, dependencies, and deleting a group. */
export function GroupsView() {
  const root = usePoll<Group>('/v2/groups?embed=group.groups&embed=group.apps&embed=group.pods');
  const [deleting, setDeleting] = useState<string | undefined>(undefined);
  return (
    <section>
      <div class="page-head"><h1>Groups</h1></div>
      {deleting !== undefined && (
        <ActionDialog title={`Delete group ${deleting}`} confirmLabel="Delete" danger forceable onClose={() => setDeleting(undefined)}
          run={(f) => send('DELETE', `/v2/groups/${idPath(deleting)}${f ? '?force=true' : ''}`)}>
          <p>Deletes {deleting} with every app, pod and group in it.</p>
        </ActionDialog>
      )}
      <Loaded polled={root} render={(g) => <ul class="tree"><GroupNode group={g} onDelete={setDeleting} /></ul>} />
    </section>
  );
}

function GroupNode(props: { readonly group: Group; readonly onDelete: (id: string) => void }) {
  const { group } = props;
  return (
    <li>
      <div class="group-line">
        <strong>{group.id}</strong>
        <span class="muted"> {group.apps.length} apps, {group.pods.length} pods, {group.groups.length} groups</span>
        {group.dependencies.length > 0 && <span class="muted"> · depends on {group.dependencies.join(', ')}</span>}
        {group.enforceRole === true && <span class="muted"> · enforceRole</span>}
        {group.id !== '/' && <button type="button" class="small danger" onClick={() => props.onDelete(group.id)}>Delete…</button>}
      </div>
      <ul>
        {group.apps.map((a) => (
          <li key={a.id}>app <Link href={routeHref({ page: 'app', id: a.id })}>{a.id}</Link> <span class="muted">× {a.instances}</span></li>
        ))}
        {group.pods.map((p) => (
          <li key={p.id}>pod <Link href={routeHref({ page: 'pod', id: p.id })}>{p.id}</Link> <span class="muted">× {p.spec?.scaling?.instances ?? '?'}</span></li>
        ))}
        {group.groups.map((g) => <GroupNode key={g.id} group={g} onDelete={props.onDelete} />)}
      </ul>
    </li>
  );
}
