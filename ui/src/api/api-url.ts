/**
 * The absolute URL of API path `path` on the page's origin. Every request of the UI goes through
 * it: a page opened as `http://user:password@host/ui/` has a base URL with credentials, against
 * which the browser refuses to resolve a relative request ("Request cannot be constructed from a
 * URL that includes credentials"); the origin never holds them, and the browser still sends the
 * credentials it was given for the origin.
 */
export function apiUrl(path: string): string {
  return new URL(path, pageOrigin()).href;
}

/** The page's origin (read through globalThis: this module is compiled with the UI's model for Node's tests too, which has no DOM types). */
function pageOrigin(): string {
  return (globalThis as unknown as { location: { origin: string } }).location.origin;
}
