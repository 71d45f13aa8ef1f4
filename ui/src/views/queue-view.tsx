import { useState } from 'preact/hooks';
import { idPath, send } from '../api/client';
import { usePoll } from '../api/use-poll';
import type { QueueBody } from '../api/wire';
import { ActionDialog } from '../components/action-dialog';
import { HeldKills } from '../components/held-kills';
import { Loaded } from '../components/misc';
import { QueueDetails } from '../components/queue-details';
import { routeHref } from '../model/route';
import { Link } from '../router';

/**
 * The launch queue: every run spec with instances waiting to launch, and why offers did not fit;
 * above it, while a kill-storm floor holds unhealthy kills back, which and why.
 */
export function QueueView() {
  const queue = usePoll<QueueBody>('/v2/queue?embed=lastUnusedOffers');
  const [reset, setReset] = useState<string | undefined>(undefined);
  return (
    <section>
      <div class="page-head"><h1>Launch queue</h1></div>
      {reset !== undefined && (
        <ActionDialog title={`Reset the launch delay of ${reset}`} confirmLabel="Reset delay" onClose={() => setReset(undefined)}
          run={() => send('DELETE', `/v2/queue/${idPath(reset)}/delay`)}>
          <p>Ends the backoff of {reset}: its next launch is tried with the next offer.</p>
        </ActionDialog>
      )}
      <Loaded polled={queue} render={(d) => d.queue.length === 0 ? <>{held(d)}<p class="muted">Nothing waits to launch.</p></> : (
        <div>
          {held(d)}
          {d.queue.map((e) => {
            const id = e.app?.id ?? e.pod?.id ?? '?';
            return (
              <div key={id} class="card" data-id={id}>
                <div class="card-head">
                  <strong><Link href={routeHref(e.pod !== undefined ? { page: 'pod', id } : { page: 'app', id })}>{id}</Link></strong>
                  {!e.delay.overdue && <button type="button" onClick={() => setReset(id)}>Reset delay…</button>}
                </div>
                <QueueDetails entry={e} />
              </div>
            );
          })}
        </div>
      )} />
    </section>
  );
}

function held(d: QueueBody) {
  return d.heldUnhealthyKills !== undefined && d.heldUnhealthyKills.length > 0 ? <HeldKills held={d.heldUnhealthyKills} /> : null;
}
