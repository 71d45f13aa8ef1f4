import type { ComponentChildren } from 'preact';
import type { Polled } from '../api/use-poll';
import { ErrorBox } from './error-box';

/** `2026-01-01T00:02:52.949Z` → `2026-01-01 00:02:52` (UTC; in a simulation this is virtual time). */
export function fmtTime(iso: string | undefined): string {
  if (iso === undefined) return '—';
  return iso.replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
}

/** `65000` → `1m 05s`. */
export function fmtDuration(ms: number): string {
  const s = Math.floor(ms / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}h ${String(m).padStart(2, '0')}m ${sec}s` : m > 0 ? `${m}m ${sec}s` : `${s % 60}s`;
}

/** A status word in a coloured pill (the CSS colours by the word). */
export function Badge(props: { readonly text: string; readonly kind?: string }) {
  return <span class={`badge badge-${(props.kind ?? props.text).toLowerCase().replace(/[^a-z]+/g, '-')}`}>{props.text}</span>;
}

/**
 * A polled resource's page body: the first load, the latest error (above the last good data), then
 * `render(data)`.
 */
export function Loaded<T>(props: { readonly polled: Polled<T>; readonly render: (data: T) => ComponentChildren }) {
  const { polled } = props;
  return (
    <>
      {polled.error !== undefined && <ErrorBox error={polled.error} />}
      {polled.data === undefined ? (polled.error === undefined ? <p class="muted">Loading…</p> : null) : props.render(polled.data)}
    </>
  );
}

/** A used / total bar (`cpus 1.5 / 4`). */
export function Meter(props: { readonly used: number; readonly total: number; readonly label: string }) {
  const pct = props.total > 0 ? Math.min(100, (props.used / props.total) * 100) : 0;
  return (
    <div class="meter" title={`${props.label} ${round(props.used)} / ${round(props.total)}`}>
      <div class="meter-fill" style={{ width: `${pct}%` }} />
      <span class="meter-text">{round(props.used)} / {round(props.total)}</span>
    </div>
  );
}

function round(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/0+$/, '');
}
