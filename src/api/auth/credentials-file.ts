import { parsePasswordHash, type ScryptHash } from './password-hash';

/**
 * Reads a credentials file: one `user:<PHC scrypt hash>` per line, as `npm run passwd -- USER`
 * prints it (the htpasswd layout with a standard hash format); blank lines and lines starting
 * with `#` are ignored. Errors name the line, never its content (it holds a hash).
 */
export function parseCredentialsFile(text: string): Map<string, ScryptHash> | { error: string } {
  const users = new Map<string, ScryptHash>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const colon = line.indexOf(':');
    const user = colon < 0 ? '' : line.slice(0, colon);
    const hash = colon < 0 ? undefined : parsePasswordHash(line.slice(colon + 1));
    if (user === '') return { error: `line ${i + 1}: expected user:$scrypt$ln=…,r=…,p=…$salt$hash (make one with npm run passwd -- USER)` };
    if (hash === undefined) return { error: `line ${i + 1}: the password of ${JSON.stringify(user)} is not a PHC scrypt hash within bounds (make one with npm run passwd -- USER)` };
    if (users.has(user)) return { error: `line ${i + 1}: user ${JSON.stringify(user)} is given twice` };
    users.set(user, hash);
  }
  return users;
}
