import { ReloadableFile } from '../auth/reloadable-file';
import { parsePolicyFile } from './policy-file';
import { Access, type Policy } from './policy';

/**
 * The API's authorization (`--authorization_file`): the policy, read at start (a file that cannot
 * be used stops pacer) and again on SIGHUP and when the file changes (a broken edit keeps the
 * previous policy and says so), exactly as the credential files (`ReloadableFile`). `accessOf`
 * resolves one principal's rights against the policy in force at that moment.
 */
export class ApiAuthorization {
  private readonly file: ReloadableFile<Policy>;

  constructor(path: string, log: (line: string, level?: 'warn') => void) {
    this.file = new ReloadableFile({ path, what: 'authorization file', parse: parsePolicyFile, count: (policy) => policy.size, log });
  }

  /** The rights of `principal` under the current policy. */
  accessOf(principal: string): Access {
    return new Access(principal, this.file.content);
  }

  /** Re-reads the policy (SIGHUP). */
  reload(): void {
    this.file.reload();
  }

  /** Reloads the policy whenever the file changes (polled every `intervalMs`). */
  watch(intervalMs: number): void {
    this.file.watch(intervalMs);
  }

  /** Stops watching. */
  close(): void {
    this.file.close();
  }
}
