import { Fragment } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { TAIL_MAX, useEventTail, type TailEntry } from '../api/event-tail';
import { Badge, fmtTime } from '../components/misc';
import { eventMatches, eventSummary } from '../model/event-summary';

/** The live tail of `/v2/events`: newest first, filtered by type and text, pausable. */
export function EventsView() {
  const tail = useEventTail(true);
  const [types, setTypes] = useState<ReadonlySet<string>>(new Set());
  const [text, setText] = useState('');
  const [frozen, setFrozen] = useState<readonly TailEntry[] | undefined>(undefined);
  const [open, setOpen] = useState<number | undefined>(undefined);
  const seenTypes = useMemo(() => [...new Set(tail.events.map((e) => e.event.eventType))].sort(), [tail.events]);
  const shown = (frozen ?? tail.events).filter((e) => eventMatches(e.event, types, text));
  const toggle = (t: string): void => {
    const next = new Set(types);
    if (next.has(t)) next.delete(t);
    else next.add(t);
    setTypes(next);
  };
  return (
    <section>
      <div class="page-head">
        <h1>Events</h1>
        <span class={`stream stream-${tail.state.kind}`} data-testid="stream-state">
          {tail.state.kind === 'disconnected' ? `disconnected: ${tail.state.error}; reconnecting` : tail.state.kind}
        </span>
        <input type="search" placeholder="Filter text (app id, task, …)" value={text} onInput={(e) => setText(e.currentTarget.value)} aria-label="Filter text" />
        <button type="button" onClick={() => setFrozen(frozen === undefined ? tail.events : undefined)}>{frozen === undefined ? 'Pause' : 'Resume'}</button>
        <button type="button" onClick={() => { tail.clear(); setFrozen(undefined); }}>Clear</button>
      </div>
      <div class="chips" aria-label="Event types">
        {seenTypes.length === 0 && <span class="muted">Event types appear here as they arrive; select some to show only those.</span>}
        {seenTypes.map((t) => (
          <button type="button" key={t} class={types.has(t) ? 'chip on' : 'chip'} aria-pressed={types.has(t)} onClick={() => toggle(t)}>{t}</button>
        ))}
      </div>
      <p class="muted">{shown.length} shown of the last {tail.events.length} events (at most {TAIL_MAX} kept){frozen !== undefined ? ' · paused' : ''}</p>
      <table class="list compact events" data-testid="events-table">
        <thead><tr><th>Time</th><th>Type</th><th>About</th></tr></thead>
        <tbody>
          {shown.map(({ seq, event }) => (
            <Fragment key={seq}>
              <tr
                class="event-row" data-type={event.eventType} tabIndex={0} aria-expanded={open === seq}
                onClick={() => setOpen(open === seq ? undefined : seq)}
                onKeyDown={(e) => {
                  if (e.key !== 'Enter' && e.key !== ' ') return;
                  e.preventDefault();
                  setOpen(open === seq ? undefined : seq);
                }}
              >
                <td>{fmtTime(event.timestamp)}</td>
                <td><Badge text={event.eventType} kind="event" /></td>
                <td class="summary">{eventSummary(event)}</td>
              </tr>
              {open === seq && <tr><td colSpan={3}><pre class="json">{JSON.stringify(event, null, 2)}</pre></td></tr>}
            </Fragment>
          ))}
        </tbody>
      </table>
    </section>
  );
}
