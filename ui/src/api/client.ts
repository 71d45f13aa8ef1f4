import { apiUrl } from './api-url';

/**
 * The UI's only way to pacer: its HTTP API, as any Marathon client uses it. Every failure becomes
 * an {@link ApiFailure} carrying Marathon's error body (`message`, `details`) when there is one.
 */

/** A request that did not succeed: the HTTP status (0: no answer) and Marathon's error body. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Marathon's `details` (`[{path, errors}]` for 422, the locking `deployments` for 409, …). */
    readonly details: unknown,
    readonly request: string,
  ) {
    super(message);
  }
}

/** `err` as an {@link ApiFailure}: itself when it is one, else a failure with no answer (status 0) of `what`. */
export function asFailure(err: unknown, what: string): ApiFailure {
  return err instanceof ApiFailure ? err : new ApiFailure(0, String(err), undefined, what);
}

/** What a successful request answered: the parsed body and the headers that matter. */
export interface ApiAnswer<T> {
  readonly status: number;
  readonly body: T;
  /** `Marathon-Deployment-Id` of a change, if any. */
  readonly deploymentId?: string;
}

/** GET `path` and parse its JSON. */
export async function getJson<T>(path: string, signal?: AbortSignal): Promise<T> {
  return (await request<T>('GET', path, undefined, signal)).body;
}

/** A change: `method` `path` with an optional JSON body; rejects with {@link ApiFailure}. */
export async function send<T = unknown>(method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<ApiAnswer<T>> {
  return request<T>(method, path, body);
}

async function request<T>(method: string, path: string, body: unknown, signal?: AbortSignal): Promise<ApiAnswer<T>> {
  const what = `${method} ${path}`;
  let res: Response;
  try {
    res = await fetch(apiUrl(path), {
      method,
      headers: body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (err) {
    if (signal?.aborted === true) throw err;
    throw new ApiFailure(0, `pacer did not answer ${what}: ${(err as Error).message}`, undefined, what);
  }
  const text = await res.text();
  const parsed = parseJson(text);
  if (!res.ok) throw failureOf(res.status, parsed, text, what);
  const deploymentId = res.headers.get('Marathon-Deployment-Id') ?? undefined;
  return { status: res.status, body: parsed as T, ...(deploymentId === undefined ? {} : { deploymentId }) };
}

function parseJson(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** Marathon's error body `{message, details}`, or the status and the raw text when it is not one. */
export function failureOf(status: number, body: unknown, text: string, what: string): ApiFailure {
  if (typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string') {
    const b = body as { message: string; details?: unknown; deployments?: unknown };
    // 409 names the locking deployments beside `message` (Marathon's AppLockedException body).
    return new ApiFailure(status, b.message, b.details ?? b.deployments, what);
  }
  return new ApiFailure(status, `${what} answered ${status}${text === '' ? '' : `: ${text.slice(0, 200)}`}`, undefined, what);
}

/** `/v2/apps/web/x` for `/web/x`: run spec ids are absolute paths. */
export function idPath(id: string): string {
  return id.replace(/^\/+/, '');
}
