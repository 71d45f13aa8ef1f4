/**
 * `Location` of a created app. Marathon builds it from the app id alone, resolved against the
 * server root (fact 17: `http://<host>/foo`, not `/v2/apps/foo`).
 */
export function appLocation(host: string, appId: string): string {
  return `http://${host}${appId}`;
}
