import type { ApiFailure } from '../api/client';

/**
 * An API failure as Marathon reported it: the status, the `message`, and the `details` (for 422 each
 * `{path, errors}` on its own line; anything else as JSON).
 */
export function ErrorBox(props: { readonly error: ApiFailure; readonly onClose?: () => void }) {
  const { error } = props;
  return (
    <div class="error" role="alert">
      {props.onClose !== undefined && <button type="button" class="close" aria-label="Dismiss" onClick={props.onClose}>×</button>}
      <div class="error-title">
        {error.status > 0 ? `${error.status} ` : ''}
        {error.message}
      </div>
      <div class="muted">{error.request}</div>
      <Details details={error.details} />
    </div>
  );
}

function Details(props: { readonly details: unknown }) {
  const { details } = props;
  if (details === undefined || (Array.isArray(details) && details.length === 0)) return null;
  if (Array.isArray(details) && details.every(isPathErrors)) {
    return (
      <ul class="error-details">
        {details.map((d) => (
          <li key={d.path}><code>{d.path}</code>: {d.errors.join('; ')}</li>
        ))}
      </ul>
    );
  }
  return <pre class="error-details">{JSON.stringify(details, null, 2)}</pre>;
}

function isPathErrors(d: unknown): d is { path: string; errors: string[] } {
  if (typeof d !== 'object' || d === null) return false;
  const o = d as { path?: unknown; errors?: unknown };
  return typeof o.path === 'string' && Array.isArray(o.errors);
}
